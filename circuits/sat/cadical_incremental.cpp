#include "circuits/sat/incremental.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

#include "circuits/sat/cadical_lib.h"
#include "circuits/sat/solve_hook.h"
#include "util/error.h"

#ifdef CZ_HAVE_CADICAL_LIB
#include <cadical.hpp>
#endif

namespace cz::circuits::sat {

// solve_by_goals' run in this process (its proof to `proof`, when given).
SolveResult solve_goals_in_process(const Cnf& cnf, double timeout_s, const ProofSink* proof, const std::atomic<bool>* cancel,
                                   const std::string& where);

#ifdef CZ_HAVE_CADICAL_LIB

namespace {
struct Stop : CaDiCaL::Terminator {
  std::chrono::steady_clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;
  bool timed_out = false, cancelled = false;
  bool terminate() override {
    if (cancel && cancel->load(std::memory_order_relaxed)) return cancelled = true;
    if (std::chrono::steady_clock::now() >= deadline) return timed_out = true;
    return false;
  }
};
}  // namespace

struct IncrementalSolver::Impl {
  CaDiCaL::Solver solver;
  Stop stop;
};

IncrementalSolver::IncrementalSolver(std::chrono::steady_clock::time_point deadline, const std::atomic<bool>* cancel)
    : impl_(std::make_unique<Impl>()) {
  impl_->stop.deadline = deadline;
  impl_->stop.cancel = cancel;
  impl_->solver.set("quiet", 1);
  impl_->solver.connect_terminator(&impl_->stop);
}

IncrementalSolver::~IncrementalSolver() {
  if (impl_) impl_->solver.disconnect_terminator();
}

void IncrementalSolver::sync(const Cnf& cnf) {
  try {
    for (; synced_ < cnf.lits.size(); ++synced_) impl_->solver.add(cnf.lits[synced_]);
  } catch (const std::bad_alloc&) {
    throw InputError("the CaDiCaL library ran out of memory on " + std::to_string(cnf.num_clauses) + " clauses", "SAT sweeping");
  }
}

Answer IncrementalSolver::solve(const std::vector<int>& assume, long conflicts, std::string* why) {
  ++calls_;
  Stop& s = impl_->stop;
  s.timed_out = s.cancelled = false;
  if ((s.cancel && s.cancel->load()) || std::chrono::steady_clock::now() >= s.deadline) {
    if (why) *why = (s.cancel && s.cancel->load()) ? "cancelled" : "time limit";
    return Answer::Unknown;
  }
  for (int l : assume) impl_->solver.assume(l);
  if (conflicts >= 0) impl_->solver.limit("conflicts", static_cast<int>(std::min(conflicts, 1L << 30)));
  int res = 0;
  try {
    res = impl_->solver.solve();
  } catch (const std::bad_alloc&) {
    throw InputError("the CaDiCaL library ran out of memory", "SAT sweeping");
  }
  if (res == 10) return Answer::Sat;
  if (res == 20) return Answer::Unsat;
  if (why) *why = s.cancelled ? "cancelled" : s.timed_out ? "time limit" : "conflict limit";
  return Answer::Unknown;
}

bool IncrementalSolver::value(int v) { return impl_->solver.val(v) > 0; }

namespace {

struct GoalsCookie {
  const ProofSink* sink = nullptr;
  std::exception_ptr error;
  std::atomic<bool> failed{false};
};

ssize_t goals_write(void* c, const char* buf, size_t n) {
  auto* k = static_cast<GoalsCookie*>(c);
  if (k->failed.load(std::memory_order_relaxed)) return -1;
  try {
    (*k->sink)(buf, n);
    return static_cast<ssize_t>(n);
  } catch (...) {
    k->error = std::current_exception();
    k->failed = true;
    return -1;
  }
}

struct FileCloser {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};

// Binary DRAT: 'a', each literal l as the varint of 2|l| + (l < 0), then 0.
std::string drat_addition(const std::vector<int>& clause) {
  std::string out(1, 'a');
  for (int l : clause) {
    std::uint64_t u = 2 * static_cast<std::uint64_t>(l < 0 ? -static_cast<std::int64_t>(l) : l) + (l < 0 ? 1 : 0);
    while (u > 127) out.push_back(static_cast<char>((u & 127) | 128)), u >>= 7;
    out.push_back(static_cast<char>(u));
  }
  out.push_back(0);
  return out;
}

}  // namespace

SolveResult solve_goals_in_process(const Cnf& cnf, double timeout_s, const ProofSink* proof, const std::atomic<bool>* cancel,
                                   const std::string& where) {
  SolveResult r;
  const auto t0 = std::chrono::steady_clock::now();
  // The goals: the literals of the last clause.
  std::vector<int> goals;
  if (!cnf.lits.empty()) {
    std::size_t k = cnf.lits.size() - 1;  // its terminating 0
    while (k > 0 && cnf.lits[k - 1] != 0) --k;
    goals.assign(cnf.lits.begin() + static_cast<std::ptrdiff_t>(k), cnf.lits.end() - 1);
  }
  GoalsCookie cookie;
  cookie.sink = proof;
  std::unique_ptr<FILE, FileCloser> file;
  Stop stop;
  stop.deadline = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(std::min(timeout_s, 1e9)));
  stop.cancel = cancel;
  if (cancel && cancel->load()) {
    r.why = "cancelled";
    return r;
  }
  int res = 0;
  try {
    auto solver = std::make_unique<CaDiCaL::Solver>();
    solver->set("quiet", 1);
    if (proof) {
      file.reset(::fopencookie(&cookie, "w", cookie_io_functions_t{nullptr, goals_write, nullptr, nullptr}));
      if (!file) throw InputError("cannot open the proof stream of the CaDiCaL library", where);
      std::setvbuf(file.get(), nullptr, _IOFBF, std::size_t{1} << 20);
      if (!solver->trace_proof(file.get(), "<proof sink>")) throw InputError("the CaDiCaL library refused to trace a proof", where);
    }
    if (cnf.num_vars > 0) solver->reserve(cnf.num_vars);
    for (int l : cnf.lits) solver->add(l);
    for (int g : goals) solver->freeze(g);
    solver->connect_terminator(&stop);
    for (int g : goals) {
      solver->assume(g);
      res = solver->solve();
      if (res != 20) break;
      // ¬g as a lemma of the proof (after the solver's own steps so far), then as a clause.
      if (file) {
        solver->flush_proof_trace();
        if (std::fflush(file.get()) != 0 || cookie.failed) break;
        const std::string lemma = drat_addition({-g});
        (*proof)(lemma.data(), lemma.size());
      }
      solver->add(-g);
      solver->add(0);
    }
    if ((res == 20 && !cookie.failed) || goals.empty()) res = solver->solve();  // the units against the last clause: the empty clause
    solver->disconnect_terminator();
    if (res == 10) {
      r.model.assign(static_cast<std::size_t>(cnf.num_vars) + 1, 0);
      for (int v = 1; v <= cnf.num_vars; ++v) r.model[static_cast<std::size_t>(v)] = solver->val(v) > 0 ? 1 : 0;
    }
    if (file) {
      solver->close_proof_trace();
      solver.reset();
      if (std::fflush(file.get()) != 0 && !cookie.failed) throw InputError("cannot write the DRAT proof of the CaDiCaL library", where);
    }
  } catch (const std::bad_alloc&) {
    throw InputError("the CaDiCaL library ran out of memory on a CNF of " + std::to_string(cnf.num_vars) + " variables and " +
                         std::to_string(cnf.num_clauses) + " clauses",
                     where);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (cookie.error) std::rethrow_exception(cookie.error);
  if (res == 10) {
    bool sat = false;
    std::size_t k = 0;
    for (int l : cnf.lits) {
      if (l == 0) {
        if (!sat) throw InputError("the CaDiCaL library answered SAT with a model that falsifies clause " + std::to_string(k) + " (a broken solver)", where);
        sat = false, ++k;
        continue;
      }
      const signed char b = r.model[static_cast<std::size_t>(l > 0 ? l : -l)];
      sat = sat || (l > 0 ? b == 1 : b == 0);
    }
    r.answer = Answer::Sat;
  } else if (res == 20) {
    r.answer = Answer::Unsat;
  } else {
    r.why = stop.cancelled ? "cancelled" : stop.timed_out ? "time limit (" + std::to_string(timeout_s) + " s)" : "cadical gave no answer";
  }
  return r;
}

#else

struct IncrementalSolver::Impl {};
IncrementalSolver::IncrementalSolver(std::chrono::steady_clock::time_point, const std::atomic<bool>*) {
  throw InputError("this build has no CaDiCaL library (incremental solving)", "SAT sweeping");
}
IncrementalSolver::~IncrementalSolver() = default;
void IncrementalSolver::sync(const Cnf&) {}
Answer IncrementalSolver::solve(const std::vector<int>&, long, std::string*) { return Answer::Unknown; }
bool IncrementalSolver::value(int) { return false; }
SolveResult solve_goals_in_process(const Cnf&, double, const ProofSink*, const std::atomic<bool>*, const std::string& where) {
  throw InputError("this build has no CaDiCaL library", where);
}

#endif

SolveResult solve_by_goals(const SolverSpec& s, const Cnf& cnf, double timeout_s, const std::atomic<bool>* cancel) {
  if (!s.in_process || s.name != "cadical") return solve(s, cnf, timeout_s, nullptr, cancel);  // a process: the miter whole
  SolveResult r;
  if (!(timeout_s > 0)) {
    r.why = "time limit";
    return r;
  }
  SolveHook* const hook = solve_hook();  // as solve() does (solve_hook.h)
  if (hook)
    if (std::optional<SolveResult> rr = hook->replay(s, cnf, MiterLabel::current())) return *rr;
  std::string drat;
  const ProofSink tee = [&drat](const char* d, std::size_t n) { drat.append(d, n); };
  const bool want = hook && hook->wants_proof(s);
  r = solve_goals_in_process(cnf, timeout_s, want ? &tee : nullptr, cancel, s.binary);
  if (hook && r.answer != Answer::Unknown) hook->solved(s, cnf, r, std::move(drat), MiterLabel::current());
  return r;
}

}  // namespace cz::circuits::sat
