// Matching the ports of two circuits before an equivalence check (issue 26, `circuit --equiv`):
// a round trip through ABC or Yosys keeps the names but may reorder the ports (Yosys 0.23 sorts
// bracketed names such as k0[0] into wires), so comparing by position reports a false
// counterexample. Inputs and outputs are matched separately, each in the first way that applies:
//   "by name"              both sides name every port, distinctly, with the same set of names
//   "by normalised name"   the same after every character other than [A-Za-z0-9] becomes '_'
//                          (how BLIF writers, ours before issue 26 among them, make names safe:
//                          k0[0] -> k0_0_)
//   "by position"          otherwise (port k of one side against port k of the other)
// The result is `b` with its ports in `a`'s order (same gates: rebuilt through circuit-json,
// whose reader re-certifies every Bit), so the checkers of equiv.h compare port k with port k.
#pragma once
#include <string>

#include "circuits/circuit.h"

namespace cz::circuits {

struct PortMatch {
  std::string inputs = "by position", outputs = "by position";
};

// `b` with inputs and outputs reordered to match `a` (returned as it came where matched by position).
Circuit match_ports(const Circuit& a, Circuit b, PortMatch& how);

// `c` with the port names of `names`, by position (`verify --circuit F --port-names G`): for a
// format without names (Bristol, AIGER without symbols), from another export of the same circuit.
// InputError(where) when the numbers of inputs or outputs differ, or a name repeats.
Circuit rename_ports(const Circuit& names, const Circuit& c, const std::string& where);

}  // namespace cz::circuits
