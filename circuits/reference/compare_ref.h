// The comparator reference checker (task compare: circuit/compare, Zoology Def H.31): inputs
// x[k], y[k] (k < d, LSB first), outputs lt = [x < y], eq = [x = y], min[k], max[k]. Every input
// is in the domain (all 2^(2d) pairs). Every output is read: one missing, or one of another
// name, is an InputError (as for task compare's enumerating check). lt is a ripple comparison from the least significant bit
// (x < y iff the top differing bit has y = 1); min = lt ? x : y, max = lt ? y : x.
//   groups: one ok per output bit, in the families lt, eq, min, max.
#pragma once
#include "circuits/reference/checker.h"

namespace cz::circuits::reference {

Checker compare_checker(std::size_t d, const std::vector<std::string>& artifact_outputs, const std::string& where);

}  // namespace cz::circuits::reference
