// Compiler: arithmetic circuit → BaseConv model (the direction of Zoology Theorem H.21, spec §4).
// Our scheme ("wires in channels", spec §4 engineering note [R]), all layers causal, N' = N:
//   gather (2 layers)   G1 masks: channel k := u[row_k][col_k] at row row_k only (W routes the
//                       column, b2 is the row mask); G2 is a causal all-ones filter (cumsum), so
//                       afterwards row r holds, in channel k, input k when row_k ≤ r and 0 otherwise.
//   2 layers per multiplicative level m = 1..mul_depth. Every live value is an affine combination
//                       of "anchors" (inputs and non-scalar products). A_m (gate = 1) keeps the
//                       anchors still needed and writes, for each product g of level m, its right
//                       operand Lb(g) (affine, through W and b1) into g's slot; B_m multiplies:
//                       slot = (La(g) via W, b1) ⊙ (δ-filter on the slot itself), others pass.
//   extract (2 layers)  E1 writes output o, affine in the anchors, into channel o and masks it
//                       to its row (b2 = [r = row_o]); E2 sums the channels of each output column.
// Every row evaluates the same circuit on the inputs of rows ≤ it, so an output placed at row R
// is right exactly when it uses only inputs of rows ≤ R (causality, spec §2.1). The compiler
// checks this first and throws CausalityError naming the output and the input otherwise.
// Achieved: L = 2·mul_depth + 4, N' = N, d' = max(d, #inputs, #outputs, live anchors + products
// of a level); dense W costs d'^2 per layer. Theorem H.21 [M] claims (N, O(Δ log w), d, O(w), d):
// our depth is better (no log w), but our wires live in channels, so d' grows with the circuit
// while the paper keeps d' = d and puts O(w) wires in N' (see the compile report).
#pragma once
#include <cstdint>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "circuits/circuit.h"
#include "circuits/layout.h"
#include "model/model.h"

namespace cz::circuits {

struct CausalityError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct ToModel {
  Model model;
  std::size_t stages = 0;         // mul_depth levels compiled (2 layers each)
  std::size_t max_channels = 0;   // = model.inner_d
};

ToModel circuit_to_model(const Circuit& c, const Layout& layout);

// The shape circuit_to_model would build, from the same analysis, without writing a weight (its
// dense model costs layers·(d'^2 + 3·N'·d') stored rationals: past n = 8 for mqar/dyadic more than
// the ledger's budget). Equal to the built model's (layers, inner_N, inner_d, count_params dense)
// wherever both run (tests/circuits). Throws as circuit_to_model does (layout, CausalityError).
struct ModelPlan {
  std::size_t layers = 0, inner_N = 0, inner_d = 0, stages = 0;
  std::uint64_t params_dense = 0;
};
ModelPlan plan_circuit_to_model(const Circuit& c, const Layout& layout);

}  // namespace cz::circuits
