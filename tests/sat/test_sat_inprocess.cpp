// CaDiCaL in-process (issue 48 items 1-2, circuits/sat/cadical_lib.h) against the `cadical`
// process on the same CNFs: the same answers, models that satisfy the CNF, DRAT proofs that our
// checker accepts (and the same bytes: one solver, one proof), no process started by the library;
// its time limit, cancellation and a throwing proof sink; the certificate hook sees its answers;
// the rule of when the library is used (CZ_SAT_INPROCESS, Debian's binary, a fake `cadical`).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "circuits/sat/cadical_lib.h"
#include "circuits/sat/cnf.h"
#include "circuits/sat/drat_check.h"
#include "circuits/sat/solve_hook.h"
#include "circuits/sat/solver.h"
#include "tests/sat/sat_test_util.h"
#include "util/error.h"

using namespace cz;
namespace sat = cz::circuits::sat;

namespace {

using test_sat::check;
using test_sat::satisfies;

// CZ_SAT_INPROCESS set (or unset: nullptr) for a scope, the old value restored.
struct EnvVar {
  std::string name;
  std::optional<std::string> old;
  EnvVar(const char* n, const char* v) : name(n) {
    if (const char* o = std::getenv(n)) old = o;
    if (v) ::setenv(n, v, 1);
    else ::unsetenv(n);
  }
  ~EnvVar() {
    if (old) ::setenv(name.c_str(), old->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

// The two paths of one solver: the binary on PATH as a process, and the library.
struct Paths {
  sat::SolverSpec proc, lib;
};
std::optional<Paths> paths() {
  if (!sat::cadical_library_linked()) return std::nullopt;
  EnvVar env("CZ_SAT_INPROCESS", "0");
  const auto p = sat::find_solver("cadical");
  if (!p) return std::nullopt;
  Paths r{*p, *p};
  r.lib.in_process = true;
  return r;
}

std::uint64_t next(std::uint64_t& s) {
  s ^= s << 13, s ^= s >> 7, s ^= s << 17;
  return s;
}

// Random 3-SAT at about the threshold: both answers occur.
sat::Cnf random3(int vars, int clauses, std::uint64_t seed) {
  sat::Cnf c;
  for (int k = 0; k < vars; ++k) c.new_var();
  for (int k = 0; k < clauses; ++k) {
    for (int j = 0; j < 3; ++j) {
      const int v = 1 + static_cast<int>(next(seed) % static_cast<std::uint64_t>(vars));
      c.lits.push_back(next(seed) & 1 ? v : -v);
    }
    c.lits.push_back(0);
    ++c.num_clauses;
  }
  return c;
}

// holes+1 pigeons in `holes` holes (UNSAT; hard from about 10 holes).
sat::Cnf pigeons(int holes) {
  sat::Cnf cnf;
  const int P = holes + 1;
  for (int k = 0; k < P * holes; ++k) cnf.new_var();
  auto v = [&](int p, int h) { return p * holes + h + 1; };
  for (int p = 0; p < P; ++p) {
    for (int h = 0; h < holes; ++h) cnf.lits.push_back(v(p, h));
    cnf.lits.push_back(0);
    ++cnf.num_clauses;
  }
  for (int h = 0; h < holes; ++h)
    for (int p = 0; p < P; ++p)
      for (int q = p + 1; q < P; ++q) cnf.add({-v(p, h), -v(q, h)});
  return cnf;
}

std::vector<sat::Cnf> corpus() {
  std::vector<sat::Cnf> cs;
  for (std::uint64_t s = 1; s <= 24; ++s) cs.push_back(random3(50, 213, 0x9e3779b97f4a7c15ull * s + 1));
  for (int h : {3, 5, 7}) cs.push_back(pigeons(h));
  sat::Cnf empty;  // no clause: SAT
  empty.new_var();
  cs.push_back(empty);
  sat::Cnf contra;  // x and not x: UNSAT at once
  contra.new_var();
  contra.add({1});
  contra.add({-1});
  cs.push_back(contra);
  sat::Cnf unused;  // variables in the header that no clause names
  for (int k = 0; k < 6; ++k) unused.new_var();
  unused.add({2, -5});
  cs.push_back(unused);
  return cs;
}

}  // namespace

TEST_CASE("sat in-process: the library and the cadical process agree on every CNF, proofs check and are the same bytes") {
  const auto p = paths();
  if (!p) {
    MESSAGE("no CaDiCaL library in this build, or no cadical on PATH: the process path is the only one");
    return;
  }
  std::size_t sat_n = 0, unsat_n = 0, same_bytes = 0;
  for (const sat::Cnf& c : corpus()) {
    std::string pa, pb;
    const sat::ProofSink sa = [&](const char* d, std::size_t n) { pa.append(d, n); };
    const sat::ProofSink sb = [&](const char* d, std::size_t n) { pb.append(d, n); };
    const std::size_t before = sat::solver_processes_started();
    const sat::SolveResult a = sat::solve(p->lib, c, 60, &sa);
    CHECK(sat::solver_processes_started() == before);  // the library starts no process
    const sat::SolveResult b = sat::solve(p->proc, c, 60, &sb);
    CHECK(sat::solver_processes_started() == before + 1);
    REQUIRE(a.answer != sat::Answer::Unknown);
    CHECK(a.answer == b.answer);
    if (a.answer == sat::Answer::Sat) {
      ++sat_n;
      CHECK(a.model.size() == static_cast<std::size_t>(c.num_vars) + 1);
      CHECK(satisfies(c, a.model));
      CHECK(satisfies(c, b.model));
    } else {
      ++unsat_n;
      const sat::DratResult ra = check(c, pa);
      CHECK_MESSAGE(ra.ok, ra.why);
      const sat::DratResult rb = check(c, pb);
      CHECK_MESSAGE(rb.ok, rb.why);
      CHECK(sat::read_drat(pa, "proof").binary);  // the format the binary writes to a file
      same_bytes += pa == pb;
    }
  }
  CHECK(sat_n > 0);
  CHECK(unsat_n > 0);
  MESSAGE(sat_n << " SAT, " << unsat_n << " UNSAT, " << same_bytes << " proofs byte-identical to the binary's");
  CHECK(same_bytes == unsat_n);
}

TEST_CASE("sat in-process: solve_batch on several threads gives the process path's answers") {
  const auto p = paths();
  if (!p) return;
  const std::vector<sat::Cnf> cs = corpus();
  std::vector<const sat::Cnf*> ptrs;
  for (const auto& c : cs) ptrs.push_back(&c);
  sat::BatchOptions o;
  o.threads = 2;
  o.timeout_s = 120;
  const std::size_t before = sat::solver_processes_started();
  const auto ra = sat::solve_batch(p->lib, ptrs, o);
  CHECK(sat::solver_processes_started() == before);
  const auto rb = sat::solve_batch(p->proc, ptrs, o);
  REQUIRE(ra.size() == rb.size());
  for (std::size_t k = 0; k < ra.size(); ++k) {
    CHECK(ra[k].answer == rb[k].answer);
    if (ra[k].answer == sat::Answer::Sat) CHECK(satisfies(cs[k], ra[k].model));
  }
}

TEST_CASE("sat in-process: a time limit and a cancellation stop the library, answer Unknown") {
  const auto p = paths();
  if (!p) return;
  const sat::Cnf hard = pigeons(12);  // minutes for CaDiCaL
  const sat::SolveResult t = sat::solve(p->lib, hard, 0.2);
  CHECK(t.answer == sat::Answer::Unknown);
  CHECK(t.why.rfind("time limit", 0) == 0);
  CHECK(sat::solve(p->lib, hard, 0).why == "time limit");  // <= 0: not run
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  const sat::SolveResult c = sat::solve(p->lib, hard, 600, nullptr, &cancel);
  canceller.join();
  CHECK(c.answer == sat::Answer::Unknown);
  CHECK(c.why == "cancelled");
  // Cancelled before the start: no answer either.
  const sat::SolveResult c0 = sat::solve(p->lib, pigeons(7), 600, nullptr, &cancel);
  CHECK(c0.answer == sat::Answer::Unknown);
}

TEST_CASE("sat in-process: a proof sink that throws stops the solver and its error propagates") {
  const auto p = paths();
  if (!p) return;
  std::size_t got = 0;
  const sat::ProofSink sink = [&](const char*, std::size_t n) {
    got += n;
    throw InputError("No space left on device", "--proof full/p.drat");
  };
  CHECK_THROWS_WITH_AS(sat::solve(p->lib, pigeons(9), 600, &sink), "No space left on device", InputError);
  CHECK(got > 0);
}

namespace {
// Captures what the certificate hook sees (solve_hook.h), checking each UNSAT proof.
struct Capture : sat::SolveHook {
  std::atomic<int> unsat{0}, sat_{0}, checked{0};
  bool wants_proof(const sat::SolverSpec&) const override { return true; }
  void solved(const sat::SolverSpec& s, const sat::Cnf& c, const sat::SolveResult& r, std::string&& drat,
              const std::string&) override {
    CHECK(s.in_process);
    if (r.answer == sat::Answer::Unsat) {
      ++unsat;
      checked += check(c, drat).ok;
    } else {
      ++sat_;
    }
  }
};
struct HookIn {
  explicit HookIn(sat::SolveHook* h) { sat::set_solve_hook(h); }
  ~HookIn() { sat::set_solve_hook(nullptr); }
};
}  // namespace

TEST_CASE("sat in-process: the certificate hook gets every answer, each UNSAT one with a DRAT proof that checks") {
  const auto p = paths();
  if (!p) return;
  Capture cap;
  HookIn in(&cap);
  std::string mine;  // a caller's own sink still gets the proof too
  const sat::ProofSink sink = [&](const char* d, std::size_t n) { mine.append(d, n); };
  CHECK(sat::solve(p->lib, pigeons(6), 60, &sink).answer == sat::Answer::Unsat);
  CHECK(check(pigeons(6), mine).ok);
  CHECK(sat::solve(p->lib, random3(30, 60, 7), 60).answer == sat::Answer::Sat);
  CHECK(cap.unsat == 1);
  CHECK(cap.checked == 1);
  CHECK(cap.sat_ == 1);
}

TEST_CASE("sat in-process: the rule of when the library is used") {
  if (!sat::cadical_library_linked()) {
    EnvVar env("CZ_SAT_INPROCESS", "1");
    CHECK_THROWS_AS(sat::cadical_in_process("/usr/bin/cadical"), InputError);
    return;
  }
  CHECK(!sat::cadical_library_version().empty());
  // A fake cadical (a script, as tests/sat/sat_fake_solvers.sh puts first on PATH).
  char dir[] = "/tmp/cz-test-inprocess-XXXXXX";
  REQUIRE(::mkdtemp(dir) != nullptr);
  const std::string fake = std::string(dir) + "/cadical";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\nexit 0\n";
  }
  ::chmod(fake.c_str(), 0755);
  {
    EnvVar env("CZ_SAT_INPROCESS", nullptr);
    CHECK_FALSE(sat::cadical_in_process(fake));  // never instead of another cadical on PATH
    CHECK(sat::cadical_in_process(""));          // none on PATH: the library
    struct stat st {};
    if (::stat("/usr/bin/cadical", &st) == 0) CHECK(sat::cadical_in_process("/usr/bin/cadical"));
    // find_solver with the fake first on PATH: the fake, as a process.
    const char* old = std::getenv("PATH");
    const std::string saved = old ? old : "";
    ::setenv("PATH", (std::string(dir) + ":" + saved).c_str(), 1);
    const auto s = sat::find_solver("cadical");
    ::setenv("PATH", saved.c_str(), 1);
    REQUIRE(s);
    CHECK(s->binary == fake);
    CHECK_FALSE(s->in_process);
  }
  {
    EnvVar env("CZ_SAT_INPROCESS", "1");
    CHECK(sat::cadical_in_process(fake));
  }
  {
    EnvVar env("CZ_SAT_INPROCESS", "0");
    CHECK_FALSE(sat::cadical_in_process("/usr/bin/cadical"));
    CHECK_FALSE(sat::cadical_in_process(""));
  }
  {
    EnvVar env("CZ_SAT_INPROCESS", "yes");
    CHECK_THROWS_AS(sat::cadical_in_process("/usr/bin/cadical"), InputError);
  }
  ::unlink(fake.c_str());
  ::rmdir(dir);
  // picosat / minisat are never in-process.
  if (const auto pico = sat::find_solver("picosat")) CHECK_FALSE(pico->in_process);
}
