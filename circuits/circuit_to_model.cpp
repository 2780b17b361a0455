#include "circuits/circuit_to_model.h"

#include <algorithm>
#include <map>

#include "circuits/affine_form.h"
#include "circuits/stats.h"

namespace cz::circuits {

namespace {

using Aff = AffineForm;  // circuits/affine_form.h

}  // namespace

namespace {

// Everything the compiler decides before it writes a weight: anchors, their levels, operands and
// affine forms, and the channel plan of every level (shared by circuit_to_model and the plan).
struct Analysis {
  std::size_t nin = 0, nout = 0, N = 0, A = 0, M = 0, dp = 0;
  std::vector<Aff> aff;
  std::vector<std::pair<Aff, Aff>> operands;
  std::vector<std::vector<std::uint32_t>> pass, prods;
};

Analysis analyse(const Circuit& c, const Layout& lay) {
  Analysis an;
  const std::size_t nin = c.num_inputs(), nout = c.outputs().size(), N = lay.N;
  an.nin = nin;
  an.nout = nout;
  an.N = N;
  if (lay.in_pos.size() != nin || lay.out_pos.size() != nout) throw std::invalid_argument("layout does not match the circuit");
  {
    std::vector<std::uint8_t> seen(N * lay.d, 0);
    for (auto [i, j] : lay.out_pos) {
      if (i >= N || j >= lay.d) throw std::invalid_argument("layout: output position outside N×d");
      if (seen[i * lay.d + j]++) throw std::invalid_argument("layout: two outputs at the same position");
    }
    for (auto [i, j] : lay.in_pos)
      if (i >= N || j >= lay.d) throw std::invalid_argument("layout: input position outside N×d");
  }
  // Anchors: inputs 0..nin-1, then non-scalar products; affine forms of every live gate.
  std::vector<std::uint8_t> live = live_gates(c);
  std::vector<Aff>& aff = an.aff;
  aff.resize(c.size());
  std::vector<std::size_t> ml(nin, 0), row(nin);
  std::vector<std::uint32_t> any_input(nin);  // an input in the anchor's cone with the largest row
  std::vector<std::pair<Aff, Aff>>& operands = an.operands;  // (La, Lb) of product anchors
  operands.resize(nin);
  for (std::size_t k = 0; k < nin; ++k) { row[k] = lay.in_pos[k].first; any_input[k] = static_cast<std::uint32_t>(k); }
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
      const std::uint32_t id = static_cast<std::uint32_t>(ml.size());
      std::size_t m = 0, r = 0;
      std::uint32_t src = 0;
      for (const Aff* f : {&aff[g.a], &aff[g.b]})
        for (const auto& kv : f->t) {
          m = std::max(m, ml[kv.first]);
          if (row[kv.first] >= r) { r = row[kv.first]; src = any_input[kv.first]; }
        }
      ml.push_back(m + 1);
      row.push_back(r);
      any_input.push_back(src);
      operands.emplace_back(aff[g.a], aff[g.b]);
      aff[i] = Aff{};
      aff[i].t[id] = Rat(1);
    }
  }
  const std::size_t A = ml.size();
  std::size_t M = 0;
  for (std::size_t a = 0; a < A; ++a) M = std::max(M, ml[a]);
  // Causality: every anchor an output uses must come from rows <= the output's row.
  std::vector<std::size_t> need(A, 0);
  for (std::size_t o = 0; o < nout; ++o) {
    const Aff& f = aff[c.outputs()[o].gate];
    for (const auto& kv : f.t) {
      if (row[kv.first] > lay.out_pos[o].first) {
        std::uint32_t in = any_input[kv.first];
        throw CausalityError("output " + c.outputs()[o].name + " at row " + std::to_string(lay.out_pos[o].first) +
                             " uses input " + c.input_name(in) + " of row " + std::to_string(row[kv.first]) +
                             " (causal models cannot look ahead)");
      }
      need[kv.first] = M + 1;
    }
  }
  for (std::size_t a = nin; a < A; ++a)
    for (const Aff* f : {&operands[a].first, &operands[a].second})
      for (const auto& kv : f->t) need[kv.first] = std::max(need[kv.first], ml[a]);
  // Channel plans.
  std::size_t dp = std::max({lay.d, nin, nout, std::size_t{1}});
  an.pass.assign(M + 1, {});
  an.prods.assign(M + 1, {});
  for (std::size_t a = nin; a < A; ++a) an.prods[ml[a]].push_back(static_cast<std::uint32_t>(a));
  for (std::size_t m = 1; m <= M; ++m) {
    for (std::size_t a = 0; a < A; ++a)
      if (ml[a] <= m - 1 && need[a] >= m) an.pass[m].push_back(static_cast<std::uint32_t>(a));
    dp = std::max(dp, an.pass[m].size() + an.prods[m].size());
  }
  an.A = A;
  an.M = M;
  an.dp = dp;
  return an;
}

}  // namespace

