// K-matrices (Dao et al. 2020, "Kaleidoscope", arXiv 2012.14966; spec §14.1 [V2]).
//   𝓑𝓑*       : {M1·M2* : M1, M2 butterfly matrices}; M2* is the transpose over Z, Q and Fp
//                (no conjugation in these rings). BBStar holds (M1, M2); on a vector M2ᵀ acts first.
//   (𝓑𝓑*)^w   : products E_w ⋯ E_1 of w members of 𝓑𝓑* (w = width).
//   (𝓑𝓑*)^w_e : {S·E·Sᵀ : E ∈ (𝓑𝓑*)^w of size en×en}, S = [I_n 0 … 0] (e = expansion), i.e.
//                the top-left n×n corner of E. A KMatrix is one member, given by its factors;
//                elements[0] = E_1 acts first.
// Parameters (spec §14.1): 2w butterflies of size en, log2(en) factor matrices each, 2en entries
// per factor matrix: 4·w·e·n·log2(en). kmatrix_params() counts the stored entries of the built
// object; kmatrix_params_formula() is the paper's expression; tests hold them equal.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "tensor/butterfly.h"

namespace cz {

template <class E>
struct BBStar {
  Butterfly<E> M1, M2;  // the matrix M1·M2ᵀ
};

template <class E>
struct KMatrix {
  std::size_t n = 1, e = 1;             // n×n map; expansion e (inner size e·n)
  std::vector<BBStar<E>> elements;      // E_1 first; width w = elements.size()
  std::size_t width() const { return elements.size(); }
  std::size_t inner() const { return e * n; }
  // Throws std::invalid_argument unless n and e·n are powers of two and every butterfly has
  // size e·n with factors of the right shapes.
  void check_shape() const {
    if (!is_pow2(n) || !is_pow2(e)) throw std::invalid_argument("K-matrix: n and e must be powers of two");
    for (const auto& el : elements) {
      if (el.M1.n != inner() || el.M2.n != inner()) throw std::invalid_argument("K-matrix: a butterfly's size is not e·n");
      el.M1.check_shape();
      el.M2.check_shape();
    }
  }
};

inline std::size_t kmatrix_params_formula(std::size_t w, std::size_t e, std::size_t n) {
  return 4 * w * e * n * log2_exact(e * n);
}
template <class E>
std::size_t kmatrix_params(const KMatrix<E>& k) {
  std::size_t s = 0;
  for (const auto& el : k.elements) s += el.M1.params() + el.M2.params();
  return s;
}
template <class E, class IsZero>
std::size_t kmatrix_nonzeros(const KMatrix<E>& k, IsZero&& is_zero) {
  std::size_t s = 0;
  for (const auto& el : k.elements)
    for (const Butterfly<E>* b : {&el.M1, &el.M2})
      for (const auto& f : b->factors)
        for (const std::vector<E>* d : {&f.d1, &f.d2, &f.d3, &f.d4})
          for (const auto& x : *d) s += is_zero(x) ? 0 : 1;
  return s;
}

// y = M·v for one member of 𝓑𝓑*: v ← M2ᵀ v, then v ← M1 v.
template <Ring R>
std::vector<typename R::Elem> apply(const R& r, const BBStar<typename R::Elem>& el, std::vector<typename R::Elem> v) {
  return apply(r, el.M1, apply_transposed(r, el.M2, std::move(v)));
}
// The inner map E = E_w ⋯ E_1 on a vector of length e·n.
template <Ring R>
std::vector<typename R::Elem> apply_inner(const R& r, const KMatrix<typename R::Elem>& k, std::vector<typename R::Elem> v) {
  if (v.size() != k.inner()) throw std::invalid_argument("K-matrix: vector length differs from e·n");
  for (const auto& el : k.elements) v = apply(r, el, std::move(v));
  return v;
}
// S·E·Sᵀ·x for x of length n.
template <Ring R>
std::vector<typename R::Elem> apply(const R& r, const KMatrix<typename R::Elem>& k, const std::vector<typename R::Elem>& x) {
  if (x.size() != k.n) throw std::invalid_argument("K-matrix: vector length differs from n");
  std::vector<typename R::Elem> v(k.inner(), r.zero());
  for (std::size_t i = 0; i < k.n; ++i) v[i] = x[i];
  v = apply_inner(r, k, std::move(v));
  v.resize(k.n);
  return v;
}
// The dense n×n matrix S·E·Sᵀ, column by column (column j = the image of e_j). Exact.
template <Ring R>
Matrix<typename R::Elem> dense(const R& r, const KMatrix<typename R::Elem>& k) {
  Matrix<typename R::Elem> m(k.n, k.n, r.zero());
  std::vector<typename R::Elem> e(k.n, r.zero());
  for (std::size_t j = 0; j < k.n; ++j) {
    e[j] = r.one();
    const auto col = apply(r, k, e);
    e[j] = r.zero();
    for (std::size_t i = 0; i < k.n; ++i) m(i, j) = col[i];
  }
  return m;
}

// Entries of a K-matrix built from codes (kmatrix_route.h): 0 → zero, 1 → one, c ≥ 2 → values[c−2].
template <Ring R>
KMatrix<typename R::Elem> materialize(const R& r, const KMatrix<int>& coded, const std::vector<typename R::Elem>& values = {}) {
  using Elem = typename R::Elem;
  auto map = [&](int c) -> Elem {
    if (c == 0) return r.zero();
    if (c == 1) return r.one();
    if (c < 0 || static_cast<std::size_t>(c - 2) >= values.size()) throw std::invalid_argument("K-matrix: entry code without a value");
    return values[static_cast<std::size_t>(c - 2)];
  };
  auto map_bf = [&](const Butterfly<int>& b) {
    Butterfly<Elem> o;
    o.n = b.n;
    for (const auto& f : b.factors) {
      ButterflyFactor<Elem> g;
      g.n = f.n, g.k = f.k;
      for (auto [src, dst] : {std::pair{&f.d1, &g.d1}, {&f.d2, &g.d2}, {&f.d3, &g.d3}, {&f.d4, &g.d4}})
        for (int c : *src) dst->push_back(map(c));
      o.factors.push_back(std::move(g));
    }
    return o;
  };
  KMatrix<Elem> k;
  k.n = coded.n, k.e = coded.e;
  for (const auto& el : coded.elements) k.elements.push_back({map_bf(el.M1), map_bf(el.M2)});
  return k;
}

}  // namespace cz
