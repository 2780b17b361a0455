#include "circuits/model_to_circuit.h"

#include <stdexcept>
#include <variant>

#include "circuits/builder.h"
#include "circuits/gadgets_arith.h"

namespace cz::circuits {

namespace {

using Grid = std::vector<std::vector<Wire>>;  // [row][channel]

Grid affine(Builder& b, const Grid& x, const RatMatrix& W, const RatMatrix* bias) {
  const std::size_t rows = x.size(), in = W.rows(), out = W.cols();
  Grid y(rows, std::vector<Wire>(out));
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t c = 0; c < out; ++c) {
      std::vector<Wire> terms;
      for (std::size_t k = 0; k < in; ++k)
        if (!W(k, c).is_zero()) terms.push_back(b.scale(W(k, c), x[i][k]));
      if (bias && !(*bias)(i, c).is_zero()) terms.push_back(b.constant((*bias)(i, c)));
      y[i][c] = gadgets::sum(b, terms);
    }
  return y;
}

Grid conv(Builder& b, const Grid& x, const RatMatrix& h, ConvMode mode) {
  const std::size_t n = x.size(), d = n ? x[0].size() : 0;
  Grid y(n, std::vector<Wire>(d));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < d; ++c) {
      std::vector<Wire> terms;
      for (std::size_t t = 0; t < n; ++t) {
        if (h(t, c).is_zero()) continue;
        std::size_t src;
        if (mode == ConvMode::Causal) { if (t > i) continue; src = i - t; }
        else if (mode == ConvMode::Cyclic) src = (i + n - t) % n;
        else { if (i + t >= n) continue; src = i + t; }
        terms.push_back(b.scale(h(t, c), x[src][c]));
      }
      y[i][c] = gadgets::sum(b, terms);
    }
  return y;
}

Grid baseconv(Builder& b, const Grid& x, const BaseConvLayer& L, ConvMode mode) {
  Grid a = affine(b, x, L.W, &L.b1), cv = conv(b, x, L.h, mode);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t c = 0; c < a[i].size(); ++c) {
      Wire right = L.b2(i, c).is_zero() ? cv[i][c] : b.add(cv[i][c], b.constant(L.b2(i, c)));
      a[i][c] = b.mul(a[i][c], right);
    }
  return a;
}

Grid linear_attention(Builder& b, const Grid& x, const LinearAttentionLayer& L) {
  Grid Q = affine(b, x, L.Wq, nullptr), K = affine(b, x, L.Wk, nullptr), V = affine(b, x, L.Wv, nullptr);
  const std::size_t n = x.size(), f = L.Wq.cols(), d = L.Wv.cols();
  // S_i[a][c] = Σ_{j≤i} K[j][a]·V[j][c], as one prefix sum per (a, c).
  std::vector<std::vector<std::vector<Wire>>> S(f, std::vector<std::vector<Wire>>(d));
  for (std::size_t a = 0; a < f; ++a)
    for (std::size_t c = 0; c < d; ++c) {
      std::vector<Wire> terms(n);
      for (std::size_t j = 0; j < n; ++j) terms[j] = b.mul(K[j][a], V[j][c]);
      S[a][c] = gadgets::prefix_sums(b, terms);
    }
  Grid z(n, std::vector<Wire>(d));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < d; ++c) {
      std::vector<Wire> terms;
      for (std::size_t a = 0; a < f; ++a) terms.push_back(b.mul(Q[i][a], S[a][c][i]));
      z[i][c] = gadgets::sum(b, terms);
    }
  return z;
}

}  // namespace

Circuit model_to_circuit(const Model& m, std::size_t max_gates) {
  Builder b;
  b.set_ring(m.ring);
  if (max_gates) b.set_max_gates(max_gates);
  Grid x(m.inner_N, std::vector<Wire>(m.inner_d, b.zero()));
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j)
      x[i][j] = b.input("u[" + std::to_string(i) + "][" + std::to_string(j) + "]");
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    const Layer& layer = m.layers[l];
    if (const auto* bc = std::get_if<BaseConvLayer>(&layer)) x = baseconv(b, x, *bc, m.conv);
    else if (const auto* la = std::get_if<LinearAttentionLayer>(&layer)) x = linear_attention(b, x, *la);
    else throw std::invalid_argument("layer " + std::to_string(l) + " is an MLP (ReLU is not a polynomial): no arithmetic circuit");
  }
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j) b.output("y[" + std::to_string(i) + "][" + std::to_string(j) + "]", x[i][j]);
  return std::move(b).finish();
}

}  // namespace cz::circuits
