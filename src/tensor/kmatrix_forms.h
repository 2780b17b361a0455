// K-matrix forms of the structured projections the constructions use (issue 28; Zoology Def H.3:
// theory projections are K-matrices with Õ(m) parameters; Dao et al. 2020, spec §14.1 [V2]).
// Given an n×n matrix A (any n), a K-matrix of size n̂ = 2^⌈log2 n⌉ whose top-left n×n corner is A
// (the rest zero, or the identity's; [R]: Dao et al. take powers of two, the corner is S = [I_n 0]
// once more), the cheapest form we know:
//   identity   A = I_n                       (𝓑𝓑*)^0_1 = {I}: width 0, 0 parameters
//   monomial   ≤ 1 nonzero per row and per column (permutations, channel shifts, masks,
//              diagonals): A = D·P with P a permutation completing the partial matching, one
//              member of 𝓑𝓑* (Thm 2, Beneš routing) whose last factor's rows are scaled by D:
//              width 1, e = 1 (e = 2 when n̂ = 1, so that one factor exists): 4·n̂·log2 n̂
//   sparse     s nonzeros: Thm 3's construction (kmatrix_sparse.h), width 3⌈s/n̂⌉ + 1, e = 4;
//              used only when 4·w·4n̂·log2(4n̂) is below the dense n² (else no form: nullopt)
// Every form is exact over the ring; callers that store one check its expansion (kmatrix_form in
// model/kmatrix_projection.h compares it with W entry for entry).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensor/kmatrix.h"
#include "tensor/kmatrix_route.h"
#include "tensor/kmatrix_sparse.h"

namespace cz {

// The smallest power of two >= n (1 for n = 0).
inline std::size_t pad_pow2(std::size_t n) {
  std::size_t m = 1;
  while (m < n) m <<= 1;
  return m;
}

template <class E>
struct KForm {
  KMatrix<E> k;
  std::string kind;  // "identity" | "monomial" | "sparse"
};

template <Ring R>
std::optional<KForm<typename R::Elem>> kmatrix_form_of(const R& r, const Matrix<typename R::Elem>& a) {
  using Elem = typename R::Elem;
  const std::size_t n = a.rows();
  if (n == 0 || a.cols() != n) return std::nullopt;
  const std::size_t nh = pad_pow2(n);
  std::vector<std::pair<std::size_t, std::size_t>> at;
  std::vector<Elem> vals;
  std::vector<std::size_t> row_nz(n, 0), col_nz(n, 0);
  bool identity = true;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const bool z = r.is_zero(a(i, j));
      if (i == j ? !r.equal(a(i, j), r.one()) : !z) identity = false;
      if (!z) at.emplace_back(i, j), vals.push_back(a(i, j)), ++row_nz[i], ++col_nz[j];
    }
  if (identity) {
    KForm<Elem> f;
    f.k.n = nh, f.k.e = 1, f.kind = "identity";
    return f;
  }
  bool monomial = true;
  for (std::size_t i = 0; i < n; ++i) monomial = monomial && row_nz[i] <= 1 && col_nz[i] <= 1;
  if (monomial) {
    const std::size_t e = nh == 1 ? 2 : 1, m = e * nh;
    // pi[i] = the column of row i's nonzero; the other rows take the unused columns in order.
    std::vector<std::size_t> pi(m, kroute::npos);
    std::vector<char> used(m, 0);
    std::vector<int> code(m, 0);  // row scale: 0, or value code t + 2 (materialize)
    for (std::size_t t = 0; t < at.size(); ++t) pi[at[t].first] = at[t].second, used[at[t].second] = 1, code[at[t].first] = static_cast<int>(t + 2);
    std::size_t next = 0;
    for (std::size_t i = 0; i < m; ++i) {
      if (pi[i] != kroute::npos) continue;
      while (used[next]) ++next;
      pi[i] = next, used[next] = 1;
    }
    KMatrix<int> coded;
    coded.n = nh, coded.e = e;
    coded.elements.push_back(kroute::permutation_bbstar(pi));
    // D·M1: scale row x of M1's last factor (it acts last) by code[x]; its entries are 0/1.
    ButterflyFactor<int>& last = coded.elements[0].M1.factors.back();
    for (std::size_t x = 0; x < m; ++x) {
      const std::size_t p = last.pair_of(x);
      const bool upper = (x % last.k) >= last.stride();
      int* row[2] = {upper ? &last.d3[p] : &last.d1[p], upper ? &last.d4[p] : &last.d2[p]};
      for (int* c : row)
        if (*c == 1) *c = code[x];
    }
    KForm<Elem> f{materialize(r, coded, vals), "monomial"};
    return f;
  }
  const SparsePlan plan = sparse_plan(nh, at);
  const std::size_t params = kmatrix_params_formula(plan.coded.width(), 4, nh);
  if (params >= n * n) return std::nullopt;
  KForm<Elem> f{materialize(r, plan.coded, vals), "sparse"};
  return f;
}

}  // namespace cz
