// Model builders for the BaseConv primitives (spec §5, reference constructions [R]). They are
// reused by later constructions (e.g. JRT Lemma G.20 composes remember, cumsum and shift_down).
// Every builder states the conv mode it needs.
#pragma once
#include <cstddef>

#include "model/model.h"

namespace cz::build {

// An (N, 0, d, N, d) model shell with the given conv mode; layers are pushed by callers.
Model shell(std::size_t N, std::size_t d, ConvMode conv);

// One layer: W=0, b1=1, h=δ, b2=0  (identity in every conv mode).
Model identity(std::size_t N, std::size_t d, ConvMode conv = ConvMode::Causal);
// shift_down(u, s): causal W=0, b1=1, h=X^s, b2=0 (1 layer, beats the paper's 3);
// cyclic the same with b1 masking rows < s (the wrapped rows). Anticausal: the causal weights
// are returned unchanged (they shift UP there; no anticausal model can shift down).
Model shift_down(std::size_t N, std::size_t d, std::size_t s, ConvMode conv = ConvMode::Causal);
// shift_up(u, s): cyclic b1 = mask(rows < N-s), h = X^(N-s); anticausal h = X^s, b1 = 1.
// Causal: impossible (spec §2.1 causality lemma); the cyclic weights are returned so that the
// verifier exhibits the counterexample.
Model shift_up(std::size_t N, std::size_t d, std::size_t s, ConvMode conv = ConvMode::Cyclic);
// cumsum: causal, h = sum_{k<N} X^k (all ones), W=0, b1=1, b2=0.
Model cumsum(std::size_t N, std::size_t d);
// [x | z] -> [x + z | 0]: W stacks two identities, h=0, b2=1.
Model add_blocks(std::size_t N, std::size_t d);
// [x | z] -> [x ⊙ z | 0]: W routes z into x's slot, h=δ on x's slot.
Model hadamard_blocks(std::size_t N, std::size_t d, ConvMode conv = ConvMode::Causal);
// remember(u, s, t, f) for a causal all-BaseConv f on (t-s) rows and d input channels
// (spec §5 and its §13 improvements): split [M⊙u | (1-M)⊙u], run f on block 1 with its biases
// shifted down by s and zeroed outside [s,t), identity on block 2, then sum the blocks.
// L_f + 2 layers, inner (N, d_f + d). Throws std::invalid_argument on a non-causal or
// non-BaseConv f or bad s, t.
Model remember(std::size_t N, std::size_t d, std::size_t s, std::size_t t, const Model& f);

}  // namespace cz::build
