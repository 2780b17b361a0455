// Circuit statistics: the one place their definitions live (contract.md "circuit stats").
// All counts are over the LIVE part of the circuit (gates reachable backwards from an output);
// Add/Mul gates the builder created but no output uses are reported as `dead_gates` and otherwise
// ignored.
//   inputs            declared inputs (live or not); `live_inputs` those some output depends on
//   outputs           named outputs
//   gates_by_kind     live gates by kind {Input, Const, Add, Mul}; `scalar_muls` = Mul gates with a
//                     Const operand (x·c), included in Mul
//   size              live Add + Mul gates. Zoology Def H.1 counts nodes and treats constants as
//                     input nodes; we count only the operation nodes (= "non-input gates" of
//                     contract.md), so size does not move when a constant is shared or not.
//   edges             total fanin of the counted gates (2·size), as ABC's `edge`
//   depth             longest input→output path in gates: inputs and constants at level 0, an Add
//                     or Mul at 1 + max(level of operands) (ABC Gia_ManLevelNum convention); the
//                     depth is the largest level of an output
//   mul_depth         the same with only non-scalar Mul gates counting 1 (Add and x·c count 0);
//                     the multiplicative depth that bounds the degree (2^mul_depth) and the number
//                     of BaseConv gating layers the circuit→model compiler needs
//   width             the largest number of live Add/Mul gates on one ASAP level (levels ≥ 1)
//   width_cut         the largest number of wires crossing a boundary between levels ℓ and ℓ+1
//                     (0 ≤ ℓ < depth): a live non-constant gate v crosses it when
//                     level(v) ≤ ℓ < last(v), where last(v) is the largest level of a gate using v,
//                     or `depth` when v is an output. This is Def H.1's "wires crossed by a
//                     horizontal cut" for the ASAP placement; constants are free (not wires).
//   formal_degree     inputs 1, constants 0, Add max, Mul sum; the maximum over outputs. An upper
//                     bound on the true degree (cancellation can lower it). Saturates at 2^63
//                     (reported as the string ">=2^63").
//   exact_degree      the total degree of the computed polynomial (max over outputs; -1 when every
//                     output is the zero polynomial), via FLINT fmpq_mpoly, only for small circuits
//                     (≤ 40 live inputs, ≤ 20000 live gates, ≤ 50000 terms per polynomial and
//                     ≤ 200000 term pairs per product); else
//                     null with `exact_degree_skipped` saying why
//   r1cs_constraints  live Mul gates whose operands are both non-constant: the R1CS constraint
//                     count after folding linear operations (SIEVE's mul_gates)
//   bit_gates         live gates typed Bit; all_outputs_bit: every output is a Bit wire
//   aig_ands, aig_levels   for all-Bit circuits: AND count and AND depth of the AIG our AIGER/BLIF
//                     writers emit (structurally hashed, as ABC reads it), see circuits/aig.h
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "circuits/circuit.h"

namespace cz::circuits {

struct CircuitStats {
  std::size_t inputs = 0, live_inputs = 0, outputs = 0;
  std::size_t n_input = 0, n_const = 0, n_add = 0, n_mul = 0, scalar_muls = 0, dead_gates = 0;
  std::size_t size = 0, edges = 0, depth = 0, mul_depth = 0, width = 0, width_cut = 0;
  std::uint64_t formal_degree = 0;  // UINT64_MAX: saturated
  std::optional<long long> exact_degree;
  std::string exact_degree_skipped;
  std::size_t r1cs_constraints = 0, bit_gates = 0;
  bool all_outputs_bit = false;
  std::optional<std::size_t> aig_ands, aig_levels;
};

struct StatsOptions {
  bool exact_degree = true;
  bool aig = true;
};

CircuitStats compute_stats(const Circuit& c, const StatsOptions& o = {});
nlohmann::json to_json(const CircuitStats& s);

// Live flags (backwards from the outputs), one byte per gate.
std::vector<std::uint8_t> live_gates(const Circuit& c);

// The exact total degree (max over outputs) via FLINT fmpq_mpoly, or nullopt with `why` when the
// circuit is over the caps above. Defined in degree.cpp (FLINT stays out of headers).
std::optional<long long> exact_degree(const Circuit& c, const std::vector<std::uint8_t>& live, std::string& why);

}  // namespace cz::circuits
