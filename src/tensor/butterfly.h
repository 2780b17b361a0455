// Butterfly factors and butterfly matrices, exactly as Dao et al. 2020 ("Kaleidoscope", ICLR
// 2020, arXiv 2012.14966) define them (spec §14.1 [V2]); all sizes are powers of two.
//   Butterfly factor of size k:        B_k = [[D1, D2], [D3, D4]], D_i diagonal (k/2)×(k/2).
//   Butterfly factor matrix B_k^(n):   diag(B_k,1, …, B_k,n/k), n/k independent factors.
//   Butterfly matrix B^(n):            B_n^(n) · B_{n/2}^(n) ⋯ B_2^(n)  (log2 n factor matrices).
// A ButterflyFactor stores B_k^(n) as the paper's four diagonals, concatenated over the n/k
// blocks: d1[b·k/2 + t] is D1 of block b at t, so block b pairs rows/columns o+t and o+t+k/2
// (o = b·k). It has 2n parameters. A Butterfly stores its factors with factors[j] = B_{2^(j+1)}^(n),
// so the matrix is factors[L−1] ⋯ factors[0] and, on a vector, factors[0] (stride 1) acts first.
// Generic over the element type; arithmetic goes through a Ring object (exact/rings.h).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "exact/rings.h"
#include "tensor/matrix.h"

namespace cz {

inline bool is_pow2(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }
inline unsigned log2_exact(std::size_t n) {
  if (!is_pow2(n)) throw std::invalid_argument("butterfly: size " + std::to_string(n) + " is not a power of two");
  unsigned l = 0;
  while ((std::size_t{1} << l) < n) ++l;
  return l;
}

template <class E>
struct ButterflyFactor {
  std::size_t n = 0, k = 0;  // matrix size, factor (block) size; stride k/2
  std::vector<E> d1, d2, d3, d4;  // each n/2 long

  ButterflyFactor() = default;
  ButterflyFactor(std::size_t n_, std::size_t k_, const E& zero) : n(n_), k(k_), d1(n_ / 2, zero), d2(n_ / 2, zero), d3(n_ / 2, zero), d4(n_ / 2, zero) {
    if (!is_pow2(n) || !is_pow2(k) || k < 2 || k > n) throw std::invalid_argument("butterfly factor: bad sizes");
  }
  std::size_t stride() const { return k / 2; }
  // Index into d1..d4 of the pair whose lower row is a (a's stride bit clear), and back.
  std::size_t pair_of(std::size_t a) const { return (a / k) * (k / 2) + a % (k / 2); }
  std::size_t lower_of(std::size_t idx) const { return (idx / (k / 2)) * k + idx % (k / 2); }
  std::size_t params() const { return d1.size() + d2.size() + d3.size() + d4.size(); }
  // The transpose is again a butterfly factor: D2 and D3 trade places.
  ButterflyFactor transposed() const { ButterflyFactor t = *this; std::swap(t.d2, t.d3); return t; }
};

// y = F·v, or y = Fᵀ·v when transposed.
template <Ring R>
std::vector<typename R::Elem> apply(const R& r, const ButterflyFactor<typename R::Elem>& f, const std::vector<typename R::Elem>& v,
                                    bool transposed = false) {
  if (v.size() != f.n) throw std::invalid_argument("butterfly factor: vector length differs from the size");
  std::vector<typename R::Elem> y(f.n, r.zero());
  const std::size_t h = f.stride();
  for (std::size_t p = 0; p < f.n / 2; ++p) {
    const std::size_t a = f.lower_of(p), c = a + h;
    const auto& up = transposed ? f.d3[p] : f.d2[p];
    const auto& lo = transposed ? f.d2[p] : f.d3[p];
    y[a] = r.add(r.mul(f.d1[p], v[a]), r.mul(up, v[c]));
    y[c] = r.add(r.mul(lo, v[a]), r.mul(f.d4[p], v[c]));
  }
  return y;
}

template <class E>
struct Butterfly {
  std::size_t n = 1;
  std::vector<ButterflyFactor<E>> factors;  // factors[j] = B_{2^(j+1)}^(n)

  Butterfly() = default;
  // The identity butterfly: D1 = D4 = I, D2 = D3 = 0 in every factor.
  Butterfly(std::size_t n_, const E& zero, const E& one) : n(n_) {
    const unsigned L = log2_exact(n);
    for (unsigned j = 0; j < L; ++j) {
      ButterflyFactor<E> f(n, std::size_t{2} << j, zero);
      for (std::size_t p = 0; p < n / 2; ++p) f.d1[p] = one, f.d4[p] = one;
      factors.push_back(std::move(f));
    }
  }
  std::size_t params() const {
    std::size_t s = 0;
    for (const auto& f : factors) s += f.params();
    return s;
  }
  // Throws std::invalid_argument unless factors[j] is B_{2^(j+1)}^(n) for j < log2 n.
  void check_shape() const {
    const unsigned L = log2_exact(n);
    if (factors.size() != L) throw std::invalid_argument("butterfly: wrong number of factor matrices");
    for (unsigned j = 0; j < L; ++j)
      if (factors[j].n != n || factors[j].k != (std::size_t{2} << j) || factors[j].d1.size() != n / 2 ||
          factors[j].d2.size() != n / 2 || factors[j].d3.size() != n / 2 || factors[j].d4.size() != n / 2)
        throw std::invalid_argument("butterfly: factor " + std::to_string(j) + " has the wrong shape");
  }
};

// y = B·v (factors[0] first) and y = Bᵀ·v (Bᵀ = factors[0]ᵀ ⋯ factors[L−1]ᵀ: factors[L−1]ᵀ first).
template <Ring R>
std::vector<typename R::Elem> apply(const R& r, const Butterfly<typename R::Elem>& b, std::vector<typename R::Elem> v) {
  for (const auto& f : b.factors) v = apply(r, f, v);
  return v;
}
template <Ring R>
std::vector<typename R::Elem> apply_transposed(const R& r, const Butterfly<typename R::Elem>& b, std::vector<typename R::Elem> v) {
  for (std::size_t j = b.factors.size(); j-- > 0;) v = apply(r, b.factors[j], v, true);
  return v;
}

}  // namespace cz
