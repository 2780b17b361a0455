// The miter as one all-Bit circuit (output "bad" = domain ∧ ¬(∧ ok of the chosen groups) ∧ the
// fixed cube), for tools that read circuits rather than CNF (ABC's fraiging prover reads it as
// binary AIGER). Same matching of inputs and outputs by name as build_miter (miter.h).
#pragma once
#include "circuits/reference/checker.h"

#include <functional>

#include "circuits/builder.h"

namespace cz::circuits::sat {

// Replays the Bit skeleton of c into b (BitDefs through the Boolean gadgets), inputs from in(k).
// Returns the wires of c's outputs.
std::vector<Wire> replay(Builder& b, const Circuit& c, const std::function<Wire(std::size_t)>& in);

Circuit miter_circuit(const Circuit& artifact, const reference::Checker& checker, const std::vector<std::size_t>& groups,
                      const std::string& where, const std::vector<std::pair<std::size_t, bool>>& fixed = {});

}  // namespace cz::circuits::sat
