#include "model/eval_scratch.h"

#include <algorithm>

namespace cz {
namespace {

using E = std::int64_t;
using P = PreparedModel<RingI64>;
constexpr RingI64 kR{};

// y = x·W (+ bias): x is rows × W.m.rows(), y rows × W.m.cols(); W's nonzero rows only.
void matmul_into(const E* x, std::size_t rows, const RMatrix<RingI64>& W, const Matrix<E>* bias, std::vector<E>& y) {
  const std::size_t in = W.m.rows(), out = W.m.cols();
  if (bias) y.assign(bias->data().begin(), bias->data().end());
  else y.assign(rows * out, 0);
  for (std::size_t i = 0; i < rows; ++i) {
    const E* xi = x + i * in;
    E* yi = y.data() + i * out;
    for (std::size_t k = 0; k < in; ++k) {
      const E xik = xi[k];
      if (xik == 0) continue;
      for (const auto& [j, w] : W.nz_rows[k]) kR.addmul(yi[j], xik, w);
    }
  }
}

// h*x per channel (conv_naive's sum, zero taps and zero inputs skipped), into c (n × d). A causal
// filter with one value c on every tap (a cumulative sum: JRT Lemma G.20's counter) is a running
// sum times c. Only the order of the exact sums differs from conv_naive: an Overflow thrown here
// and not there (or the reverse) sends the instance to Z, so the answer is the same.
void conv_into(const std::vector<std::vector<std::pair<std::size_t, E>>>& filter, const E* x, std::size_t n,
               std::size_t d, ConvMode mode, std::vector<E>& c) {
  c.assign(n * d, 0);
  for (std::size_t j = 0; j < d; ++j) {
    const auto& taps = filter[j];
    if (taps.empty()) continue;
    if (mode == ConvMode::Causal && taps.size() == n &&
        std::all_of(taps.begin(), taps.end(), [&](const auto& t) { return t.second == taps[0].second; })) {
      E run = 0;
      for (std::size_t i = 0; i < n; ++i) {
        run = kR.add(run, x[i * d + j]);
        c[i * d + j] = kR.mul(taps[0].second, run);
      }
      continue;
    }
    for (std::size_t t = 0; t < n; ++t) {  // input row t reaches output rows t+k (causal), t-k, (t+k) mod n
      const E xt = x[t * d + j];
      if (xt == 0) continue;
      for (const auto& [k, hk] : taps) {
        std::size_t i;
        if (mode == ConvMode::Causal) {
          if (t + k >= n) break;  // taps are in increasing k
          i = t + k;
        } else if (mode == ConvMode::Anticausal) {
          if (k > t) break;
          i = t - k;
        } else {
          i = (t + k) % n;
        }
        kR.addmul(c[i * d + j], hk, xt);
      }
    }
  }
}

// conv_layer's route choice: the prepared NTT filter, or conv() beyond the naive cutoff.
bool needs_conv_layer(const P& p, const P::BaseConv& L) {
  return L.ntt || (p.inner_N > kConvNaiveMaxN && nonzero_taps(RingI64{}, L.h) > 4 * p.inner_d);
}

void layer(const P& p, const P::BaseConv& L, I64Scratch& s) {
  const std::size_t n = p.inner_N, d = p.inner_d;
  matmul_into(s.x.data(), n, L.W, &L.b1, s.y);
  if (needs_conv_layer(p, L)) {
    Matrix<E> xm(n, d);
    std::copy(s.x.begin(), s.x.end(), xm.data().begin());
    Matrix<E> c = conv_layer(p, L, xm);
    s.a.assign(c.data().begin(), c.data().end());
  } else {
    if (L.taps.size() == d) conv_into(L.taps, s.x.data(), n, d, p.conv, s.a);
    else conv_into(filter_taps(RingI64{}, L.h), s.x.data(), n, d, p.conv, s.a);  // built without prepare()
  }
  const auto& b2 = L.b2.data();
  for (std::size_t t = 0; t < n * d; ++t)  // (x·W + b1) ⊙ (h*x + b2); a zero left factor stays zero
    if (s.y[t] != 0) s.y[t] = kR.mul(s.y[t], kR.add(s.a[t], b2[t]));
}

void layer(const P& p, const P::Mlp& L, I64Scratch& s) {
  const std::size_t n = p.inner_N;
  matmul_into(s.x.data(), n, L.W1, &L.B1, s.a);
  for (E& e : s.a)
    if (e < 0) e = 0;
  matmul_into(s.a.data(), n, L.W2, &L.B2, s.y);
}

// The recurrent view of eval_layer(LinAttn): S_i = sum_{j<=i} K[j]^T V[j], z_i = Q[i]·S_i.
void layer(const P& p, const P::LinAttn& L, I64Scratch& s) {
  const std::size_t n = p.inner_N;
  matmul_into(s.x.data(), n, L.Wq, nullptr, s.q);
  matmul_into(s.x.data(), n, L.Wk, nullptr, s.k);
  matmul_into(s.x.data(), n, L.Wv, nullptr, s.v);
  const std::size_t f = L.Wq.m.cols(), dv = L.Wv.m.cols();
  s.s.assign(f * dv, 0);
  s.y.assign(n * dv, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t a = 0; a < f; ++a) {
      const E ka = s.k[i * f + a];
      if (ka != 0)
        for (std::size_t b = 0; b < dv; ++b) kR.addmul(s.s[a * dv + b], ka, s.v[i * dv + b]);
    }
    for (std::size_t a = 0; a < f; ++a) {
      const E qa = s.q[i * f + a];
      if (qa != 0)
        for (std::size_t b = 0; b < dv; ++b) kR.addmul(s.y[i * dv + b], qa, s.s[a * dv + b]);
    }
  }
}

}  // namespace

const std::vector<std::int64_t>& eval_inner_scratch(const PreparedModel<RingI64>& p, const Matrix<std::int64_t>& u,
                                                    I64Scratch& s) {
  if (u.rows() != p.N || u.cols() != p.d) throw std::invalid_argument("input shape does not match the model's N x d");
  s.x.assign(p.inner_N * p.inner_d, 0);
  for (std::size_t i = 0; i < p.N; ++i)
    for (std::size_t j = 0; j < p.d; ++j) s.x[i * p.inner_d + j] = u(i, j);
  for (const auto& L : p.layers) {
    std::visit([&](const auto& l) { layer(p, l, s); }, L);
    std::swap(s.x, s.y);
  }
  return s.x;
}

}  // namespace cz
