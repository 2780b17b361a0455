// Existing SAT solvers run as separate processes on a DIMACS file (issue 27: no home-made solver).
// CaDiCaL (`cadical`, Debian package cadical) is the main solver: it reads DIMACS, prints the
// model on SAT, and writes a DRAT proof on UNSAT when given a proof path. PicoSAT (`picosat`) and
// MiniSat (`minisat`) are independent second opinions for --confirm. The time limit is enforced
// here (the child is killed at the deadline), so every solver gets the same one.
#pragma once
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "circuits/sat/cnf.h"

namespace cz::circuits::sat {

enum class Answer { Sat, Unsat, Unknown };
const char* to_string(Answer a);

struct SolveResult {
  Answer answer = Answer::Unknown;
  std::vector<signed char> model;  // Sat: model[v] = 1 / 0 for v in 1..num_vars (index 0 unused)
  double seconds = 0;              // wall clock of the solver process
  std::string why;                 // Unknown: "time limit", or what went wrong
};

struct SolverSpec {
  std::string name;     // "cadical" | "picosat" | "minisat"
  std::string binary;   // found on PATH
};

// The solver by name, found on PATH; nullopt when it is not installed (or not a name we know).
std::optional<SolverSpec> find_solver(const std::string& name);

// Solves cnf with a wall-clock limit (seconds, > 0). proof_path ("" none): CaDiCaL writes a DRAT
// proof there (binary DRAT; the file is complete only on UNSAT). Throws std::runtime_error when
// the solver cannot be run or its answer cannot be read.
// cancel (optional): when it turns true the solver is killed and the answer is Unknown ("cancelled").
SolveResult solve(const SolverSpec& s, const Cnf& cnf, double timeout_s, const std::string& proof_path = "",
                  const std::atomic<bool>* cancel = nullptr);

// --confirm: an UNSAT answer of cnf re-solved by `second`. "" when it agrees; why it gave no answer
// (time limit, cancelled) otherwise. Throws std::logic_error when it says SAT (the solvers disagree:
// never a verdict). `what` names the miter in both.
std::string confirm_unsat(const SolverSpec& second, const Cnf& cnf, double timeout_s, const std::string& what,
                          const std::atomic<bool>* cancel = nullptr);

// Many miters with `threads` solver processes at once, within timeout_s (wall clock, from the
// call) for all of them. An UNSAT answer is confirmed by `second` when given (no answer there: the
// result becomes Unknown with why). stop_at_first: after a SAT or Unknown answer no further CNF is
// started. A CNF never started is Unknown with why "not run" (or "time limit" when the time was
// spent). started / finished (optional) are called from the solving threads. Exceptions of the
// solvers are rethrown once every thread has stopped.
struct BatchOptions {
  double timeout_s = 300;
  unsigned threads = 1;
  const std::atomic<bool>* cancel = nullptr;
  const SolverSpec* second = nullptr;
  bool stop_at_first = false;
  std::function<void(std::size_t)> started, finished;
  std::function<std::string(std::size_t)> what;  // a miter's name in messages ("miter <k>" when not given)
};
std::vector<SolveResult> solve_batch(const SolverSpec& s, const std::vector<const Cnf*>& cnfs, const BatchOptions& o);

}  // namespace cz::circuits::sat
