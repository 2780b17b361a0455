#include "circuits/circuit_to_model_cyclic.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "circuits/kmatrix_rows.h"
#include "circuits/affine_form.h"
#include "circuits/stats.h"
#include "tensor/kmatrix_forms.h"

namespace cz::circuits {

namespace {

using Aff = AffineForm;  // circuits/affine_form.h

// A routing map: new[row] = Σ coefficient · old[column], as a K-matrix (Dao Thm 3, e = 4).
struct RouteMap {
  std::vector<std::pair<std::size_t, std::size_t>> at;
  std::vector<Rat> vals;
  std::size_t n = 1;  // square size: max(old length, new length)
};

// The cheapest form kmatrix_forms.h knows (identity, monomial: one 𝓑𝓑* member with e = 1, or
// Thm 3's sparse form), else Thm 3's form anyway (a map denser than Thm 3 pays off).
KMatrix<Rat> to_kmatrix(const RouteMap& r) {
  const std::size_t nh = pad_pow2(r.n);
  RatMatrix a(nh, nh);
  for (std::size_t t = 0; t < r.at.size(); ++t) a(r.at[t].first, r.at[t].second) += r.vals[t];
  if (auto f = kmatrix_form_of(RingQ{}, a)) return std::move(f->k);
  return materialize(RingQ{}, sparse_plan(nh, r.at).coded, r.vals);
}

}  // namespace

ToModelCyclic circuit_to_model_cyclic(const Circuit& c, const Layout& lay) {
  const std::size_t nin = c.num_inputs(), nout = c.outputs().size(), N = lay.N, d = lay.d;
  if (lay.in_pos.size() != nin || lay.out_pos.size() != nout) throw std::invalid_argument("layout does not match the circuit");
  {
    std::vector<std::uint8_t> seen(N * d, 0);
    for (auto [i, j] : lay.out_pos) {
      if (i >= N || j >= d) throw std::invalid_argument("layout: output position outside N×d");
      if (seen[i * d + j]++) throw std::invalid_argument("layout: two outputs at the same position");
    }
    for (auto [i, j] : lay.in_pos)
      if (i >= N || j >= d) throw std::invalid_argument("layout: input position outside N×d");
  }
  // Anchors and affine forms (the same analysis as the causal compiler, without rows).
  const std::vector<std::uint8_t> live = live_gates(c);
  std::vector<Aff> aff(c.size());
  std::vector<std::size_t> ml(nin, 0);
  std::vector<std::pair<Aff, Aff>> operands(nin);
  for (GateId i = 0; i < c.size(); ++i) {
    if (!live[i]) continue;
    const Gate& g = c.gate(i);
    if (g.op == Op::Input) {
      aff[i].t[g.a] = Rat(1);
    } else if (g.op == Op::Const) {
      aff[i].c = c.constant(g.a);
    } else if (g.op == Op::Add) {
      aff[i] = plus(aff[g.a], aff[g.b]);
    } else if (c.gate(g.a).op == Op::Const || c.gate(g.b).op == Op::Const) {
      const bool ca = c.gate(g.a).op == Op::Const;
      aff[i] = times(c.const_value(ca ? g.a : g.b), aff[ca ? g.b : g.a]);
    } else {
      std::size_t m = 0;
      for (const Aff* f : {&aff[g.a], &aff[g.b]})
        for (const auto& kv : f->t) m = std::max(m, ml[kv.first]);
      const std::uint32_t id = static_cast<std::uint32_t>(ml.size());
      ml.push_back(m + 1);
      operands.emplace_back(aff[g.a], aff[g.b]);
      aff[i] = Aff{};
      aff[i].t[id] = Rat(1);
    }
  }
  const std::size_t A = ml.size();
  std::size_t M = 0;
  for (std::size_t a = 0; a < A; ++a) M = std::max(M, ml[a]);
  std::vector<std::size_t> need(A, 0);
  for (std::size_t o = 0; o < nout; ++o)
    for (const auto& kv : aff[c.outputs()[o].gate].t) need[kv.first] = M + 1;
  for (std::size_t a = nin; a < A; ++a)
    for (const Aff* f : {&operands[a].first, &operands[a].second})
      for (const auto& kv : f->t) need[kv.first] = std::max(need[kv.first], ml[a]);

  // Vector positions: inputs at their column-major vec(u) index, the constant 1 after them.
  const std::size_t npos = static_cast<std::size_t>(-1);
  std::vector<std::size_t> pos(A, npos);
  for (std::size_t k = 0; k < nin; ++k) pos[k] = lay.in_pos[k].second * N + lay.in_pos[k].first;
  std::size_t one = N * d, cur = N * d + 1;
  auto put = [&](RouteMap& r, std::size_t row, const Aff& f) {
    for (const auto& [a, q] : f.t) r.at.emplace_back(row, pos[a]), r.vals.push_back(q);
    if (!f.c.is_zero()) r.at.emplace_back(row, one), r.vals.push_back(f.c);
  };
  struct Level {
    RouteMap map;
    std::size_t P = 0, Q = 0, H = 1;
  };
  std::vector<Level> levels;
  for (std::size_t m = 1; m <= M; ++m) {
    std::vector<std::uint32_t> prods, pass;
    for (std::size_t a = 0; a < A; ++a) {
      if (ml[a] == m && a >= nin) prods.push_back(static_cast<std::uint32_t>(a));
      else if (ml[a] <= m - 1 && need[a] >= m) pass.push_back(static_cast<std::uint32_t>(a));
    }
    Level L;
    L.P = prods.size(), L.Q = pass.size() + 1, L.H = pad_pow2(L.P + L.Q);
    for (std::size_t t = 0; t < prods.size(); ++t) put(L.map, t, operands[prods[t]].second);
    for (std::size_t q = 0; q < pass.size(); ++q) L.map.at.emplace_back(L.P + q, pos[pass[q]]), L.map.vals.push_back(Rat(1));
    L.map.at.emplace_back(L.P + pass.size(), one), L.map.vals.push_back(Rat(1));
    for (std::size_t t = 0; t < prods.size(); ++t) put(L.map, L.H + t, operands[prods[t]].first);
    L.map.n = std::max(cur, 2 * L.H);
    for (std::size_t q = 0; q < pass.size(); ++q) pos[pass[q]] = L.P + q;
    for (std::size_t t = 0; t < prods.size(); ++t) pos[prods[t]] = L.H + t;
    one = L.P + pass.size();
    cur = 2 * L.H;
    levels.push_back(std::move(L));
  }
  RouteMap out;
  for (std::size_t o = 0; o < nout; ++o) put(out, lay.out_pos[o].second * N + lay.out_pos[o].first, aff[c.outputs()[o].gate]);
  out.n = std::max(cur, N * d);

  ToModelCyclic r;
  std::vector<KMatrix<Rat>> ks;
  for (const auto& L : levels) ks.push_back(to_kmatrix(L.map));
  ks.push_back(to_kmatrix(out));
  std::size_t rows = N * d + 1;
  for (const auto& k : ks) {
    rows = std::max(rows, kmatrix_rows(k.inner()));
    r.max_width = std::max(r.max_width, k.width());
    r.max_vector = std::max(r.max_vector, pad_pow2(k.n));
    r.max_inner = std::max(r.max_inner, k.inner());
    r.kmatrix_params += kmatrix_params(k);
    if (kmatrix_params(k) >= r.largest_map_params) r.largest_map_params = kmatrix_params(k), r.largest_map_size = pad_pow2(k.n);
  }
  Model& model = r.model;
  model.ring = c.integral_constants() ? c.ring() : (c.ring() == "Z" ? "Q" : c.ring());
  model.N = N, model.d = d, model.inner_N = rows, model.inner_d = d;
  model.conv = ConvMode::Cyclic;
  append_gather(model, N * d);
  for (std::size_t m = 0; m < levels.size(); ++m) {
    const Level& L = levels[m];
    append_kmatrix_rows(model, ks[m], 2 * L.H);
    BaseConvLayer mul = zero_baseconv(model);  // y = u ⊙ (δ_H ⊛ u + b2) on channel 0
    mul.W(0, 0) = Rat(1);
    mul.h(L.H, 0) = Rat(1);
    for (std::size_t q = L.P; q < L.P + L.Q; ++q) mul.b2(q, 0) = Rat(1);
    model.layers.push_back(std::move(mul));
  }
  append_kmatrix_rows(model, ks.back(), N * d);
  append_scatter(model);
  validate(model, "compiled model");
  r.stages = M;
  r.routing_maps = ks.size();
  return r;
}

}  // namespace cz::circuits
