// K-matrices applied by cyclic BaseConv layers with the vector laid along the sequence axis (issue
// 28; the K-matrix -> BaseConv lemma of spec §14.2 [L] and the routing of Theorem H.21 [M]).
//
// Layout [R, ours]: a vector v of length m (m = e·n̂, the K-matrix's inner size) sits in channel 0,
// rows [0, m), of an N'×d' state with N' >= kmatrix_rows(m) = 6m: three blocks of 2m rows (m data
// rows, then m zero rows that absorb the cyclic wrap of shifts below m). Every other entry is 0.
// One butterfly factor matrix of stride r (a 2×2 block [[A, B], [C, D]] on rows a and c = a + r,
// a's r-bit clear) costs two layers, both pure convolutions (W = 0, b2 = 0, so y = b1 ⊙ (h ⊛ u)):
//   copy   h = δ0 + δ_{2m} + δ_{4m}: block 0 keeps v scaled by (A at a, D at c); block 1 gets v
//          scaled by C at the lower rows a (0 at c); block 2 gets v scaled by B at the upper rows c
//   move   h = δ0 + δ_{4m+r} + δ_{2m−r} (mod 6m): block 0 row i adds block 1 row i − r and block 2
//          row i + r, so y_a = A·v_a + B·v_c and y_c = C·v_a + D·v_c; b1 keeps rows [0, m) only
// (the sum also sends copies into blocks 1, 2 and the gaps: b1 clears them). A member M1·M2ᵀ of
// 𝓑𝓑* is 2·log2(m) factors, so (𝓑𝓑*)^w_e costs 4·w·log2(m) layers, with d' = d (one channel).
// Channels other than 0 are zeroed by every layer here.
#pragma once
#include <cstddef>
#include <string>

#include "model/model.h"
#include "tensor/kmatrix.h"

namespace cz::circuits {

inline std::size_t kmatrix_rows(std::size_t m) { return 6 * m; }

// Appends the layers applying k's inner map E (size m = k.inner()) to channel 0 rows [0, m) of
// model's state (model.conv must be cyclic, model.inner_N >= kmatrix_rows(m)). Afterwards rows
// [0, keep) of channel 0 hold (E·v)[0, keep) and every other entry is 0 (the last layer masks; a
// width-0 K-matrix adds no layer and leaves the state as it was). Returns the layers added.
std::size_t append_kmatrix_rows(Model& model, const KMatrix<Rat>& k, std::size_t keep);

// Gather (2 layers): the N×d input (top-left) to channel 0, entry (i, j) at row j·N + i (the
// column-major vec(u)); when one_row < N', that row also gets the constant 1. Needs N' > N·d.
void append_gather(Model& model, std::size_t one_row);
// Scatter (2 layers): channel 0 row j·N + i back to (i, j), for i < N, j < d; all else 0.
void append_scatter(Model& model);

// The K-matrix lemma's direction (spec §14.2 [L]): M = S·E·Sᵀ ∈ (𝓑𝓑*)^w_e acting on vec(u)
// (column-major; k.n = N·d rounded up to a power of two, M's top-left N·d corner used) as an (N, 4·w·log2(e·n̂) + 4, d, 6·e·n̂, d) cyclic BaseConv model:
// gather, E on the rows, keep N·d rows, scatter. ring: the model's ring ("Z", "Q", "Fp:<p>").
Model kmatrix_to_model(const KMatrix<Rat>& k, std::size_t N, std::size_t d, const std::string& ring);

}  // namespace cz::circuits
