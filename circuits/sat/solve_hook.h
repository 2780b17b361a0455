// A process-wide observer of every solver run (issue 38: certificates for every proved verdict).
// The proof paths call solve() from many places (the miter driver, the stage provers of
// mqar/dyadic and circuit/sort, the layer bounds of integer models); a hook installed around a
// run sees each of them, so no path can give an UNSAT answer that escapes its certificate.
//   - replay: answers a CNF without running a solver (check-proof: the answer comes from the
//     saved, checked certificate of the same CNF; none saved: Unknown);
//   - wants_proof / solved: CaDiCaL's DRAT proof of the run is captured (beside a caller's own
//     proof sink) and handed over with the answer; solved() may throw (a proof that does not
//     check: the solver lied), which ends the run like any solver error.
//   - forwarded / adopt (issue 38: --proof DIR under mpirun): a rank other than 0 hands the DRAT
//     proof of a scheduled task to the scheduler, which sends it to rank 0; there the scheduler
//     gives rank 0's hook the answer with its proof (adopt), checked already where it was solved.
// Hooks are called from the solving threads at once: they must be thread-safe.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "circuits/sat/solver.h"

namespace cz::circuits::sat {

// The cube the calling thread is solving (cube-and-conquer, app/engine/sat/sat_schedule.h): the miter
// it is a cube of and its literals, so that --proof DIR's index can say which part of which miter
// an answer covers; null while a whole CNF is solved. Set for a scope, like MiterLabel.
struct CubeOf {
  std::string of;             // the miter's name
  std::vector<int> literals;  // the cube (DIMACS literals, the unit clauses added)
};

// One SAT sweep's outcome (sweep.h), kept with a certificate directory so that check-proof rebuilds
// the sweep's final miters from the pairs instead of searching again (the search depends on the
// solver's version and on which sweep ran; the pairs do not, and soundness never rests on how they
// were chosen: the miters say whether they hold).
struct SweepRecord {
  bool equal = false;                                        // false: the sweep ended otherwise (nothing to rebuild)
  std::size_t vars = 0, first_b = 0;                         // the joint AIG's shape (a record of other circuits is refused)
  std::vector<std::string> names;                            // each group's miter's name (G of them, the round's size)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (b's var, a's literal) the final miters reduce by
};

class SolveHook {
 public:
  virtual ~SolveHook() = default;
  virtual std::optional<SolveResult> replay(const SolverSpec&, const Cnf&, const std::string& /*what*/) { return std::nullopt; }
  virtual bool wants_proof(const SolverSpec&) const { return false; }
  // Whether every UNSAT answer a verdict rests on must reach this hook through solve() (it checks,
  // records or replays them). An engine that answers some questions otherwise (the incremental
  // sweep, sweep.h) re-asks them through solve() when this is true.
  virtual bool needs_every_answer() const { return true; }
  virtual void solved(const SolverSpec&, const Cnf&, const SolveResult&, std::string&& /*drat*/, const std::string& /*what*/) {}
  // A sweep ended (equal or not): recorded in call order. replay_sweep: the next recorded one, if any.
  virtual void sweep_done(const SweepRecord&) {}
  virtual std::optional<SweepRecord> replay_sweep() { return std::nullopt; }
  virtual void adopt(const SolverSpec&, const Cnf&, const SolveResult&, std::string&& /*drat*/, const std::string& /*what*/,
                     const CubeOf* /*cube*/) {}
};

// The hook in force (nullptr: none). Installed by the caller for the length of one run.
void set_solve_hook(SolveHook* h);
SolveHook* solve_hook();

// What the calling thread is solving ("query 3", "block 2", ...), for the hook's index and its
// messages: set for a scope; "" when nobody said.
class MiterLabel {
 public:
  explicit MiterLabel(std::string what);
  ~MiterLabel();
  MiterLabel(const MiterLabel&) = delete;
  MiterLabel& operator=(const MiterLabel&) = delete;
  static const std::string& current();

 private:
  std::string prev_;
};

// Rank > 0 under mpirun (issue 38): the DRAT proof of the task the calling thread is solving, put
// here by the hook (solved) for the scheduler to send to rank 0. `on` while a scheduled task runs.
struct ForwardSlot {
  bool on = false;
  bool has = false;
  std::string drat;
};
ForwardSlot& forward_slot();

class CubeLabel {
 public:
  explicit CubeLabel(const CubeOf* c);
  ~CubeLabel();
  CubeLabel(const CubeLabel&) = delete;
  CubeLabel& operator=(const CubeLabel&) = delete;
  static const CubeOf* current();

 private:
  const CubeOf* prev_;
};

}  // namespace cz::circuits::sat
