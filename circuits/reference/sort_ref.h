// The sorting reference checker (task sort: circuit/sort, spec §7.5): inputs k<i>[b] (n keys of d
// bits, LSB first); the circuit under test outputs key<i>[b] and idx<i>[b] (w = max(1, ceil(log2 n))
// bits: the original position of the key it puts at place i). Every input is in the domain (all
// 2^(n·d) key vectors). The answer is right exactly when
//   sorted    : key<i> <= key<i+1> for every i (ripple comparison);
//   permutation: every idx<i> < n and idx<i> != idx<j> for i != j;
//   payload   : key<i> = k<idx<i>> (for every j: idx<i> = j implies key<i> = k<j>),
// so the output is the input keys, sorted, each with its own index (ties in any order, as the
// enumerating check accepts them).
//   groups: one ok per output place i (its order with place i+1, its index's range and
//           distinctness from later places, its payload), each its own family.
#pragma once
#include "circuits/reference/checker.h"

namespace cz::circuits::reference {

Checker sort_checker(std::size_t n, std::size_t d, const std::vector<std::string>& artifact_outputs,
                     const std::string& where);

}  // namespace cz::circuits::reference
