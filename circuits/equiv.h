// Exhaustive equivalence checking on all 0/1 inputs (the Yosys `equiv_opt -assert` idea applied
// to our transformations: compile, export → read, optimise). Instance m sets input i to bit i of
// m; output k of one side is compared with output k of the other. The first failing instance
// (the smallest m, the same for any thread count) is returned as a counterexample.
//   * both circuits all-Bit: bit-sliced (512 instances per pass; sound, see eval_bitslice.h)
//   * otherwise exact: checked int64 with Z on overflow (Q when a constant is not an integer)
//   * circuit vs model: the circuit's inputs are entries of the model's input u and its outputs
//     entries of y (layout_for: by the names u[i][j]/y[i][j] when every name has that form, else
//     row-major by index; other entries of u are 0); the model is evaluated by its own exact
//     evaluator (model/eval.h), not through any compiled circuit.
// Throws std::invalid_argument on mismatched shapes or more than max_inputs inputs.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "circuits/circuit.h"
#include "model/model.h"

namespace cz::circuits {

struct Counterexample {
  std::uint64_t instance = 0;
  std::vector<int> inputs;  // 0/1 per input
  std::string output;       // name (of the first side)
  std::string want, got;    // first side, second side
};

struct EquivResult {
  bool equivalent = true;
  std::uint64_t instances = 0;
  std::string method;  // "bit-sliced" | "exact"
  std::optional<Counterexample> counterexample;
};

EquivResult equivalent_on_01(const Circuit& a, const Circuit& b, unsigned threads = 0, unsigned max_inputs = 32);
EquivResult equivalent_on_01(const Circuit& c, const Model& m, unsigned threads = 0, unsigned max_inputs = 24);

}  // namespace cz::circuits
