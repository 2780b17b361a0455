// One CaDiCaL solver kept across many questions (issue 48 item 3: incremental sweeping, as ABC's
// `fraig` and `&cec` ask their node pairs): clauses are added as the questions need them, each
// question is asked under assumptions with a conflict limit, and what the solver learned stays for
// the next. The library only (cadical_lib.h): a process cannot be asked twice. Answers are the
// solver's word; where a verdict must be certified, the caller re-asks the final question from
// scratch through solve() (sweep.h says how).
#pragma once
#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "circuits/sat/cnf.h"
#include "circuits/sat/solver.h"

namespace cz::circuits::sat {

class IncrementalSolver {
 public:
  // deadline: no answer after it (Unknown "time limit"); cancel (optional): Unknown "cancelled".
  // Throws InputError when this build has no CaDiCaL library.
  IncrementalSolver(std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel);
  ~IncrementalSolver();
  IncrementalSolver(const IncrementalSolver&) = delete;
  IncrementalSolver& operator=(const IncrementalSolver&) = delete;

  // The clauses of cnf not handed over yet (cnf grows between questions; the same Cnf each time).
  void sync(const Cnf& cnf);
  // Is the formula satisfiable with every literal of `assume` true? conflicts < 0: no limit (but the
  // deadline); past the limit: Unknown with why "conflict limit".
  Answer solve(const std::vector<int>& assume, long conflicts, std::string* why = nullptr);
  // After Sat: the value of variable v (v <= the synced CNF's variables).
  bool value(int v);
  std::size_t calls() const { return calls_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::size_t synced_ = 0, calls_ = 0;
};

// A miter whose last clause is "some goal holds" (x_1 ∨ ... ∨ x_m: sweep_round's groups, each x_k
// "pair k differs"), refuted goal by goal in one solver (issue 48 item 3: the certified round of the
// incremental sweep): each x_k is asked under assumption in turn (the earlier ones' negations
// already unit clauses), and after each UNSAT answer the unit lemma ¬x_k is written into the DRAT
// proof (RUP there: unit propagation of x_k over the clauses the solver had reaches the conflict it
// found); at the end the units falsify the last clause and the solver derives the empty clause. So
// the proof is an ordinary DRAT refutation of the CNF as given, which check_drat, --certify and
// check-proof check as any other, and each question is as easy as the pair it asks (one big
// disjunction asked at once is far harder). The goals' variables are frozen (never eliminated).
// solve()'s meaning otherwise: the hook (solve_hook.h) replays, receives the proof, sees the answer;
// Sat: a model of the CNF. Where the solver is not CaDiCaL in this process: solve() of the CNF whole.
SolveResult solve_by_goals(const SolverSpec& s, const Cnf& cnf, double timeout_s, const std::atomic<bool>* cancel = nullptr);

}  // namespace cz::circuits::sat
