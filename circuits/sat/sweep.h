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
//
// Incremental (issue 48 item 3, the default where CaDiCaL runs in this process and no batch runner
// spreads the miters over MPI ranks): ABC's `fraig` / `&cec` way. One solver for the whole sweep;
// b's nodes in topological order, each rebuilt over its fanins' representatives and asked against
// its candidate (the earliest node of a in its simulation class, up to complement) under assumptions
// with a conflict limit: UNSAT both ways merges it (later nodes are built over the partner), SAT
// gives an input whose word of neighbours (one input flipped each) is simulated and splits the
// classes, the limit leaves the node unmerged. Then each output pair is asked, with 100 times the
// limit; an output left undecided starts another pass with ten times the limit (the fifth pass,
// 300000 conflicts a pair, asks the outputs with none but the deadline). Every
// merge is proved on the reduced graph whose earlier merges are proved, so by induction every
// reduced node is its true node and the outputs' answers are the true circuits'.
// Certified (a solve hook that needs every answer, solve_hook.h: --certify, --proof DIR, check-proof;
// or --confirm's second solver): the incremental answers are not certificates (CaDiCaL's DRAT of an answer under
// assumptions does not end in the empty clause), so once they say equal, the speculative reduction
// over exactly the merged pairs is built as one round of from-scratch miters (the rounds' form above)
// and solved by solve_batch, whose answers the hook certifies. The verdict rests on that round alone;
// the incremental phase only chose its pairs. A SAT answer there means the two uses of the solver
// disagree: InputError naming the library (a broken solver, never a verdict).
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/aig_match.h"
#include "circuits/sat/solve_hook.h"
#include "circuits/sat/solver.h"

namespace cz::circuits::sat {

enum class SweepMode { Auto, Rounds, Incremental };

struct SweepOptions {
  SweepMode mode = SweepMode::Auto;           // Auto: incremental where sweep_is_incremental says it can be
  long conflicts = 30;                        // incremental: a node pair's conflict limit in the first pass (x10 each pass)
  double timeout_s = 300;                     // wall clock for all rounds
  std::uint64_t seed = 1;                     // the random simulation's (same seed, same rounds)
  unsigned words = 16;                        // 64-input words of random simulation
  unsigned max_rounds = 1000;                 // rounds (each ends with a SAT answer but the last) before giving up
  unsigned groups = 16;                       // a round's pairs in this many miters (topological order)
  unsigned certified_groups = 4;              // incremental: the certified round's miters (at least `threads`; 4
                                              // measured best of 1, 2, 4, 16 on dyadic n=16 c=64 and sort 32x8 after dc2)
  unsigned threads = 1;                       // solver processes at once
  const std::atomic<bool>* cancel = nullptr;  // turns true: the solver is killed, not equal
  BatchRunner runner;                         // each round's miters elsewhere (solve_batch's runner: MPI ranks)
  const SolverSpec* second = nullptr;         // --confirm: every UNSAT answer re-solved by it (solve_batch)
};

struct SweepResult {
  bool equal = false;                  // proved: every output of b is a's output of the same name
  std::string why;                     // not equal: why (an output differs on a simulated input, a limit)
  std::vector<std::string> differ;     // outputs (the first 8) that differ on the witness (a simulated input)
  std::vector<std::uint32_t> witness;  // ... on this input (one value per joint input), when differ is set
  std::size_t b_nodes = 0;             // b's AND nodes that a lacks (strashed)
  std::size_t pairs = 0;               // the last miter's pairs (nodes of b and differing outputs)
  std::size_t rounds = 0;              // rounds of miters
  std::size_t miters = 0;              // miters solved
  std::size_t refinements = 0;         // ... answered SAT (their input split a pair)
  std::size_t clauses = 0;             // the last round's clauses (its miters together)
  std::string mode;                    // "incremental" | "rounds"
  std::size_t calls = 0;               // incremental: questions to the one solver (a pair asked both ways: 2)
  std::size_t merged = 0;              // incremental: b's nodes proved equal to their partner of a
  std::size_t unresolved = 0;          // incremental: pairs left unmerged at the conflict limit (last pass)
  std::size_t passes = 0;              // incremental: passes (limits 30, 300, ... 300000: until every output is decided)
  double incremental_seconds = 0;      // incremental: the time until the final round (or the end)
  bool certified_round = false;        // incremental: the final round of from-scratch miters ran (hook or --confirm)
  double seconds = 0;
  SweepRecord record;                  // equal under a hook that needs every answer: what check-proof rebuilds (solve_hook.h)
};

// Whether sat_sweep(s, o) runs incremental: mode Incremental (std::logic_error when it cannot), or
// Auto with s in this process, the library linked and no o.runner.
bool sweep_is_incremental(const SolverSpec& s, const SweepOptions& o);

// j: joint_aig(a, b) with empty why. s: the solver (CaDiCaL). Throws what solve() throws.
SweepResult sat_sweep(const JointAig& j, const SolverSpec& s, const SweepOptions& o);

}  // namespace cz::circuits::sat
