// mqar/autocorrelation as ONE circuit over the instance (issue 37 item 2): its model depends on the
// instance only through the lags its kernels use (for triples the masks M_K, M_V, M_Q are the
// layout's), so instance → lags → kernels → model → answer is a fixed function of the input bits.
// Built here from the construction's own definitions (lags.h, autocorrelation_{fixed,paper}.cpp),
// as exact integer words (circuits/sat/bitvec.h: no overflow on the domain):
//   lag selection (lags.h choose_lags): per candidate lag s in [1, N) its score — qk: #{(i, j),
//     j < i : q_i = k_j, s = 3(i-j)+2}; autocorr: #{p >= s : tok[p] = tok[p-s]} — (tokens compared
//     as codewords), the rank of s in top_lags' order (score descending, ties to the smaller
//     lag, positive scores only), T = t, or max(1, #needed qk lags) when t = 0; s is chosen iff its
//     score is positive and its rank < T, and it sits in block rank(s).
//   variant=fixed: the model's t blocks are independent channel groups summed by Linear_sum, and
//     the chosen lags are distinct, so its output is the sum over candidate lags s of the block
//     with kernels h^k = g_s·X^s, h^v = g_s·X^{s-1}, g_s = [s chosen] (a block with g_s = 0 is
//     the model's empty block); each block's layers exactly as build_fixed writes them (masks,
//     Q ⊙ (h^k * K), h^v * V, smear, gate, Linear_sum), causal or cyclic.
//   variant=paper: per possible T (1..T_max, T_max = t or the most distinct qk distances) the
//     row-stacked model of build_paper on N' = N·T rows with kernel taps h^K[k] = #{(s, l) : s at
//     rank l, tap(s + l·off) = k}, h^V likewise with s - 1 (taps past N' dropped causally, wrapped
//     cyclically), its five layers evaluated on the rows the top-block readout needs; the answer
//     is the T-th of them for the instance's T.
// Mutants (AutoConfig::mutant, fixed only): DropSmear (E = y, no smear), WrongLag (block 0's lag,
// the rank-0 lag, moved by 3 as build_fixed moves it).
#pragma once
#include <cstddef>

#include "circuits/sat/bitvec.h"
#include "constructions/mqar/solvers.h"
#include "tensor/matrix.h"

namespace cz::mqarc {

// The model's N×c output words on the one-hot triples input u (N = 3n rows of c 0/1 words).
// cfg.shape must be the triples layout. std::invalid_argument otherwise.
Matrix<circuits::sat::Word> autocorr_words(circuits::sat::WordBuilder& wb, const AutoConfig& cfg,
                                           const Matrix<circuits::sat::Word>& u);

}  // namespace cz::mqarc
