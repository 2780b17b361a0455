// The BaseConv compilers of the gated-convolution zoo (constructions/sim/*_sim.h document each
// layout; ours [R]). They live in src/model so that the model-json reader can expand an
// architecture layer (model/arch_layer.h) into its verified simulation.
#include "model/zoo_compile.h"

#include "exact/poly.h"
#include "exact/ring_scalar.h"

namespace cz::sim {
namespace {
template <class S>
ModelShell<S> shell(std::size_t N, std::size_t d) {
  ModelShell<S> m;
  m.N = m.inner_N = N;
  m.d = m.inner_d = d;
  return m;
}
}  // namespace

Model to_model(ModelShell<Rat>&& s, const std::string& ring) {
  Model m;
  m.ring = ring;
  m.N = s.N, m.d = s.d, m.inner_N = s.inner_N, m.inner_d = s.inner_d;
  m.conv = ConvMode::Causal;
  for (auto& L : s.layers) {
    BaseConvLayer b;
    b.W = std::move(L.W), b.b1 = std::move(L.b1), b.h = std::move(L.h), b.b2 = std::move(L.b2);
    m.layers.emplace_back(std::move(b));
  }
  return m;
}

template <class S>
ModelShell<S> hyena_compile(const HyenaOperatorT<S>& op, bool short_conv) {
  validate_shape(op);
  if (!short_conv)
    for (std::size_t t = 0; t < op.N; ++t)
      for (std::size_t c = 0; c < op.hs.cols(); ++c)
        if (op.hs(t, c) != S(Rat(t == 0 ? 1 : 0))) throw std::invalid_argument("hyena_to_baseconv: h_s is not δ0, the short-conv layer is needed");
  const std::size_t N = op.N, d = op.d, k = op.order, D = (k + 1) * d;
  ModelShell<S> m = shell<S>(N, d);
  m.inner_d = D;
  BaseConvT<S> lin = m.zero_layer();  // (x·W_A + 0) ⊙ (0 ∗ x + 1)
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t c = 0; c < D; ++c) lin.W(j, c) = op.W(j, c);
  for (auto& x : lin.b2.data()) x = Rat(1);
  m.layers.push_back(std::move(lin));
  BaseConvT<S> conv = m.zero_layer();  // (0 + 1) ⊙ (h_s ∗ x + 0)
  for (auto& x : conv.b1.data()) x = Rat(1);
  conv.h = op.hs;
  if (short_conv) m.layers.push_back(std::move(conv));
  for (std::size_t l = 1; l <= k; ++l) {
    BaseConvT<S> g = m.zero_layer();
    for (std::size_t j = 0; j < d; ++j) g.W(l * d + j, j) = Rat(1);  // p^ℓ into block 0
    for (std::size_t c = (l + 1) * d; c < D; ++c) g.W(c, c) = Rat(1);  // blocks m > ℓ kept
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = 0; j < d; ++j) g.h(i, j) = op.h[l - 1](i, j);
      for (std::size_t c = d; c < D; ++c) g.b2(i, c) = Rat(1);
    }
    m.layers.push_back(std::move(g));
  }
  return m;
}

