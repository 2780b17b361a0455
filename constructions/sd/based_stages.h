// The BaseConv stages of the Based SD pipeline (JRT Lemma G.20, Prop G.21; spec §10.3), each a
// model of its own, built from the primitive builders (constructions/primitives/builders.h).
//
// Layout (spec §10.3, Errata E3): the input is the JRT prompt v = [u; u] (2N rows, n+1 columns),
// p = |A| the separator's row. `a_first` means |A| < |B| (tasks/sd_targets.h).
//
// Lemma G.20, ours (causal): Y = mask(remember(v, 0, N, shift_down(cumsum(.), N - floor(N/2)))).
// Column n of Y is 1 exactly at row N-1 when A comes first and at row N+p otherwise; every other
// entry is 0. A causal model cannot write h_shift[0] at row 0 (it depends on rows up to
// floor(N/2)-1; causality lemma, spec §2.1), so the kernel is written at an offset and read:
//   top layout    (anticausal shift): h[j]  = Y[N-1+j][n]  -> X^0 or X^{p+1} (shift up, Prop G.21)
//   bottom layout (causal shift):     h'[j] = Y[2N-1-j][n] -> X^N or X^{N-1-p} (shift down)
//
// Prop G.21, ours: w = remember(v, N, 2N, shift_down(., 1)) with s written at row N, i.e.
// w = (A, s, B, s, A, s, B minus its last row): the paper's f: (A, s) -> (s, A) on the second copy,
// done data-independently. Then one BaseConv layer with the data-dependent kernel:
//   top layout:    anticausal h * w puts the smaller-first copy in rows [0, N)  (paper's layout)
//   bottom layout: causal h' * w puts it in rows [N, 2N)                         (fully causal)
#pragma once
#include <vector>

#include "model/model.h"

namespace cz::sdc {

enum class Layout { Top, Bottom };  // where the rearranged copy lands: rows [0,N) or [N,2N)

// Lemma G.20 (causal): (2N, 5, n+1, 2N, 2n+2) for N >= 2; one mask layer when N = 1.
Model g20_model(std::size_t N, unsigned n);
// The kernel read off G.20's output in the given layout (length 2N).
std::vector<std::int64_t> read_kernel(const Matrix<Int>& Y, std::size_t N, unsigned n, Layout layout);
std::vector<std::int64_t> read_kernel(const Matrix<std::int64_t>& Y, std::size_t N, unsigned n, Layout layout);

// Prop G.21 part 1 (causal, data-independent): (2N, 3, n+1, 2N, 2n+2) for N >= 2.
Model g21_insert_model(std::size_t N, unsigned n);
// Prop G.21 part 2: one BaseConv layer with filter `kernel` on every channel; anticausal for
// the top layout, causal for the bottom one. (2N, 1, n+1, 2N, n+1).
Model g21_shift_model(std::size_t N, unsigned n, const std::vector<std::int64_t>& kernel, Layout layout);

}  // namespace cz::sdc
