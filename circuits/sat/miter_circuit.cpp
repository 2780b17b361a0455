#include "circuits/sat/miter_circuit.h"

#include <functional>
#include <unordered_map>

#include "circuits/gadgets_bits.h"
#include "util/error.h"

namespace cz::circuits::sat {

namespace g = gadgets;

std::vector<Wire> replay(Builder& b, const Circuit& c, const std::function<Wire(std::size_t)>& in) {
  const std::vector<std::uint8_t> need = boolean_skeleton(c);
  std::vector<Wire> w(c.size());
  for (GateId id = 0; id < c.size(); ++id) {
    if (!need[id]) continue;
    const BitDef d = c.bit_def(id);
    switch (d.op) {
      case BoolOp::Input: w[id] = in(c.gate(id).a); break;
      case BoolOp::Const0: w[id] = b.zero(); break;
      case BoolOp::Const1: w[id] = b.one(); break;
      case BoolOp::Not: w[id] = g::not_(b, w[d.x]); break;
      case BoolOp::And: w[id] = g::and_(b, w[d.x], w[d.y]); break;
      case BoolOp::Or: w[id] = g::or_(b, w[d.x], w[d.y]); break;
      case BoolOp::Xor: w[id] = g::xor_(b, w[d.x], w[d.y]); break;
      case BoolOp::Xnor: w[id] = g::xnor_(b, w[d.x], w[d.y]); break;
      case BoolOp::Mux: w[id] = g::mux(b, w[d.x], w[d.y], w[d.z]); break;
    }
  }
  std::vector<Wire> outs;
  for (const auto& o : c.outputs()) outs.push_back(w[o.gate]);
  return outs;
}

Circuit miter_circuit(const Circuit& artifact, const reference::Checker& ch, const std::vector<std::size_t>& groups,
                      const std::string& where, const std::vector<std::pair<std::size_t, bool>>& fixed) {
  Builder b;
  std::vector<Wire> task;
  std::unordered_map<std::string, std::size_t> at;
  for (std::size_t k = 0; k < ch.task_inputs; ++k) {
    task.push_back(b.input(ch.circuit.input_name(k), Type::Bit));
    at.emplace(ch.circuit.input_name(k), k);
  }
  const std::vector<Wire> art = replay(b, artifact, [&](std::size_t k) {
    auto it = at.find(artifact.input_name(k));
    if (it == at.end()) throw InputError("the circuit's input " + artifact.input_name(k) + " is not an input of the task", where);
    return task[it->second];
  });
  std::unordered_map<std::string, std::size_t> art_out;
  for (std::size_t k = 0; k < artifact.outputs().size(); ++k) art_out.emplace(artifact.outputs()[k].name, k);
  const std::vector<Wire> chk = replay(b, ch.circuit, [&](std::size_t k) -> Wire {
    if (k < ch.task_inputs) return task[k];
    auto it = art_out.find(ch.circuit.input_name(k).substr(4));
    if (it == art_out.end()) throw InputError("the circuit has no output " + ch.circuit.input_name(k).substr(4), where);
    return art[it->second];
  });
  std::vector<Wire> ok;
  for (std::size_t gi : groups) ok.push_back(chk[1 + gi]);
  std::vector<Wire> bad{chk[0], g::not_(b, g::and_all(b, ok))};
  for (auto [out, v] : fixed) bad.push_back(v ? chk[out] : g::not_(b, chk[out]));
  b.output("bad", g::and_all(b, bad));
  return std::move(b).finish();
}

}  // namespace cz::circuits::sat
