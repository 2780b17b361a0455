#include "circuits/stats.h"

#include <algorithm>

#include "circuits/aig.h"

namespace cz::circuits {

std::vector<std::uint8_t> live_gates(const Circuit& c) {
  std::vector<std::uint8_t> live(c.size(), 0);
  for (const auto& o : c.outputs()) live[o.gate] = 1;
  for (GateId i = static_cast<GateId>(c.size()); i-- > 0;) {
    if (!live[i]) continue;
    const Gate& g = c.gate(i);
    if (g.op == Op::Add || g.op == Op::Mul) live[g.a] = live[g.b] = 1;
  }
  return live;
}

CircuitStats compute_stats(const Circuit& c, const StatsOptions& o) {
  CircuitStats s;
  const std::size_t n = c.size();
  s.inputs = c.num_inputs();
  s.outputs = c.outputs().size();
  s.all_outputs_bit = c.all_outputs_bit();
  std::vector<std::uint8_t> live = live_gates(c);
  std::vector<std::uint32_t> level(n, 0), mlevel(n, 0), last(n, 0);
  std::vector<std::uint64_t> deg(n, 0);
  std::vector<std::size_t> per_level;
  auto sat_add = [](std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; };
  for (GateId i = 0; i < n; ++i) {
    const Gate& g = c.gate(i);
    if (!live[i]) {
      if (g.op == Op::Add || g.op == Op::Mul) ++s.dead_gates;  // unused constants are not gates
      continue;
    }
    if (g.type == Type::Bit) ++s.bit_gates;
    switch (g.op) {
      case Op::Input: ++s.n_input; deg[i] = 1; break;
      case Op::Const: ++s.n_const; deg[i] = 0; break;
      case Op::Add:
      case Op::Mul: {
        const bool ca = c.gate(g.a).op == Op::Const, cb = c.gate(g.b).op == Op::Const;
        level[i] = 1 + std::max(level[g.a], level[g.b]);
        last[g.a] = std::max(last[g.a], level[i]);
        last[g.b] = std::max(last[g.b], level[i]);
        if (g.op == Op::Add) {
          ++s.n_add;
          mlevel[i] = std::max(mlevel[g.a], mlevel[g.b]);
          deg[i] = std::max(deg[g.a], deg[g.b]);
        } else {
          ++s.n_mul;
          const bool scalar = ca || cb;
          s.scalar_muls += scalar;
          s.r1cs_constraints += !scalar;
          mlevel[i] = std::max(mlevel[g.a], mlevel[g.b]) + (scalar ? 0 : 1);
          deg[i] = sat_add(deg[g.a], deg[g.b]);
        }
        if (per_level.size() <= level[i]) per_level.resize(level[i] + 1, 0);
        ++per_level[level[i]];
        break;
      }
    }
  }
  for (GateId i = 0; i < n; ++i)
    if (live[i] && c.gate(i).op == Op::Input) ++s.live_inputs;
  for (const auto& out : c.outputs()) {
    s.depth = std::max<std::size_t>(s.depth, level[out.gate]);
    s.mul_depth = std::max<std::size_t>(s.mul_depth, mlevel[out.gate]);
    s.formal_degree = std::max(s.formal_degree, deg[out.gate]);
  }
  s.size = s.n_add + s.n_mul;
  s.edges = 2 * s.size;
  for (std::size_t l = 1; l < per_level.size(); ++l) s.width = std::max(s.width, per_level[l]);
  // width_cut: difference array over boundaries; v crosses boundaries level(v) .. last(v)-1.
  for (const auto& out : c.outputs()) last[out.gate] = static_cast<std::uint32_t>(s.depth);
  std::vector<long long> diff(s.depth + 2, 0);
  for (GateId i = 0; i < n; ++i) {
    if (!live[i] || c.gate(i).op == Op::Const || last[i] <= level[i]) continue;
    diff[level[i]] += 1;
    diff[last[i]] -= 1;
  }
  long long run = 0;
  for (std::size_t l = 0; l < s.depth; ++l) {
    run += diff[l];
    s.width_cut = std::max<std::size_t>(s.width_cut, static_cast<std::size_t>(run));
  }
  if (o.exact_degree) s.exact_degree = exact_degree(c, live, s.exact_degree_skipped);
  if (o.aig && s.all_outputs_bit) {
    Aig a = to_aig(c);
    s.aig_ands = a.num_ands();
    s.aig_levels = a.levels();
  }
  return s;
}

nlohmann::json to_json(const CircuitStats& s) {
  nlohmann::json j = {{"inputs", s.inputs}, {"live_inputs", s.live_inputs}, {"outputs", s.outputs},
                      {"gates_by_kind", {{"Input", s.n_input}, {"Const", s.n_const}, {"Add", s.n_add}, {"Mul", s.n_mul}}},
                      {"scalar_muls", s.scalar_muls}, {"dead_gates", s.dead_gates}, {"size", s.size},
                      {"edges", s.edges}, {"depth", s.depth}, {"mul_depth", s.mul_depth}, {"width", s.width},
                      {"width_cut", s.width_cut}, {"r1cs_constraints", s.r1cs_constraints},
                      {"bit_gates", s.bit_gates}, {"all_outputs_bit", s.all_outputs_bit}};
  if (s.formal_degree == UINT64_MAX || s.formal_degree >= (std::uint64_t{1} << 63)) j["formal_degree"] = ">=2^63";
  else j["formal_degree"] = s.formal_degree;
  j["exact_degree"] = s.exact_degree ? nlohmann::json(*s.exact_degree) : nlohmann::json(nullptr);
  if (!s.exact_degree_skipped.empty()) j["exact_degree_skipped"] = s.exact_degree_skipped;
  if (s.aig_ands) {
    j["aig_ands"] = *s.aig_ands;
    j["aig_levels"] = *s.aig_levels;
  }
  return j;
}

}  // namespace cz::circuits
