// The miter as one all-Bit circuit (output "bad" = domain ∧ ¬(∧ ok of the chosen groups) ∧ the
// fixed cube), for tools that read circuits rather than CNF (ABC's fraiging prover reads it as
// binary AIGER). Same matching of inputs and outputs by name as build_miter (miter.h).
#pragma once
#include "circuits/reference/checker.h"

namespace cz::circuits::sat {

Circuit miter_circuit(const Circuit& artifact, const reference::Checker& checker, const std::vector<std::size_t>& groups,
                      const std::string& where, const std::vector<std::pair<std::size_t, bool>>& fixed = {});

}  // namespace cz::circuits::sat
