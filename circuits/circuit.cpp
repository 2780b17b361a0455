#include "circuits/circuit.h"

#include <stdexcept>

namespace cz::circuits {

const char* op_name(Op op) {
  switch (op) {
    case Op::Input: return "Input";
    case Op::Const: return "Const";
    case Op::Add: return "Add";
    case Op::Mul: return "Mul";
  }
  return "?";
}

const char* bool_op_name(BoolOp op) {
  switch (op) {
    case BoolOp::Input: return "input";
    case BoolOp::Const0: return "const0";
    case BoolOp::Const1: return "const1";
    case BoolOp::Not: return "not";
    case BoolOp::And: return "and";
    case BoolOp::Or: return "or";
    case BoolOp::Xor: return "xor";
    case BoolOp::Xnor: return "xnor";
    case BoolOp::Mux: return "mux";
  }
  return "?";
}

int bool_arity(BoolOp op) {
  switch (op) {
    case BoolOp::Input: case BoolOp::Const0: case BoolOp::Const1: return 0;
    case BoolOp::Not: return 1;
    case BoolOp::And: case BoolOp::Or: case BoolOp::Xor: case BoolOp::Xnor: return 2;
    case BoolOp::Mux: return 3;
  }
  return 0;
}

PackedGate PackedGate::make(Op op, GateId a, GateId b, GateId aux) {
  PackedGate g{a, b, static_cast<std::uint32_t>(op) << kAuxBits | kNoAux};
  if (aux != kNoGate) g.set_aux(aux);
  return g;
}

void PackedGate::set_aux(GateId aux) {
  if (aux >= kMaxBitDefs)
    throw std::length_error("circuit exceeds 2^30 - 1 Bit gates (a gate stores its BitDef index in 30 bits)");
  meta = (meta & ~kNoAux) | aux;
}

GateId push_gate(GateArray& gates, const PackedGate& g) {
  if (gates.size() >= kNoGate) throw std::length_error("circuit exceeds 2^32 - 1 gates");
  return static_cast<GateId>(gates.push_back(g));
}

std::uint32_t Circuit::push_bit_def(const BitDef& d) {
  if (bit_kinds_.size() >= PackedGate::kMaxBitDefs)
    throw std::length_error("circuit exceeds 2^30 - 1 Bit gates (a gate stores its BitDef index in 30 bits)");
  bit_ops_.push_back(BitOperands{d.x, d.y, d.z});
  return static_cast<std::uint32_t>(bit_kinds_.push_back(d.op));
}

bool Circuit::all_outputs_bit() const {
  for (const auto& o : outputs_)
    if (!is_bit(o.gate)) return false;
  return !outputs_.empty();
}

bool Circuit::all_inputs_bit() const {
  for (GateId g : input_gates_)
    if (!is_bit(g)) return false;
  return true;
}

bool Circuit::integral_constants() const {
  for (const auto& q : consts_)
    if (!q.is_integer()) return false;
  return true;
}

std::size_t Circuit::memory_bytes() const {
  std::size_t b = gates_.capacity_bytes() + bit_ops_.capacity_bytes() + bit_kinds_.capacity_bytes() + consts_.capacity() * sizeof(Rat) +
                  input_gates_.capacity() * sizeof(GateId) + outputs_.capacity() * sizeof(Output);
  for (const auto& s : input_names_) b += sizeof(std::string) + (s.size() > 15 ? s.capacity() : 0);
  return b;
}

std::vector<std::uint8_t> boolean_skeleton(const Circuit& c) {
  std::vector<std::uint8_t> need(c.size(), 0);
  for (const auto& o : c.outputs()) need[o.gate] = 1;
  for (GateId i = static_cast<GateId>(c.size()); i-- > 0;) {
    if (!need[i]) continue;
    const BitDef d = c.bit_def(i);
    for (GateId o : {d.x, d.y, d.z})
      if (o != kNoGate) need[o] = 1;
  }
  return need;
}

}  // namespace cz::circuits
