#include "circuits/sat/cadical_lib.h"
#include "circuits/sat/incremental.h"

#include <sys/stat.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <cstdint>
#include <memory>
#include <vector>
#include <new>

#include "util/error.h"

#ifdef CZ_HAVE_CADICAL_LIB
#include <cadical.hpp>
#endif

namespace cz::circuits::sat {

bool cadical_library_linked() {
#ifdef CZ_HAVE_CADICAL_LIB
  return true;
#else
  return false;
#endif
}

std::string cadical_library_version() {
#ifdef CZ_HAVE_CADICAL_LIB
  return CaDiCaL::Solver::version();
#else
  return "";
#endif
}

namespace {

// The real path of a file ("" when it has none).
std::string real_path(const std::string& p) {
  char buf[PATH_MAX];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : std::string();
}

}  // namespace

bool cadical_in_process(const std::string& found_binary) {
  const char* env = std::getenv("CZ_SAT_INPROCESS");
  const std::string v = env ? env : "";
  if (v == "0") return false;
  if (v == "1") {
    if (!cadical_library_linked())
      throw InputError("CZ_SAT_INPROCESS=1 but this build has no CaDiCaL library (Debian: apt-get install libcadical-dev, then rebuild)",
                       "CZ_SAT_INPROCESS");
    return true;
  }
  if (!v.empty()) throw InputError("CZ_SAT_INPROCESS must be 0, 1 or unset (got '" + v.substr(0, 24) + "')", "CZ_SAT_INPROCESS");
  if (!cadical_library_linked()) return false;
  if (found_binary.empty()) return true;
  static const std::string debian = real_path("/usr/bin/cadical");
  return !debian.empty() && real_path(found_binary) == debian;
}

#ifdef CZ_HAVE_CADICAL_LIB

namespace {

using Clock = std::chrono::steady_clock;

// The proof's bytes to the sink: CaDiCaL writes through stdio, so a FILE whose writes are ours
// (fopencookie). A sink that throws: the exception is kept, the write fails, and the terminator
// stops the solver at its next poll; solve rethrows it.
struct ProofCookie {
  const ProofSink* sink = nullptr;
  std::exception_ptr error;
  std::atomic<bool> failed{false};
};

ssize_t proof_write(void* c, const char* buf, size_t n) {
  auto* k = static_cast<ProofCookie*>(c);
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

struct Stop : CaDiCaL::Terminator {
  Clock::time_point deadline;
  const std::atomic<bool>* cancel = nullptr;
  const std::atomic<bool>* sink_failed = nullptr;
  bool timed_out = false, cancelled = false;
  bool terminate() override {
    if (sink_failed && sink_failed->load(std::memory_order_relaxed)) return true;
    if (cancel && cancel->load(std::memory_order_relaxed)) return cancelled = true;
    if (Clock::now() >= deadline) return timed_out = true;
    return false;
  }
};

struct FileCloser {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};

// A unit clause as a binary DRAT addition: 'a', the literal as the varint of 2|l| + (l < 0), 0.
std::string drat_unit(int l) {
  std::string out(1, 'a');
  std::uint64_t u = 2 * static_cast<std::uint64_t>(l < 0 ? -static_cast<std::int64_t>(l) : l) + (l < 0 ? 1 : 0);
  while (u > 127) out.push_back(static_cast<char>((u & 127) | 128)), u >>= 7;
  out.push_back(static_cast<char>(u));
  out.push_back(0);
  return out;
}

}  // namespace

SolveResult solve_cadical_in_process(const Cnf& cnf, double timeout_s, const ProofSink* proof,
                                     const std::atomic<bool>* cancel, const std::string& where, bool by_goals) {
  SolveResult r;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  ProofCookie cookie;
  cookie.sink = proof;
  std::unique_ptr<FILE, FileCloser> file;
  Stop stop;
  // A limit past any real run (1e9 s) is kept from overflowing the clock's arithmetic.
  stop.deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::min(timeout_s, 1e9)));
  stop.cancel = cancel;
  stop.sink_failed = &cookie.failed;
  int res = 0;
  if (cancel && cancel->load()) {  // as a process would be: killed before it answers
    r.why = "cancelled";
    return r;
  }
  try {
    // Declared after the FILE: the solver (its tracer) is gone before the FILE is closed.
    auto solver = std::make_unique<CaDiCaL::Solver>();
    solver->set("quiet", 1);
    if (proof) {
      file.reset(::fopencookie(&cookie, "w", cookie_io_functions_t{nullptr, proof_write, nullptr, nullptr}));
      if (!file) throw InputError("cannot open the proof stream of the CaDiCaL library", where);
      std::setvbuf(file.get(), nullptr, _IOFBF, std::size_t{1} << 20);
      if (!solver->trace_proof(file.get(), "<proof sink>")) throw InputError("the CaDiCaL library refused to trace a proof", where);
    }
    if (cnf.num_vars > 0) solver->reserve(cnf.num_vars);
    for (int l : cnf.lits) solver->add(l);
    solver->connect_terminator(&stop);
    if (by_goals) {
      // incremental.h solve_by_goals: the last clause's literals refuted one by one under
      // assumption, each refutation's unit written into the proof after the solver's own steps.
      std::vector<int> goals;
      if (!cnf.lits.empty()) {
        std::size_t k = cnf.lits.size() - 1;  // the last clause's terminating 0
        while (k > 0 && cnf.lits[k - 1] != 0) --k;
        goals.assign(cnf.lits.begin() + static_cast<std::ptrdiff_t>(k), cnf.lits.end() - 1);
      }
      for (int g : goals) solver->freeze(g);
      res = 20;
      for (int g : goals) {
        solver->assume(g);
        if ((res = solver->solve()) != 20) break;
        if (file) {
          solver->flush_proof_trace();
          if (std::fflush(file.get()) != 0 || cookie.failed) break;
          const std::string lemma = drat_unit(-g);
          (*proof)(lemma.data(), lemma.size());
        }
        solver->add(-g);
        solver->add(0);
      }
      if (res == 20 && !cookie.failed) res = solver->solve();  // the units against the last clause: the empty clause
    } else {
      res = solver->solve();
    }
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
  r.seconds = elapsed();
  if (cookie.error) std::rethrow_exception(cookie.error);
  if (res == 10) {
    // Every clause must hold under the model (cheap, and the process path's checks of a solver's
    // output have their counterpart here).
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

// One solver kept across questions (incremental.h).
struct IncrementalSolver::Impl {
  CaDiCaL::Solver solver;
  Stop stop;  // no proof: sink_failed stays null
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

#else

SolveResult solve_cadical_in_process(const Cnf&, double, const ProofSink*, const std::atomic<bool>*, const std::string& where, bool) {
  throw InputError("this build has no CaDiCaL library", where);
}

struct IncrementalSolver::Impl {};
IncrementalSolver::IncrementalSolver(std::chrono::steady_clock::time_point, const std::atomic<bool>*) {
  throw InputError("this build has no CaDiCaL library (incremental solving)", "SAT sweeping");
}
IncrementalSolver::~IncrementalSolver() = default;
void IncrementalSolver::sync(const Cnf&) {}
Answer IncrementalSolver::solve(const std::vector<int>&, long, std::string*) { return Answer::Unknown; }
bool IncrementalSolver::value(int) { return false; }
#endif

}  // namespace cz::circuits::sat
