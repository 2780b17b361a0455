#include "circuits/aig.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "circuits/aig_strash.h"
#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"

namespace cz::circuits {

std::size_t Aig::levels() const {
  std::vector<std::uint32_t> lev(1 + num_inputs + ands.size(), 0);
  for (std::size_t k = 0; k < ands.size(); ++k)
    lev[1 + num_inputs + k] = 1 + std::max(lev[ands[k].first >> 1], lev[ands[k].second >> 1]);
  std::size_t m = 0;
  for (auto o : outputs) m = std::max<std::size_t>(m, lev[o >> 1]);
  return m;
}

std::vector<std::uint64_t> Aig::eval64(const std::vector<std::uint64_t>& in) const {
  std::vector<std::uint64_t> v(1 + num_inputs + ands.size(), 0);
  for (std::uint32_t i = 0; i < num_inputs; ++i) v[1 + i] = in.at(i);
  auto lit = [&](std::uint32_t l) { return (l & 1) ? ~v[l >> 1] : v[l >> 1]; };
  for (std::size_t k = 0; k < ands.size(); ++k) v[1 + num_inputs + k] = lit(ands[k].first) & lit(ands[k].second);
  std::vector<std::uint64_t> out;
  for (auto o : outputs) out.push_back(lit(o));
  return out;
}

Aig to_aig(const Circuit& c) {
  if (!c.all_outputs_bit()) throw std::invalid_argument("AIG export needs a circuit whose outputs are all Bit wires");
  const std::uint32_t I = static_cast<std::uint32_t>(c.num_inputs());
  // Mark the Bit gates the outputs need, through BitDef operands only.
  std::vector<std::uint8_t> need = boolean_skeleton(c);
  AigStrash ab(I);
  std::unordered_map<GateId, std::uint32_t> lit;
  for (GateId i = 0; i < c.size(); ++i) {
    if (!need[i]) continue;
    const BitDef& d = c.bit_def(i);
    auto L = [&](GateId g) { return lit.at(g); };
    std::uint32_t r = 0;
    switch (d.op) {
      case BoolOp::Input: r = 2 * (1 + c.gate(i).a); break;
      case BoolOp::Const0: r = 0; break;
      case BoolOp::Const1: r = 1; break;
      case BoolOp::Not: r = L(d.x) ^ 1; break;
      case BoolOp::And: r = ab.and_(L(d.x), L(d.y)); break;
      case BoolOp::Or: r = ab.or_(L(d.x), L(d.y)); break;
      case BoolOp::Xor: r = ab.xor_(L(d.x), L(d.y)); break;
      case BoolOp::Xnor: r = ab.xor_(L(d.x), L(d.y)) ^ 1; break;
      case BoolOp::Mux: r = ab.mux(L(d.x), L(d.y), L(d.z)); break;
    }
    lit[i] = r;
  }
  // Keep only the ANDs an output reaches, renumbered in order (they stay topological).
  auto& ands = ab.ands();
  std::vector<std::uint8_t> live(ands.size(), 0);
  auto var_and = [&](std::uint32_t l) -> long long { return static_cast<long long>(l >> 1) - 1 - I; };
  for (const auto& o : c.outputs())
    if (long long k = var_and(lit[o.gate]); k >= 0) live[static_cast<std::size_t>(k)] = 1;
  for (std::size_t k = ands.size(); k-- > 0;)
    if (live[k])
      for (auto l : {ands[k].first, ands[k].second})
        if (long long j = var_and(l); j >= 0) live[static_cast<std::size_t>(j)] = 1;
  std::vector<std::uint32_t> newvar(ands.size(), 0);
  Aig a;
  a.num_inputs = I;
  auto remap = [&](std::uint32_t l) {
    long long k = var_and(l);
    return k < 0 ? l : (2 * newvar[static_cast<std::size_t>(k)]) | (l & 1);
  };
  for (std::size_t k = 0; k < ands.size(); ++k) {
    if (!live[k]) continue;
    newvar[k] = 1 + I + static_cast<std::uint32_t>(a.ands.size());
    std::uint32_t x = remap(ands[k].first), y = remap(ands[k].second);
    a.ands.emplace_back(std::max(x, y), std::min(x, y));
  }
  for (const auto& o : c.outputs()) {
    a.outputs.push_back(remap(lit[o.gate]));
    a.output_names.push_back(o.name);
  }
  for (std::size_t k = 0; k < I; ++k) a.input_names.push_back(c.input_name(k));
  return a;
}

Circuit from_aig(const Aig& a) {
  Builder b;
  std::vector<Wire> var(1 + a.num_inputs + a.ands.size());
  var[0] = b.zero();
  for (std::uint32_t i = 0; i < a.num_inputs; ++i)
    var[1 + i] = b.input(i < a.input_names.size() ? a.input_names[i] : "i" + std::to_string(i), Type::Bit);
  auto lit = [&](std::uint32_t l) {
    if ((l >> 1) >= var.size() || var[l >> 1].id == kNoGate) throw std::invalid_argument("AIG literal " + std::to_string(l) + " used before it is defined");
    return (l & 1) ? gadgets::not_(b, var[l >> 1]) : var[l >> 1];
  };
  for (std::size_t k = 0; k < a.ands.size(); ++k)
    var[1 + a.num_inputs + k] = gadgets::and_(b, lit(a.ands[k].first), lit(a.ands[k].second));
  for (std::size_t k = 0; k < a.outputs.size(); ++k)
    b.output(k < a.output_names.size() ? a.output_names[k] : "o" + std::to_string(k), lit(a.outputs[k]));
  return std::move(b).finish();
}

}  // namespace cz::circuits
