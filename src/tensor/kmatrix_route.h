// Routing networks inside 𝓑𝓑*, built as coded K-matrix pieces (entries 0, 1, or a value code
// c ≥ 2 that materialize() in kmatrix.h replaces by values[c−2]). No ring here: the networks are
// combinatorial, the ring comes in when they are materialised.
//
// Data flow through one member M1·M2ᵀ of 𝓑𝓑* on size m = 2^M: M2ᵀ = M2.f[0]ᵀ ⋯ M2.f[M−1]ᵀ acts
// first, stride m/2 first ("T-part"), then M1 = M1.f[M−1] ⋯ M1.f[0], stride 1 first ("B-part").
// Read as switching stages, that is a Beneš network (strides m/2, …, 1, 1, …, m/2), which routes
// every permutation: Dao et al. 2020 Thm 2 (every permutation matrix is in 𝓑𝓑*), made
// constructive here by the looping algorithm (Beneš 1964; Waksman 1968).
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "tensor/kmatrix.h"

namespace cz::kroute {

// Bit reversal of x on M bits.
std::size_t bit_reverse(std::size_t x, unsigned M);

// The permutation matrix P with (P·v)[i] = v[pi[i]] (P[i][pi[i]] = 1) as M1·M2ᵀ, every factor a
// 0/1 switch (straight [[1,0],[0,1]] or cross [[0,1],[1,0]]). Throws std::invalid_argument unless
// pi is a permutation of a power-of-two size.
BBStar<int> permutation_bbstar(const std::vector<std::size_t>& pi);

// The same permutation as "B-part first, then T-part": P = Tᵀ·B with B, T butterflies (B acts
// first, stride 1 first; then Tᵀ, stride m/2 first). Bit reversal R maps stride 2^j to 2^(M−1−j),
// so this is R·(Beneš for R·P·R)·R. Returns {B, T}.
std::pair<Butterfly<int>, Butterfly<int>> permutation_b_then_t(const std::vector<std::size_t>& pi);

// A selection network of T-part shape: G with G[i][src[i]] = 1 and every other entry of row i zero,
// for the rows i with src[i] != npos (the others read whatever the default switches give).
// Realisable when the paths i ← src[i] (at stage λ the path sits at (top λ bits of i, low M−λ bits
// of src[i])) never need one node to read two different nodes; a conflict throws std::logic_error
// (a bug of the caller's layout). Returns the butterfly Gᵀ: used as M2 it acts as G (a gather,
// every row reads one source); used as M1 it acts as Gᵀ (a scatter-add into the sources).
constexpr std::size_t npos = static_cast<std::size_t>(-1);
Butterfly<int> selection_network(const std::vector<std::size_t>& src);

// b·D for the diagonal D = diag(codes): scales column y of b by codes[y], through factor f[0].
// Needs f[0]'s entries in {0, 1}; throws std::invalid_argument otherwise.
void scale_columns(Butterfly<int>& b, const std::vector<int>& codes);

}  // namespace cz::kroute
