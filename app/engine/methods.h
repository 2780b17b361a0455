// Which verification methods a construction supports at its default parameters (issue 37: `list
// --json` says so): "enumerate" always; "sat" where `verify --method sat` has a proof path (an
// all-Bit circuit with a reference checker, or an integer model it bit-blasts); "algebra" where
// `verify --method algebra` has a polynomial reference (the sim/* constructions and the primitives
// that are integer maps). Decided from the built artifact, as the methods themselves decide, so
// the list cannot drift from what `verify` accepts (tests/cli check each listed method runs).
#pragma once
#include <string>
#include <vector>

#include "verify/construction.h"

namespace cz {

std::vector<std::string> methods_at_defaults(const Construction& c);

}  // namespace cz
