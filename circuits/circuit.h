// Circuit: an arithmetic circuit (Zoology Def H.1: a DAG of + and × over a ring) stored the way
// ABC's GIA stores an AIG: one array of gates in which every operand precedes its gate, so
// levels, degrees, evaluation and liveness are each one forward (or backward) pass.
//
//   Gate kinds : Input, Const, Add, Mul. Sub/Neg are sugar (x - y = x + (-1)·y); a "scalar"
//                multiplication is a Mul with a Const operand.
//   Ids        : 32-bit gate ids. A gate is stored in 12 bytes (a, b, and op packed with a 30-bit
//                BitDef index; PackedGate), a Bit gate's BitDef in 13 more (three operand ids and
//                the Boolean op): the builder's memory target (issue 10) is 24 bytes a gate with
//                its hash table. Limits, refused with std::length_error, never wrapped: fewer
//                than 2^32 - 1 gates and 2^30 - 1 Bit gates. gate(i) and bit_def(g) return
//                decoded copies (Gate, BitDef). Constants live in an interned side table (Rat),
//                so a Const gate only holds an index.
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
#include <string>
#include <vector>

#include "circuits/chunked.h"
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

// A gate as callers see it (a decoded copy of its PackedGate).
struct Gate {
  Op op;
  Type type;
  std::uint16_t reserved;
  GateId a;    // Input: input index; Const: constant index; Add/Mul: first operand (a <= b)
  GateId b;    // Add/Mul: second operand; else kNoGate
  GateId aux;  // Bit gates: index into the BitDefs; else kNoGate
};

// How a gate is stored: 12 bytes. meta = op in the top 2 bits, the BitDef index in the low 30
// (all ones: a Field gate), so the type costs no bits of its own.
struct PackedGate {
  static constexpr std::uint32_t kAuxBits = 30;
  static constexpr std::uint32_t kNoAux = (std::uint32_t{1} << kAuxBits) - 1;
  static constexpr std::uint32_t kMaxBitDefs = kNoAux;  // BitDef indices 0 .. kNoAux - 1

  GateId a;
  GateId b;
  std::uint32_t meta;

  // Throws std::length_error when aux does not fit (never a silent wrap into the op bits).
  static PackedGate make(Op op, GateId a, GateId b, GateId aux = kNoGate);
  Op op() const { return static_cast<Op>(meta >> kAuxBits); }
  bool is_bit() const { return (meta & kNoAux) != kNoAux; }
  GateId aux() const { return is_bit() ? (meta & kNoAux) : kNoGate; }
  void set_aux(GateId aux);  // marks the gate Bit with BitDef index aux (same limit as make)
  Gate decode() const { return Gate{op(), is_bit() ? Type::Bit : Type::Field, 0, a, b, aux()}; }
};
static_assert(sizeof(PackedGate) == 12);

// Appends a gate; throws std::length_error at 2^32 - 1 gates (kNoGate is no id).
// Chunks of 2^19 gates: 6 MiB, whole huge pages (circuits/huge_alloc.h).
using GateArray = ChunkedArray<PackedGate, 19>;
GateId push_gate(GateArray& gates, const PackedGate& g);

struct Output {
  std::string name;
  GateId gate;
};

class Circuit {
 public:
  std::size_t size() const { return gates_.size(); }  // all gates, inputs and constants included
  Gate gate(GateId i) const { return gates_[i].decode(); }
  const Rat& constant(std::uint32_t k) const { return consts_[k]; }
  const Rat& const_value(GateId g) const { return consts_[gates_[g].a]; }  // precondition: Const gate
  std::size_t num_constants() const { return consts_.size(); }
  BitDef bit_def(GateId g) const {  // precondition: Bit gate
    const std::uint32_t k = gates_[g].meta & PackedGate::kNoAux;
    const BitOperands& o = bit_ops_[k];
    return BitDef{bit_kinds_[k], o.x, o.y, o.z};
  }
  std::size_t num_bit_defs() const { return bit_kinds_.size(); }
  std::size_t num_inputs() const { return input_gates_.size(); }
  GateId input_gate(std::size_t k) const { return input_gates_[k]; }
  const std::string& input_name(std::size_t k) const { return input_names_[k]; }
  const std::vector<Output>& outputs() const { return outputs_; }
  const std::string& ring() const { return ring_; }
  void set_ring(std::string r) { ring_ = std::move(r); }
  bool is_bit(GateId g) const { return gates_[g].is_bit(); }
  bool all_outputs_bit() const;
  bool all_inputs_bit() const;
  bool integral_constants() const;  // every constant is an integer (the circuit lives over Z)
  std::size_t memory_bytes() const;
  // The builder's peak (its hash table and interning included) while building this circuit;
  // 0 for a circuit that no builder finished.
  std::size_t build_peak_bytes() const { return build_peak_bytes_; }

 private:
  friend class Builder;
  struct BitOperands {
    GateId x, y, z;
  };
  // Appends a BitDef; throws std::length_error past PackedGate::kMaxBitDefs.
  std::uint32_t push_bit_def(const BitDef& d);

  GateArray gates_;
  std::vector<Rat> consts_;
  // BitDef k = (bit_kinds_[k], bit_ops_[k]): 13 bytes, no padding; chunks of 6 and 2 MiB.
  ChunkedArray<BitOperands, 19> bit_ops_;
  ChunkedArray<BoolOp, 21> bit_kinds_;
  std::vector<GateId> input_gates_;
  std::vector<std::string> input_names_;
  std::vector<Output> outputs_;
  std::string ring_ = "Z";
  std::size_t build_peak_bytes_ = 0;
};

// The Boolean skeleton of an all-Bit circuit: need[g] = 1 for the Bit gates the outputs reach
// through BitDef operands (what AIG export and bit-sliced evaluation walk).
std::vector<std::uint8_t> boolean_skeleton(const Circuit& c);

}  // namespace cz::circuits
