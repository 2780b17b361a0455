// JRT §G.4: GAR and SD reduce to each other (spec §10.4).
//   Prop G.26: GAR with values in [0, c) and at most one match per query is solved by
//     d = ceil(log2(c+1)) SD calls: call l takes A = the queries (as a set) and
//     B = K_l = {k_j : bit l of code(v_j) is 1}, with code(v) = v + 1 in [1, c] so that the
//     all-zero code means Null. The oracle must return the intersection, not only yes/no.
//   Prop G.25: SD via GAR: keys = A (value 0, any non-Null token), queries = B; A and B
//     intersect iff some query is answered.
#pragma once
#include <functional>
#include <optional>
#include <vector>

#include "constructions/sd/alg3.h"
#include "tasks/gar.h"
#include "tasks/sd.h"
#include "verify/construction.h"

namespace cz::garc {

// Returns A ∩ B in increasing order.
using SdOracle = std::function<std::vector<std::uint32_t>(const sd::Instance&)>;
// Returns one answer per query (nullopt = Null).
using GarSolver = std::function<std::vector<std::optional<std::uint32_t>>(const gar::Instance&)>;

// Oracles: the plain reference, JRT Alg. 3 on the JRT prompt (sd/recurrent-jrt), and the Based
// pipeline with the data-dependent kernel (sd/based-jrt, anticausal shift).
SdOracle reference_oracle();
SdOracle recurrent_oracle(unsigned n);
SdOracle recurrent_oracle(unsigned n, const sdc::Alg3Rules& rules);  // Alg. 3 with these steps (tests: mutants)
SdOracle based_oracle(unsigned n);

// Element width of the SD calls for tokens in [0, c): ceil(log2 c), at least 1.
unsigned token_bits(std::uint32_t c);
// Value-code width d = ceil(log2(c + 1)) (the number of SD calls).
unsigned code_bits(std::uint32_t c);

struct ViaSd {
  std::vector<std::optional<std::uint32_t>> answers;
  std::vector<sd::Instance> calls;  // the SD instances handed to the oracle
};
ViaSd gar_via_sd(const gar::Instance& x, const SdOracle& oracle);  // Prop G.26

struct SdViaGar {
  bool intersects = false;
  std::vector<std::uint32_t> common;  // the answered queries
};
SdViaGar sd_via_gar(const sd::Instance& x, const GarSolver& solver);  // Prop G.25

// sd/via-gar's solvers and its check of one instance (what its enumeration runs on each): the GAR
// solver gar/via-sd on `oracle` (an empty oracle: the map-lookup reference); the failure, or nullopt.
GarSolver gar_solver_via(const SdOracle& oracle);
std::optional<Failure> sd_via_gar_failure(const GarSolver& solver, const sd::Instance& x);

// gar/via-sd's oracle for its parameters (oracle, c) and its check of one instance (what its
// enumeration runs on each): the failure against the map lookup, or nullopt.
SdOracle oracle_of(const Params& p);
std::optional<Failure> gar_via_sd_failure(const SdOracle& oracle, const gar::Instance& x);

}  // namespace cz::garc