template <class S>
ModelShell<S> hyena_compile_narrow(const HyenaOperatorT<S>& op) {
  validate_shape(op);
  const std::size_t N = op.N, d = op.d, k = op.order;
  const std::size_t Z = 0, U = d, P = 2 * d;  // block offsets: z^ℓ, the input u, the next p
  ModelShell<S> m = shell<S>(N, d);
  m.inner_d = 3 * d;
  auto keep = [&](BaseConvT<S>& L, std::size_t block, bool through_conv) {  // block passes unchanged
    for (std::size_t j = 0; j < d; ++j) {
      if (through_conv) {
        L.h(0, block + j) = Rat(1);
        for (std::size_t i = 0; i < N; ++i) L.b1(i, block + j) = Rat(1);
      } else {
        L.W(block + j, block + j) = Rat(1);
        for (std::size_t i = 0; i < N; ++i) L.b2(i, block + j) = Rat(1);
      }
    }
  };
  auto project = [&](BaseConvT<S>& L, std::size_t from, std::size_t to, std::size_t l) {  // to ← x[from]·W_ℓ
    for (std::size_t j = 0; j < d; ++j)
      for (std::size_t c = 0; c < d; ++c) L.W(from + j, to + c) = op.W(j, l * d + c);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t c = 0; c < d; ++c) L.b2(i, to + c) = Rat(1);
  };
  auto short_conv = [&](BaseConvT<S>& L, std::size_t block, std::size_t l) {  // block ← h_s^ℓ ∗ block
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < d; ++j) L.h(i, block + j) = op.hs(i, l * d + j), L.b1(i, block + j) = Rat(1);
  };
  BaseConvT<S> lin = m.zero_layer();  // Z ← u·W_0, P ← u·W_1, U ← u
  project(lin, 0, Z, 0);
  project(lin, 0, P, 1);
  for (std::size_t j = 0; j < d; ++j) lin.W(j, U + j) = Rat(1);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) lin.b2(i, U + j) = Rat(1);
  m.layers.push_back(std::move(lin));
  BaseConvT<S> conv = m.zero_layer();  // v = h_s^0 ∗ Z, p^1 = h_s^1 ∗ P, U kept
  short_conv(conv, Z, 0);
  short_conv(conv, P, 1);
  keep(conv, U, true);
  m.layers.push_back(std::move(conv));
  for (std::size_t l = 1; l <= k; ++l) {
    BaseConvT<S> g = m.zero_layer();  // Z ← p^ℓ ⊙ (h^ℓ ∗ Z); P ← u·W_{ℓ+1}; U kept
    for (std::size_t j = 0; j < d; ++j) g.W(P + j, Z + j) = Rat(1);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < d; ++j) g.h(i, Z + j) = op.h[l - 1](i, j);
    if (l < k) {
      project(g, U, P, l + 1);
      keep(g, U, false);
    }
    m.layers.push_back(std::move(g));
    if (l < k) {
      BaseConvT<S> c = m.zero_layer();  // p^{ℓ+1} = h_s^{ℓ+1} ∗ P; Z and U kept
      short_conv(c, P, l + 1);
      keep(c, Z, true);
      keep(c, U, true);
      m.layers.push_back(std::move(c));
    }
  }
  return m;
}

template <class S>
ModelShell<S> retnet_compile(const RetNetOperatorT<S>& op) {
  validate_shape(op);
  const std::size_t N = op.N, d = op.d, H = op.heads, dk = op.dk, dv = op.dv, P = H * dk * dv;
  const bool rot = retnet_rotated(op);
  // Channels: the products (h, a, b) first, then k and q. Without a rotation one channel each
  // (key, query); with one, k and q each get a cos channel (x[a]·cos nθ) and a sin channel
  // (±x[partner]·sin nθ, partner = a ^ 1) made by layer 1's position-dependent b2, and summed by
  // layer 2's W: x'[a] = cos·x[a] − sin·x[a+1] (a even), sin·x[a−1] + cos·x[a] (a odd).
  const std::size_t blk = H * dk;
  auto pair = [&](std::size_t h, std::size_t a, std::size_t b) { return (h * dk + a) * dv + b; };
  auto key = [&](std::size_t h, std::size_t a) { return P + h * dk + a; };
  auto key_sin = [&](std::size_t h, std::size_t a) { return P + blk + h * dk + a; };
  auto query = [&](std::size_t h, std::size_t a) { return P + (rot ? 2 : 1) * blk + h * dk + a; };
  auto query_sin = [&](std::size_t h, std::size_t a) { return P + 3 * blk + h * dk + a; };
  ModelShell<S> m = shell<S>(N, d);
  m.inner_d = retnet_inner_d(op);
  BaseConvT<S> l1 = m.zero_layer();
  for (auto& x : l1.b2.data()) x = Rat(1);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t a = 0; a < dk; ++a) {
        l1.W(j, key(h, a)) = op.WK(j, h * dk + a);
        l1.W(j, query(h, a)) = op.WQ(j, h * dk + a);
        if (rot) {
          l1.W(j, key_sin(h, a)) = op.WK(j, h * dk + (a ^ 1));
          l1.W(j, query_sin(h, a)) = op.WQ(j, h * dk + (a ^ 1));
        }
        for (std::size_t b = 0; b < dv; ++b) l1.W(j, pair(h, a, b)) = op.WV(j, h * dv + b);
      }
  if (rot)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t a = 0; a < dk; ++a) {
        const auto pw = rotation_powers_of(op.rotation[h][a / 2], N);
        for (std::size_t n = 0; n < N; ++n) {
          const S sn = a % 2 ? pw[n].second : -pw[n].second;
          l1.b2(n, key(h, a)) = l1.b2(n, query(h, a)) = pw[n].first;
          l1.b2(n, key_sin(h, a)) = l1.b2(n, query_sin(h, a)) = sn;
        }
      }
  BaseConvT<S> l2 = m.zero_layer(), l3 = m.zero_layer(), l4 = m.zero_layer();
  for (auto& x : l4.b2.data()) x = Rat(1);
  for (std::size_t h = 0; h < H; ++h)
    for (std::size_t a = 0; a < dk; ++a) {
      l2.W(query(h, a), query(h, a)) = Rat(1);
      if (rot) l2.W(query_sin(h, a), query(h, a)) = Rat(1);
      for (std::size_t i = 0; i < N; ++i) l2.b2(i, query(h, a)) = Rat(1);
      for (std::size_t b = 0; b < dv; ++b) {
        const std::size_t c = pair(h, a, b);
        l2.W(key(h, a), c) = Rat(1);
        if (rot) l2.W(key_sin(h, a), c) = Rat(1);
        l2.h(0, c) = Rat(1);
        l3.W(query(h, a), c) = Rat(1);
        S g(Rat(1));  // γ_h^t
        for (std::size_t t = 0; t < N; ++t, g *= op.gamma[h]) l3.h(t, c) = g;
        for (std::size_t j = 0; j < d; ++j) l4.W(c, j) = op.WO(h * dv + b, j);
      }
    }
  m.layers = {std::move(l1), std::move(l2), std::move(l3), std::move(l4)};
  return m;
}

