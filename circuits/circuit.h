// Circuit: an arithmetic circuit (Zoology Def H.1: a DAG of + and × over a ring) stored the way
// ABC's GIA stores an AIG: one array of gates in which every operand precedes its gate, so
// levels, degrees, evaluation and liveness are each one forward (or backward) pass.
//
//   Gate kinds : Input, Const, Add, Mul. Sub/Neg are sugar (x - y = x + (-1)·y); a "scalar"
//                multiplication is a Mul with a Const operand.
//   Ids        : 32-bit gate ids; a gate is 16 bytes (op, type, a, b, aux), plus 16 bytes per Bit gate. Constants live in an
//                interned side table (Rat), so a Const gate only holds an index.
//   Typed wires: Field (any value) or Bit. A Bit gate carries a BitDef, the Boolean function of
//                up to three Bit operands it computes on 0/1 values (NOT, AND, OR, XOR, XNOR,
//                MUX). The builder checks every BitDef locally when it is attached (the gate's
//                arithmetic cone, cut at the operands, is evaluated on all 0/1 operand values), so
//                "Bit" is a certificate: on 0/1 inputs the wire holds 0/1 and equals its BitDef.
//                The bit-sliced evaluator and the AIGER/BLIF writers use only the BitDefs.
//   Outputs    : named gate ids. Inputs carry names (a model compiled to a circuit names them
//                u[i][j], its outputs y[i][j]; contract.md circuit-json).
//   Ring       : "Z", "Q" or "Fp:<p>": the ring the circuit is meant for (constants are Rat).
//
// Build circuits with circuits/builder.h; gadgets in circuits/gadgets_*.h.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "exact/rational.h"

namespace cz::circuits {

using GateId = std::uint32_t;
inline constexpr GateId kNoGate = 0xffffffffu;

enum class Op : std::uint8_t { Input = 0, Const = 1, Add = 2, Mul = 3 };
enum class Type : std::uint8_t { Field = 0, Bit = 1 };

const char* op_name(Op op);

// Boolean meaning of a Bit gate (operands x, y, z are Bit gates; Mux = x ? y : z).
enum class BoolOp : std::uint8_t { Input, Const0, Const1, Not, And, Or, Xor, Xnor, Mux };
const char* bool_op_name(BoolOp op);
int bool_arity(BoolOp op);  // 0..3
// Truth value of op on 0/1 operands (bits of x, y, z in the low bit).
inline bool bool_apply(BoolOp op, bool x, bool y, bool z) {
  switch (op) {
    case BoolOp::Const0: return false;
    case BoolOp::Const1: return true;
    case BoolOp::Not: return !x;
    case BoolOp::And: return x && y;
    case BoolOp::Or: return x || y;
    case BoolOp::Xor: return x != y;
    case BoolOp::Xnor: return x == y;
    case BoolOp::Mux: return x ? y : z;
    case BoolOp::Input: break;
  }
  return false;
}

struct BitDef {
  BoolOp op = BoolOp::Input;
  GateId x = kNoGate, y = kNoGate, z = kNoGate;
};

struct Gate {
  Op op;
  Type type;
  std::uint16_t reserved;
  GateId a;    // Input: input index; Const: constant index; Add/Mul: first operand (a <= b)
  GateId b;    // Add/Mul: second operand; else kNoGate
  GateId aux;  // Bit gates: index into bit_defs(); else kNoGate
};
static_assert(sizeof(Gate) == 16);

// Gates in fixed-size chunks: appending never moves gates and never over-allocates more than one
// chunk, which keeps a 10^8-gate build within the memory target (no vector-doubling peaks).
class GateStore {
 public:
  static constexpr unsigned kShift = 16;
  static constexpr std::size_t kChunk = std::size_t{1} << kShift;
  std::size_t size() const { return size_; }
  const Gate& operator[](GateId i) const { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  Gate& operator[](GateId i) { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  GateId push(const Gate& g);
  std::size_t bytes() const { return chunks_.size() * kChunk * sizeof(Gate); }

 private:
  std::vector<std::unique_ptr<Gate[]>> chunks_;
  std::size_t size_ = 0;
};

struct Output {
  std::string name;
  GateId gate;
};

class Circuit {
 public:
  std::size_t size() const { return gates_.size(); }  // all gates, inputs and constants included
  const Gate& gate(GateId i) const { return gates_[i]; }
  const Rat& constant(std::uint32_t k) const { return consts_[k]; }
  const Rat& const_value(GateId g) const { return consts_[gates_[g].a]; }  // precondition: Const gate
  std::size_t num_constants() const { return consts_.size(); }
  const BitDef& bit_def(GateId g) const { return bit_defs_[gates_[g].aux]; }  // precondition: Bit gate
  std::size_t num_bit_defs() const { return bit_defs_.size(); }
  std::size_t num_inputs() const { return input_gates_.size(); }
  GateId input_gate(std::size_t k) const { return input_gates_[k]; }
  const std::string& input_name(std::size_t k) const { return input_names_[k]; }
  const std::vector<Output>& outputs() const { return outputs_; }
  const std::string& ring() const { return ring_; }
  void set_ring(std::string r) { ring_ = std::move(r); }
  bool is_bit(GateId g) const { return gates_[g].type == Type::Bit; }
  bool all_outputs_bit() const;
  bool all_inputs_bit() const;
  bool integral_constants() const;  // every constant is an integer (the circuit lives over Z)
  std::size_t memory_bytes() const;

 private:
  friend class Builder;
  GateStore gates_;
  std::vector<Rat> consts_;
  std::deque<BitDef> bit_defs_;  // chunked: no doubling peaks (memory target)
  std::vector<GateId> input_gates_;
  std::vector<std::string> input_names_;
  std::vector<Output> outputs_;
  std::string ring_ = "Z";
};

// The Boolean skeleton of an all-Bit circuit: need[g] = 1 for the Bit gates the outputs reach
// through BitDef operands (what AIG export and bit-sliced evaluation walk).
std::vector<std::uint8_t> boolean_skeleton(const Circuit& c);

}  // namespace cz::circuits