ModelPlan plan_circuit_to_model(const Circuit& c, const Layout& lay) {
  const Analysis an = analyse(c, lay);
  ModelPlan p;
  p.layers = 2 * an.M + 4;
  p.inner_N = lay.N;
  p.inner_d = an.dp;
  p.stages = an.M;
  // Every BaseConv layer stores W (d'×d') and b1, h, b2 (N'×d' each): count_params's dense count.
  p.params_dense = static_cast<std::uint64_t>(p.layers) * (an.dp * an.dp + 3 * lay.N * an.dp);
  return p;
}

ToModel circuit_to_model(const Circuit& c, const Layout& lay) {
  const Analysis an = analyse(c, lay);
  const std::size_t nin = an.nin, nout = an.nout, N = an.N, A = an.A, M = an.M, dp = an.dp;
  const std::vector<Aff>& aff = an.aff;
  const auto& operands = an.operands;
  const auto& pass = an.pass;
  const auto& prods = an.prods;
  Model model;
  model.ring = c.integral_constants() ? c.ring() : (c.ring() == "Z" ? "Q" : c.ring());
  model.N = N;
  model.d = lay.d;
  model.inner_N = N;
  model.inner_d = dp;
  model.conv = ConvMode::Causal;
  auto layer = [&] { return zero_baseconv(model); };
  auto fill_rows = [&](RatMatrix& m, std::size_t col, const Rat& v) { for (std::size_t r = 0; r < N; ++r) m(r, col) = v; };
  // G1 and G2.
  BaseConvLayer g1 = layer(), g2 = layer();
  for (std::size_t k = 0; k < nin; ++k) {
    g1.W(lay.in_pos[k].second, k) = Rat(1);
    g1.b2(lay.in_pos[k].first, k) = Rat(1);
    fill_rows(g2.b1, k, Rat(1));
    for (std::size_t t = 0; t < N; ++t) g2.h(t, k) = Rat(1);
  }
  model.layers.push_back(g1);
  model.layers.push_back(g2);
  std::vector<std::uint32_t> ch(A, 0);
  for (std::size_t k = 0; k < nin; ++k) ch[k] = static_cast<std::uint32_t>(k);
  auto route = [&](BaseConvLayer& L, const Aff& f, std::size_t out) {
    for (const auto& [a, q] : f.t) L.W(ch[a], out) += q;
    if (!f.c.is_zero()) fill_rows(L.b1, out, f.c);
  };
  for (std::size_t m = 1; m <= M; ++m) {
    BaseConvLayer la = layer(), lb = layer();
    std::vector<std::uint32_t> next(A, 0);
    std::size_t slot = 0;
    for (std::uint32_t a : pass[m]) {
      la.W(ch[a], slot) = Rat(1);
      lb.W(slot, slot) = Rat(1);
      fill_rows(lb.b2, slot, Rat(1));
      next[a] = static_cast<std::uint32_t>(slot++);
    }
    for (std::size_t col = 0; col < dp; ++col) fill_rows(la.b2, col, Rat(1));
    for (std::uint32_t g : prods[m]) {
      route(la, operands[g].second, slot);  // Lb(g) into g's slot (A_m)
      next[g] = static_cast<std::uint32_t>(slot++);
    }
    // B_m reads La from the pass-through channels of A_m's output.
    ch = next;
    for (std::uint32_t g : prods[m]) {
      route(lb, operands[g].first, ch[g]);
      lb.h(0, ch[g]) = Rat(1);
    }
    model.layers.push_back(la);
    model.layers.push_back(lb);
  }
  BaseConvLayer e1 = layer(), e2 = layer();
  for (std::size_t o = 0; o < nout; ++o) {
    route(e1, aff[c.outputs()[o].gate], o);
    e1.b2(lay.out_pos[o].first, o) = Rat(1);
    e2.W(o, lay.out_pos[o].second) = Rat(1);
  }
  for (std::size_t col = 0; col < dp; ++col) fill_rows(e2.b2, col, Rat(1));
  model.layers.push_back(e1);
  model.layers.push_back(e2);
  validate(model, "compiled model");
  return ToModel{std::move(model), M, dp};
}

}  // namespace cz::circuits
