#include "circuits/sat/cadical_lib.h"

#include <sys/stat.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
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

}  // namespace

SolveResult solve_cadical_in_process(const Cnf& cnf, double timeout_s, const ProofSink* proof,
                                     const std::atomic<bool>* cancel, const std::string& where) {
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
    res = solver->solve();
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

#else

SolveResult solve_cadical_in_process(const Cnf&, double, const ProofSink*, const std::atomic<bool>*, const std::string& where) {
  throw InputError("this build has no CaDiCaL library", where);
}

#endif

}  // namespace cz::circuits::sat
