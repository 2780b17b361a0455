// Existing SAT solvers (issue 27: no home-made solver). CaDiCaL is the main solver: linked as a
// library and run in this process (issue 48: Debian's libcadical-dev, circuits/sat/cadical_lib.h,
// which says when), else the `cadical` program (Debian package cadical) as a process on a DIMACS
// file: it prints the model on SAT and writes a DRAT proof on UNSAT when given a proof path.
// PicoSAT (`picosat`) and MiniSat (`minisat`) are independent second opinions for --confirm, always
// processes. The time limit is enforced here (the child is killed at the deadline; the library is
// stopped by its terminator), so every solver gets the same one.
//
// A solver is a program of the user's environment, so a broken one is an environment error
// (InputError, exit 2, naming the solver's path), never a verdict and never "internal" (issue 36):
// death by a signal we did not send, an exit code that contradicts its answer, a literal beyond
// the CNF's variables, more output than a model can take. Each solver runs in its own process
// group, and the whole group is killed at the deadline, on cancellation and by the signal cleanup
// (util/signal_cleanup.h), so the children of a wrapper script die with it; its temporary CNF is
// registered with the cleanup too.
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
  std::string name;         // "cadical" | "picosat" | "minisat"
  std::string binary;       // found on PATH ("libcadical" when in_process and none is on PATH)
  bool in_process = false;  // cadical: the linked library, no process (cadical_lib.h's rule)
};

// The solver by name: the first regular, executable file of that name on PATH (a directory or a
// FIFO of that name is skipped, as a shell does); nullopt when it is not installed (or not a name
// we know). cadical: in_process by cadical_lib.h's rule (CZ_SAT_INPROCESS, Debian's binary); then
// it is found even with no `cadical` on PATH. Throws InputError on a bad CZ_SAT_INPROCESS.
std::optional<SolverSpec> find_solver(const std::string& name);

// Solver processes started by this process so far (the in-process path starts none).
std::size_t solver_processes_started();

// Where CaDiCaL's DRAT proof goes: the solver writes it into a pipe (never to a file itself, so a
// write error cannot go unnoticed) and every byte is handed to the sink, which throws on a write
// error (the solver is then killed and the exception propagates).
using ProofSink = std::function<void(const char* data, std::size_t n)>;

// Solves cnf with a wall-clock limit (seconds; fractions honoured; <= 0: Unknown "time limit"
// without running), in this process when s.in_process. proof (optional, CaDiCaL only): receives
// the binary DRAT proof (complete only on UNSAT). Throws InputError when the solver cannot be run, is broken (above) or a temporary file
// cannot be written (TMPDIR full: the directory is named).
// cancel (optional): when it turns true the solver is killed and the answer is Unknown ("cancelled").
SolveResult solve(const SolverSpec& s, const Cnf& cnf, double timeout_s, const ProofSink* proof = nullptr,
                  const std::atomic<bool>* cancel = nullptr);

// The most bytes of output read from a solver on a CNF of num_vars variables: a model printed
// with every literal and line prefix fits several times over; beyond it the solver is broken.
std::size_t solver_output_cap(int num_vars);

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
struct BatchOptions;
// Runs a batch elsewhere (issue 38, app/engine/sat/sat_schedule.h: across MPI ranks, by cubes, in
// shards) with solve_batch's meaning: same results, same order. Empty: the threads here.
using BatchRunner = std::function<std::vector<SolveResult>(const SolverSpec&, const std::vector<const Cnf*>&, const BatchOptions&)>;
struct BatchOptions {
  BatchRunner runner;  // when set, solve_batch hands the batch to it (without this field)
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
