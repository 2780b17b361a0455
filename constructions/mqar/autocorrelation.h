// Model builders for Zoology H.8 (data-dependent convolutions, eq 19-34), spec §8. Both take an
// instance (for its position masks M_K, M_V, M_Q, eq 20) and the chosen lags s_1..s_t (lags.h);
// the kernels are h^k_l = X^{s_l} and h^v_l = X^{s_l - 1} (eq 19, 24). Blocks beyond lags.size()
// get zero kernels and contribute nothing.
#pragma once
#include <cstddef>
#include <vector>

#include "constructions/mqar/sparse_model.h"
#include "model/model.h"
#include "tasks/mqar.h"

namespace cz::mqarc {

// Deliberate defects for the mutant tests (the verifier must catch each).
enum class Mutant { None, DropSmear, WrongLag };

// variant=fixed, channel stacking (our causal program, spec §8, with the query slot shared by the
// t blocks): slots of c channels [Q | K_1..K_t | V_1..V_t], d' = (2t+1)c, N' = N, 4 layers:
//   1. masks (eq 20): Q = M_Q⊙u, K_l = M_K⊙u, V_l = M_V⊙u
//   2. eq 21/26 and the value shift: K_l <- Q ⊙ (X^{s_l} * K_l), V_l <- X^{s_l - 1} * V_l
//   3. smear (eq 23) and gate (eq 22/27): V_l <- (sum_j K_l[:, j]) ⊙ V_l
//   4. Linear_sum: Q slot (output channels 0..c-1) <- sum_l V_l
SparseModel build_fixed(const mqar::Instance& x, const std::vector<std::size_t>& lags, std::size_t t,
                        ConvMode conv = ConvMode::Causal, Mutant mutant = Mutant::None);

// variant=paper, the published general-t layout (row stacking, the display after eq 34), spec §8
// and Errata E2: N' = N*t, slots [V | K | Q] of c channels (d' = 3c; the masks of eq 20 are
// position-dependent, so Q, K and V need their own channels in a BaseConv), 5 layers:
//   1. replicate u into the three slots
//   2. u' stacking: Q' = [Q; ...; Q] (kernel sum_b X^{bN}), K' = [0; ...; 0; K] and
//      V' = [0; ...; 0; V] (kernel X^{(t-1)N}), masks from eq 20
//   3. y' = Q' ⊙ (h^K * K') with h^K = sum_l X^{s_l} X^{(l-1) off}; V' <- h^V * V' with
//      h^V = sum_l X^{s_l - 1} X^{(l-1) off} (the text prints h^V * V for y' and h^k_l inside h^V:
//      typos we correct, E2)
//   4. smear and gate: z' = E' ⊙ (h^V * V')
//   5. Linear_sum over the row blocks, as the convolution sum_b X^{bN} (no channel map can add
//      row blocks)
// off = floor(N/3) as printed ("(l-1)·N/3"), or N (block-aligned) with PaperOffset::Block. Taps at
// or beyond N' are dropped in causal mode (they would only leave the sequence) and reduced
// mod N' in cyclic mode.
enum class PaperOffset { Printed, Block };
SparseModel build_paper(const mqar::Instance& x, const std::vector<std::size_t>& lags, std::size_t t, ConvMode conv,
                        PaperOffset off);

}  // namespace cz::mqarc
