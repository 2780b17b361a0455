// Are two circuits the same function, output by output, when their structures differ? SAT
// sweeping by speculative reduction (issue 38 item 4: a user's file that computes a
// construction's function with other structure, e.g. the export after ABC's `strash; dc2`).
//
// Random simulation of the joint AIG (aig_match.h) pairs each of b's nodes that a lacks with a node
// of a of the same signature (up to complement). The speculatively reduced graph replaces every
// paired node of b by its partner of a (its fanins by theirs), and miters (the pairs cut into
// groups in topological order, one miter each) ask whether any pair, or any output of b against
// a's output of the same name, differs. All UNSAT proves every pair equal at once: by induction in topological order, each paired node's true value equals its
// reduced value, which the miter says equals its partner's (the reduction's soundness, as in
// ABC's speculative reduction). A SAT answer's input, simulated on the true circuits, splits the
// first pair of its group that differs (or shows an output that differs: the circuits differ) and the next round
// starts. Each miter is an ordinary solve(), so --certify's hook checks its DRAT like any other.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/aig_match.h"
#include "circuits/sat/solver.h"

namespace cz::circuits::sat {

struct SweepOptions {
  double timeout_s = 300;                     // wall clock for all rounds
  std::uint64_t seed = 1;                     // the random simulation's (same seed, same rounds)
  unsigned words = 16;                        // 64-input words of random simulation
  unsigned max_rounds = 1000;                 // rounds (each ends with a SAT answer but the last) before giving up
  unsigned groups = 16;                       // a round's pairs in this many miters (topological order)
  unsigned threads = 1;                       // solver processes at once
  const std::atomic<bool>* cancel = nullptr;  // turns true: the solver is killed, not equal
  BatchRunner runner;                         // each round's miters elsewhere (solve_batch's runner: MPI ranks)
  const SolverSpec* second = nullptr;         // --confirm: every UNSAT answer re-solved by it (solve_batch)
};

struct SweepResult {
  bool equal = false;                  // proved: every output of b is a's output of the same name
  std::string why;                     // not equal: why (an output differs on a simulated input, a limit)
  std::vector<std::string> differ;     // outputs (the first 8) that differ on a simulated input
  std::vector<std::uint32_t> witness;  // ... on this input (one value per joint input), when differ is set
  std::size_t b_nodes = 0;             // b's AND nodes that a lacks (strashed)
  std::size_t pairs = 0;               // the last miter's pairs (nodes of b and differing outputs)
  std::size_t rounds = 0;              // rounds of miters
  std::size_t miters = 0;              // miters solved
  std::size_t refinements = 0;         // ... answered SAT (their input split a pair)
  std::size_t clauses = 0;             // the last round's clauses (its miters together)
  double seconds = 0;
};

// j: joint_aig(a, b) with empty why. s: the solver (CaDiCaL). Throws what solve() throws.
SweepResult sat_sweep(const JointAig& j, const SolverSpec& s, const SweepOptions& o);

}  // namespace cz::circuits::sat
