// Builder: the only way to make a Circuit. It hash-conses (an identical gate is never created
// twice: GateTable, 32-bit gate ids keyed by (op, a, b), commutative operands in canonical order) and folds constants, so shared subexpressions are never duplicated
// (Halide CSE.h's DAG-vs-tree point) and gadgets on constant inputs cost nothing:
//   c1 + c2 -> c,  x + 0 -> x,  c1·c2 -> c,  x·0 -> 0,  x·1 -> x,  c1·(c2·x) -> (c1·c2)·x,
//   c1 + (c2 + x) -> (c1 + c2) + x.
// The last two never look inside a Bit wire: a gadget's expression must stay a function of its
// operand wires, or its BitDef could not be checked locally (e.g. (NOT z) − 1 would fold to −z).
// Usage:
//   Builder b;  Wire x = b.input("x", Type::Bit), y = b.input("y", Type::Bit);
//   Wire z = g::and_(b, x, y);  b.output("z", z);  Circuit c = std::move(b).finish();
// Bit wires come only from gadgets (certify_bit), which check the claimed Boolean function.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "circuits/circuit.h"
#include "circuits/gate_table.h"

namespace cz::circuits {

struct Wire {
  GateId id = kNoGate;
  friend bool operator==(Wire a, Wire b) { return a.id == b.id; }
};

// Thrown when a build exceeds Builder::set_max_gates (used by callers that cap sizes).
struct TooManyGates : std::runtime_error {
  explicit TooManyGates(std::size_t cap)
      : std::runtime_error("circuit exceeds the cap of " + std::to_string(cap) + " gates") {}
};

class Builder {
  static constexpr int kSmallConst = 64;

 public:
  Builder();
  void set_ring(std::string ring) { c_.ring_ = std::move(ring); }
  void set_max_gates(std::size_t cap) { max_gates_ = cap; next_check_ = 0; }
  void reserve(std::size_t gates);  // kept for callers; the table needs no sizing (GateTable)

  Wire input(std::string name, Type t = Type::Field);  // Bit inputs: the caller promises 0/1
  Wire constant(const Rat& v);                         // Bit-typed when v is 0 or 1
  Wire constant(std::int64_t v);
  Wire zero() { return zero_; }
  Wire one() { return one_; }
  Wire add(Wire a, Wire b);
  Wire mul(Wire a, Wire b);
  Wire sub(Wire a, Wire b);            // a + (-1)·b
  Wire neg(Wire a);                    // (-1)·a
  Wire scale(const Rat& c, Wire a);    // c·a
  Wire add_const(Wire a, const Rat& c);
  void output(std::string name, Wire w);

  Type type(Wire w) const { return is_bit(w) ? Type::Bit : Type::Field; }
  bool is_bit(Wire w) const { return c_.gates_[w.id].is_bit(); }
  Op op(Wire w) const { return c_.gates_[w.id].op(); }
  const Rat* const_value(Wire w) const;  // nullptr unless w is a constant
  std::size_t size() const { return c_.gates_.size(); }
  const Circuit& peek() const { return c_; }

  // Marks w as Bit with Boolean meaning `def` after checking it: w's arithmetic cone, cut at
  // def's operands (which must be Bit), must equal def on all 0/1 operand values. Throws
  // std::logic_error otherwise (a wrong gadget is a bug, never a silent unsound Bit).
  Wire certify_bit(Wire w, BitDef def);

  Circuit finish() &&;

  // Memory accounting (the benchmark's bytes/gate): the hash table, and everything the builder
  // holds (circuit arrays by capacity, table, constant index). The peak is at finish (nothing
  // shrinks while building); finish() records it in Circuit::build_peak_bytes().
  std::size_t table_bytes() const { return table_.bytes(); }
  std::size_t table_overflow_keys() const { return table_.overflow_keys(); }
  std::size_t memory_bytes() const;

 private:
  GateId push(const PackedGate& g);
  GateId push_slow(const PackedGate& g);
  GateId find_or_add(Op op, GateId a, GateId b);
  const Rat* cval(GateId g) const;

  Circuit c_;
  GateTable table_;
  std::unordered_map<std::string, GateId> const_index_;  // canonical "p/q" -> Const gate
  std::array<GateId, 2 * kSmallConst + 1> small_const_;   // fast path for small integers
  std::size_t max_gates_ = 0;
  // push() checks the caps (max_gates_, memory budget) only when the size reaches this; the
  // slow path recomputes it, at most 2^16 gates ahead, so a cap still trips at its exact size.
  std::size_t next_check_ = 0;
  Wire zero_, one_;
};

}  // namespace cz::circuits