template <class S>
ModelShell<S> rwkv_compile(const RwkvOperatorT<S>& op) {
  validate_shape(op);
  const std::size_t N = op.N, d = op.d;
  ModelShell<S> m = shell<S>(N, 2 * d);
  BaseConvT<S> l1 = m.zero_layer(), l2 = m.zero_layer(), l3 = m.zero_layer();
  for (auto& x : l1.b1.data()) x = Rat(1);
  for (auto& x : l3.b1.data()) x = Rat(1);
  for (std::size_t c = 0; c < d; ++c) {
    l1.h(0, c) = Rat(1);
    l1.h(0, d + c) = op.mu[c];
    if (N > 1) l1.h(1, d + c) = S(Rat(1)) - op.mu[c];
    for (std::size_t j = 0; j < d; ++j) l2.W(d + j, c) = op.WV(j, c);
    l2.h(0, c) = Rat(1);
    l2.W(c, d + c) = Rat(1);
    for (std::size_t i = 0; i < N; ++i) l2.b2(i, d + c) = Rat(1);
    S g(Rat(1));  // λ^{t−1}
    for (std::size_t t = 0; t < N; ++t) {
      const S tap = t == 0 ? op.bonus[c] : g;
      if (t) g *= op.decay[c];
      l3.h(t, c) = tap;
      l3.h(t, d + c) = tap;
    }
  }
  m.layers = {std::move(l1), std::move(l2), std::move(l3)};
  return m;
}

// The shipped models: the Rat instantiation, the ring and the Model checks.
Model hyena_to_baseconv(const HyenaOperator& op, bool short_conv) { return to_model(hyena_compile(op, short_conv), "Z"); }
Model hyena_to_baseconv_narrow(const HyenaOperator& op) { return to_model(hyena_compile_narrow(op), "Z"); }
Model retnet_to_baseconv(const RetNetOperator& op) {
  validate(op);  // the unit circle too
  Model m = to_model(retnet_compile(op), retnet_integral(op) ? "Z" : "Q");
  validate(m, "sim/retnet");
  return m;
}
Model rwkv_to_baseconv(const RwkvOperator& op) {
  Model m = to_model(rwkv_compile(op), rwkv_integral(op) ? "Z" : "Q");
  validate(m, "sim/rwkv");
  return m;
}

// Exactly three instantiations (see zoo_compile.h).
#define CZ_ZOO_COMPILE(S)                                                   \
  template ModelShell<S> hyena_compile(const HyenaOperatorT<S>&, bool);    \
  template ModelShell<S> hyena_compile_narrow(const HyenaOperatorT<S>&);   \
  template ModelShell<S> retnet_compile(const RetNetOperatorT<S>&);        \
  template ModelShell<S> rwkv_compile(const RwkvOperatorT<S>&);
CZ_ZOO_COMPILE(Rat)
CZ_ZOO_COMPILE(RingScalar<RingPolyQ>)
CZ_ZOO_COMPILE(RingScalar<RingBound>)
#undef CZ_ZOO_COMPILE

}  // namespace cz::sim
