// Exact evaluation of a Model over any Ring, written once (Halide-style: the semantics live
// here and nowhere else). prepare() converts the rational weights into the ring once; eval()
// then embeds the N×d input top-left into N'×d', runs the layers and reads the top-left N×d.
#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "exact/rings.h"
#include "model/model.h"
#include "tensor/conv.h"
#include "tensor/conv_ntt_fp64.h"
#include "tensor/gate_i64.h"
#include "tensor/ntt.h"

namespace cz {

// A weight matrix in ring R, plus its nonzero entries by row so products skip zeros (the
// constructions' weights are very sparse: shifts, masks, routings).
template <Ring R>
struct RMatrix {
  using E = typename R::Elem;
  Matrix<E> m;
  std::vector<std::vector<std::pair<std::size_t, E>>> nz_rows;
};

template <Ring R>
RMatrix<R> to_ring(const R& ring, const RatMatrix& x) {
  RMatrix<R> r{map_matrix(x, [&](const Rat& q) { return ring.from_rat(q); }), {}};
  r.nz_rows.resize(x.rows());
  for (std::size_t i = 0; i < x.rows(); ++i)
    for (std::size_t j = 0; j < x.cols(); ++j)
      if (!ring.is_zero(r.m(i, j))) r.nz_rows[i].emplace_back(j, r.m(i, j));
  return r;
}

template <Ring R>
struct PreparedModel {
  // ntt: the filter prepared once for the multi-modular NTT (integer rings, dense filters with
  // N above the naive cutoff: the same rule as conv()); its transforms are shared by every input.
  // taps: per channel j, the nonzero (k, h[k][j]) in increasing k (the allocation-free evaluator's
  // sparse filter, model/eval_scratch.h).
  // ntt_fp: over RingFp, the filter prepared once for the direct NTT in F_p (same rule as ntt,
  // and only when the ring's prime is NTT-friendly for the length).
  struct BaseConv {
    RMatrix<R> W;
    Matrix<typename R::Elem> b1, h, b2;
    std::shared_ptr<const NttFilter> ntt{};
    std::vector<std::vector<std::pair<std::size_t, typename R::Elem>>> taps{};
    std::shared_ptr<const NttFilterFp> ntt_fp{};
  };
  struct Mlp { RMatrix<R> W1; Matrix<typename R::Elem> B1; RMatrix<R> W2; Matrix<typename R::Elem> B2; };
  struct LinAttn { RMatrix<R> Wq, Wk, Wv; };
  R ring;
  std::size_t N, d, inner_N, inner_d;
  ConvMode conv;
  std::vector<std::variant<BaseConv, Mlp, LinAttn>> layers;
};

// The prepared NTT filter of a BaseConv layer, where conv() would take the fast path anyway.
template <Ring R>
std::shared_ptr<const NttFilter> prepare_ntt_filter(const R& ring, const Matrix<typename R::Elem>& h, ConvMode mode) {
  if (h.rows() <= kConvNaiveMaxN || nonzero_taps(ring, h) <= 4 * h.cols()) return nullptr;
  if constexpr (std::is_same_v<R, RingI64>) {
    return std::make_shared<const NttFilter>(h, mode);
  } else if constexpr (std::is_same_v<R, RingZ>) {
    for (const Int& x : h.data())
      if (!x.fits_int64()) return nullptr;
    return std::make_shared<const NttFilter>(map_matrix(h, [](const Int& x) { return x.to_int64(); }), mode);
  } else {
    return nullptr;
  }
}

// The same over RingFp: a filter transformed once in F_p (nullptr where conv() would not take the
// fast path, or where p has no direct route for this length: conv() then lifts through Z).
inline std::shared_ptr<const NttFilterFp> prepare_ntt_filter_fp(const RingFp& ring, const Matrix<std::uint64_t>& h,
                                                                ConvMode mode) {
  if (h.rows() <= kConvNaiveMaxN || nonzero_taps(ring, h) <= 4 * h.cols()) return nullptr;
  auto f = std::make_shared<const NttFilterFp>(ring.prime(), h, mode);
  return f->direct_bits() ? f : nullptr;
}

template <Ring R>
std::vector<std::vector<std::pair<std::size_t, typename R::Elem>>> filter_taps(const R& ring,
                                                                               const Matrix<typename R::Elem>& h) {
  std::vector<std::vector<std::pair<std::size_t, typename R::Elem>>> t(h.cols());
  for (std::size_t k = 0; k < h.rows(); ++k)
    for (std::size_t j = 0; j < h.cols(); ++j)
      if (!ring.is_zero(h(k, j))) t[j].emplace_back(k, h(k, j));
  return t;
}

template <Ring R>
PreparedModel<R> prepare(const R& ring, const Model& m) {
  auto mat = [&](const RatMatrix& x) { return map_matrix(x, [&](const Rat& q) { return ring.from_rat(q); }); };
  PreparedModel<R> p{ring, m.N, m.d, m.inner_N, m.inner_d, m.conv, {}};
  for (const auto& layer : m.layers) {
    if (auto* b = std::get_if<BaseConvLayer>(&layer))
    {
      typename PreparedModel<R>::BaseConv L{to_ring(ring, b->W), mat(b->b1), mat(b->h), mat(b->b2), nullptr};
      L.ntt = prepare_ntt_filter(ring, L.h, m.conv);
      if constexpr (std::is_same_v<R, RingFp>) L.ntt_fp = prepare_ntt_filter_fp(ring, L.h, m.conv);
      L.taps = filter_taps(ring, L.h);
      p.layers.emplace_back(std::move(L));
    }
    else if (auto* f = std::get_if<MlpLayer>(&layer))
      p.layers.emplace_back(typename PreparedModel<R>::Mlp{to_ring(ring, f->W1), mat(f->B1), to_ring(ring, f->W2), mat(f->B2)});
    else if (auto* a = std::get_if<LinearAttentionLayer>(&layer))
      p.layers.emplace_back(typename PreparedModel<R>::LinAttn{to_ring(ring, a->Wq), to_ring(ring, a->Wk), to_ring(ring, a->Wv)});
  }
  return p;
}

// x·W (+ bias when given), using W's nonzero rows.
template <Ring R>
Matrix<typename R::Elem> matmul(const R& ring, const Matrix<typename R::Elem>& x, const RMatrix<R>& W,
                                const Matrix<typename R::Elem>* bias = nullptr) {
  Matrix<typename R::Elem> y = bias ? *bias : Matrix<typename R::Elem>(x.rows(), W.m.cols(), ring.zero());
  for (std::size_t i = 0; i < x.rows(); ++i)
    for (std::size_t k = 0; k < x.cols(); ++k) {
      const auto& xik = x(i, k);
      if (ring.is_zero(xik)) continue;
      for (const auto& [j, w] : W.nz_rows[k]) ring.addmul(y(i, j), xik, w);
    }
  return y;
}

// h*x through the layer's prepared NTT filter when it has one (int64 straight in; Z when every
// entry fits int64; Fp directly in the field), else conv(). The NTT answers std::nullopt beyond
// its primes: conv() then.
template <Ring R>
Matrix<typename R::Elem> conv_layer(const PreparedModel<R>& p, const typename PreparedModel<R>::BaseConv& L,
                                    const Matrix<typename R::Elem>& x) {
  if (L.ntt && L.ntt->rows() == x.rows() && L.ntt->cols() == x.cols()) {
    if constexpr (std::is_same_v<R, RingI64>) {
      if (auto y = L.ntt->apply_i64(x)) return std::move(*y);  // throws Overflow: the caller redoes it in Z
    } else if constexpr (std::is_same_v<R, RingZ>) {
      bool small = true;
      for (const Int& e : x.data()) small = small && e.fits_int64();
      if (small)
        if (auto y = L.ntt->apply(map_matrix(x, [](const Int& e) { return e.to_int64(); }))) return std::move(*y);
    }
  }
  if constexpr (std::is_same_v<R, RingFp>) {
    if (L.ntt_fp && L.ntt_fp->prime() == p.ring.prime() && L.ntt_fp->rows() == x.rows() && L.ntt_fp->cols() == x.cols())
      if (auto y = L.ntt_fp->apply(x)) return std::move(*y);
  }
  return conv(p.ring, L.h, x, p.conv);
}

template <Ring R>
Matrix<typename R::Elem> eval_layer(const PreparedModel<R>& p, const typename PreparedModel<R>::BaseConv& L,
                                    const Matrix<typename R::Elem>& x) {
  const R& ring = p.ring;
  Matrix<typename R::Elem> c = conv_layer(p, L, x);
  if constexpr (std::is_same_v<R, RingI64>) {
    // Projection and gating without per-operation checks where a certified bound proves that
    // int64 holds every intermediate (the checked loops below took longer than the NTT
    // convolution itself at N = 2^16, d = 16, measured). Rarely the bound fails: c is redone.
    if (baseconv_gate_i64(x, L.W.m, L.b1, L.b2, c)) return c;
    c = conv_layer(p, L, x);
  }
  Matrix<typename R::Elem> a = matmul(ring, x, L.W, &L.b1);
  for (std::size_t k = 0; k < a.data().size(); ++k)
    a.data()[k] = ring.mul(a.data()[k], ring.add(c.data()[k], L.b2.data()[k]));
  return a;
}

template <Ring R>
Matrix<typename R::Elem> eval_layer(const PreparedModel<R>& p, const typename PreparedModel<R>::Mlp& L,
                                    const Matrix<typename R::Elem>& x) {
  const R& ring = p.ring;
  if constexpr (!R::ordered) {
    throw std::domain_error("ReLU (MLP layer) needs an ordered ring, not " + ring.name());
  } else {
    Matrix<typename R::Elem> z = matmul(ring, x, L.W1, &L.B1);
    for (auto& e : z.data())
      if (ring.sign(e) < 0) e = ring.zero();
    return matmul(ring, z, L.W2, &L.B2);
  }
}

// Recurrent view (state S_i = sum_{j<=i} K[j]^T V[j], an f×d' matrix; spec §2.3).
template <Ring R>
Matrix<typename R::Elem> eval_layer(const PreparedModel<R>& p, const typename PreparedModel<R>::LinAttn& L,
                                    const Matrix<typename R::Elem>& x) {
  const R& ring = p.ring;
  auto Q = matmul(ring, x, L.Wq), K = matmul(ring, x, L.Wk), V = matmul(ring, x, L.Wv);
  const std::size_t f = Q.cols(), d = V.cols();
  Matrix<typename R::Elem> S(f, d, ring.zero()), z(x.rows(), d, ring.zero());
  for (std::size_t i = 0; i < x.rows(); ++i) {
    for (std::size_t a = 0; a < f; ++a)
      if (!ring.is_zero(K(i, a)))
        for (std::size_t b = 0; b < d; ++b) ring.addmul(S(a, b), K(i, a), V(i, b));
    for (std::size_t a = 0; a < f; ++a)
      if (!ring.is_zero(Q(i, a)))
        for (std::size_t b = 0; b < d; ++b) ring.addmul(z(i, b), Q(i, a), S(a, b));
  }
  return z;
}

// All N'×d' layer outputs are kept only transiently; returns the last layer's full inner output.
template <Ring R>
Matrix<typename R::Elem> eval_inner(const PreparedModel<R>& p, const Matrix<typename R::Elem>& u) {
  if (u.rows() != p.N || u.cols() != p.d) throw std::invalid_argument("input shape does not match the model's N x d");
  Matrix<typename R::Elem> x(p.inner_N, p.inner_d, p.ring.zero());
  for (std::size_t i = 0; i < p.N; ++i)
    for (std::size_t j = 0; j < p.d; ++j) x(i, j) = u(i, j);
  for (const auto& layer : p.layers) x = std::visit([&](const auto& L) { return eval_layer(p, L, x); }, layer);
  return x;
}

template <Ring R>
Matrix<typename R::Elem> eval(const PreparedModel<R>& p, const Matrix<typename R::Elem>& u) {
  Matrix<typename R::Elem> x = eval_inner(p, u);
  Matrix<typename R::Elem> y(p.N, p.d);
  for (std::size_t i = 0; i < p.N; ++i)
    for (std::size_t j = 0; j < p.d; ++j) y(i, j) = x(i, j);
  return y;
}

// Integer evaluation with the checked int64 fast path: run in RingI64, and on Overflow redo
// the whole computation in Z (FLINT). Weights that do not fit int64 skip the fast path. The Z
// copy is prepared only when it is first needed (an overflow, or exact()), from the int64 copy
// (issue 10: most evaluators never overflow, and preparing both doubled the set-up).
class IntegerEvaluator {
 public:
  explicit IntegerEvaluator(const Model& m);
  Matrix<Int> operator()(const Matrix<Int>& u) const;
  // Same, on an int64 input (the common case in verification domains).
  Matrix<Int> operator()(const Matrix<std::int64_t>& u) const;
  // The output in int64, or nullopt when a weight or an intermediate leaves int64 (the caller
  // then evaluates in Z through operator()); no Int is built on this path.
  std::optional<Matrix<std::int64_t>> try_i64(const Matrix<std::int64_t>& u) const;
  const PreparedModel<RingZ>& exact() const;  // thread-safe

 private:
  std::optional<PreparedModel<RingI64>> fast_;
  mutable std::optional<PreparedModel<RingZ>> exact_;
  mutable std::unique_ptr<std::once_flag> exact_once_ = std::make_unique<std::once_flag>();
};

}  // namespace cz
