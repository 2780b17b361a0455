// Cube-and-conquer (issue 38): a CNF split into 2^k cubes, each the CNF plus unit clauses fixing
// k chosen variables to one of their 2^k values. The cubes cover every assignment, so the CNF is
// UNSAT exactly when every cube is, whichever variables are chosen: the choice is only about
// speed, never about soundness. A model of a cube is a model of the CNF (it only adds clauses).
#pragma once
#include <cstdint>
#include <vector>

#include "circuits/sat/cnf.h"

namespace cz::circuits::sat {

// Variables to split on, best first: `prefer` (e.g. a miter's task input variables) when given,
// else every variable; those fixed by a unit clause of cnf left out (a cube on them is trivially
// UNSAT or the CNF itself); ranked by how many clauses they occur in (a variable of a wide cone,
// such as an input with a large fan-out, cuts the most clauses), ties by number. Deterministic.
std::vector<int> cube_variables(const Cnf& cnf, const std::vector<int>& prefer = {});

// cnf with the unit clauses of `cube` (DIMACS literals) added.
Cnf with_cube(const Cnf& cnf, const std::vector<int>& cube);

// The 2^k cubes extending `parent` on vars (k = vars.size() <= 20): the one with index b fixes
// vars[i] true when bit i of b is set.
std::vector<std::vector<int>> split_cube(const std::vector<int>& parent, const std::vector<int>& vars);

// FNV-1a of a CNF's variable count and clauses: names a miter in shard part files, so that merge
// refuses parts of other miters (same construction, another build or other options).
std::uint64_t cnf_hash(const Cnf& cnf);

}  // namespace cz::circuits::sat
