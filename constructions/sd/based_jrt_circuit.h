// sd/based-jrt as ONE circuit over the instance (issue 37 item 2): the pipeline's data-dependent
// pieces — the G.21 shift's filter (read off G.20's output) and, for the data-dependent kernel,
// the G.18 MLP built from the window's first set S — are functions of the instance, so prompt →
// G.20 → kernel → G.21 → window → S → G.18 → flags is one circuit of exact integer words
// (circuits/sat/bitvec.h: no overflow on the domain), written from the construction's definitions:
//   G.20, G.21 insert: the construction's own models (g20_model, g21_insert_model) bit-blasted
//     (circuits/sat/model_bits.h), after PipelineConfig::mutate as the pipeline applies it;
//   kernel: h[j] = Y[N-1+j][n] (top layout) or Y[2N-1-j][n] (bottom) (read_kernel);
//   G.21 shift: z = h * w on every channel, anticausal (top) or causal (bottom) (g21_shift_model);
//   G.18, kernel=dd (build_g18): mask, mark (m = flag + 2·#earlier flags), then per slot p < N the
//     key and query neurons of S_p = the p-th window row's element (weights 2·bit - 1, bias
//     -popcount + 1, -2 more for queries, -1 outside the window), gated by [p < |S|] (|S| = the
//     rows before the window's first flag: a slot past it is a neuron the model does not have),
//     the value neuron relu(1 - m), LinearAttention z[i] = sum_{j<=i} <Q[i], K[j]> V[j] (K's
//     features past |S| are no neuron's output: 0), MLP2 relu(2z - 1);
//   kernel=random: build_g18's data-independent model bit-blasted.
// The answer, as the recurrent programs give it (sd_ref.h): row p = the window's row p, its element
// bits [z != 0] (row_element) and its flag [G.18 output column 0 != 0] (run_g18).
// kernel=exp decides with certified real bounds on e^(-2r·ham): no integer circuit (refused).
#pragma once
#include <vector>

#include "circuits/sat/bitvec.h"
#include "constructions/sd/based_jrt.h"
#include "tensor/matrix.h"

namespace cz::sdc {

// The N answer rows (n element bits, then the flag) of the pipeline on u = encode(x) (N rows of
// n + 1 0/1 words). stage: All (the JRT prompt [u; u]) or G18 (G.18 alone on u).
// std::invalid_argument for kernel=exp or stage g20/g21.
std::vector<circuits::gadgets::Bits> based_answer_bits(circuits::sat::WordBuilder& wb, const PipelineConfig& cfg, Stage stage,
                                                       const Matrix<circuits::sat::Word>& u);

}  // namespace cz::sdc
