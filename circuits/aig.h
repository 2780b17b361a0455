// And-inverter graph of an all-Bit circuit, built from its BitDefs only (the arithmetic gates of
// the gadgets are "bit-blasted" away): NOT is free (a complemented literal), AND is one node,
// OR(a,b) = ¬(¬a ∧ ¬b), XOR(a,b) = ¬(¬(a∧¬b) ∧ ¬(¬a∧b)) (3 ANDs), MUX(s,a,c) = ¬(¬(s∧a) ∧ ¬(¬s∧c)).
// Structurally hashed like ABC's Abc_AigAnd (x∧0 = 0, x∧1 = x, x∧x = x, x∧¬x = 0, canonical
// operand order), and only ANDs an output needs are kept, so ABC reading our AIGER/BLIF reports
// the same `and` and `lev` as aig_ands / aig_levels here. Literals are 2·var + complement; var 0
// is the constant false, vars 1..I the inputs (all circuit inputs, in order), then the ANDs.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "circuits/circuit.h"

namespace cz::circuits {

struct Aig {
  std::uint32_t num_inputs = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ands;  // AND k is var 1 + num_inputs + k; rhs0 >= rhs1
  std::vector<std::uint32_t> outputs;                          // literals
  std::vector<std::string> input_names, output_names;

  std::size_t num_ands() const { return ands.size(); }
  std::size_t levels() const;  // AND depth: inputs 0, AND 1 + max(fanins); max over outputs
  // Evaluates 64 instances at once: bit k of inputs[i] is input i of instance k.
  std::vector<std::uint64_t> eval64(const std::vector<std::uint64_t>& inputs) const;
};

// Precondition: all outputs are Bit (throws std::invalid_argument otherwise).
Aig to_aig(const Circuit& c);

// The circuit of an AIG: Bit inputs, AND = Mul, NOT = 1 − x (used by the AIGER/BLIF readers).
Circuit from_aig(const Aig& a);

}  // namespace cz::circuits
