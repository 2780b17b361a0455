// Sparse matrices as K-matrices: Dao et al. 2020 Thm 3 ("an n×n matrix with s nonzeros is in
// (𝓑𝓑*)^{4⌈s/n⌉}_4", spec §14.1 [V2]), made constructive. Our construction is our own [R] (the
// paper's proof was not at hand); it lands inside the theorem's class with width 3⌈s/n⌉ + 1,
// which is ≤ 4⌈s/n⌉ for every s ≥ 1.
//
// Inner size m = 4n holds, per chunk of ≤ n nonzeros: the n inputs x (one keeper slot per column),
// the n accumulators, and the copies the chunk multiplies (≤ 2n). Per chunk, three members of 𝓑𝓑*:
//   E_a = a permutation (Thm 2) putting x[c] at the first row of c's class and each accumulator
//         on a row of its own;
//   E_b = M1·M2ᵀ with M2ᵀ = D·G: G copies x[c] over the rows of c's class, a residue class
//         {i : i ≡ σ_c mod 2^(M−K_c)} (a bit-reversed aligned block of 2^K_c ≥ k_c + 1 rows: the
//         copies of different columns never meet in the network), D weighs copy u with the u-th
//         nonzero of the column (the keeper with 1, padding with 0); M1 = the B-part of a
//         permutation Q that groups the weighted copies by row, each beside its accumulator;
//   E_c = M1·M2ᵀ with M2ᵀ = the T-part of Q and M1 = the transpose of a selection network: it
//         adds every row group into its accumulator (the group's first row).
// A last permutation moves accumulator r to row r, which S reads. s = 0 still uses one chunk (the
// zero matrix is not in (𝓑𝓑*)^0_4 = {I_n}: the statement needs s ≥ 1).
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "tensor/kmatrix.h"

namespace cz {

struct SparsePlan {
  KMatrix<int> coded;        // entry t of the list has code t + 2 (kmatrix.h materialize)
  std::size_t chunks = 0;    // max(1, ⌈s/n⌉)
};

// The K-matrix of Σ_t v_t e_{row_t} e_{col_t}ᵀ for the (row, col) list, e = 4. n must be a power of
// two and every index below n (std::invalid_argument otherwise).
SparsePlan sparse_plan(std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& entries);

// Dao's width bound 4⌈s/n⌉ and ours, 3·max(1, ⌈s/n⌉) + 1.
inline std::size_t dao_thm3_width(std::size_t s, std::size_t n) { return 4 * ((s + n - 1) / n); }
inline std::size_t sparse_plan_width(std::size_t s, std::size_t n) {
  const std::size_t c = (s + n - 1) / n;
  return 3 * (c == 0 ? 1 : c) + 1;
}

// The K-matrix (e = 4) of a dense n×n matrix a, through its nonzeros in row-major order.
template <Ring R>
KMatrix<typename R::Elem> sparse_to_kmatrix(const R& r, const Matrix<typename R::Elem>& a) {
  if (a.rows() != a.cols()) throw std::invalid_argument("sparse_to_kmatrix: the matrix is not square");
  std::vector<std::pair<std::size_t, std::size_t>> at;
  std::vector<typename R::Elem> v;
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j)
      if (!r.is_zero(a(i, j))) at.emplace_back(i, j), v.push_back(a(i, j));
  return materialize(r, sparse_plan(a.rows(), at).coded, v);
}

}  // namespace cz
