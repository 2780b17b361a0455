// --proof DIR and --certify (sat_certificates.h); check-proof is sat_check_proof.cpp.
#include "app/engine/sat/sat_certificates.h"
#include "app/engine/sat/sat_cert_common.h"
#include "app/engine/sat/sat_cert_dir.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>

#include "app/engine/run/cluster.h"
#include "app/engine/sat/sat_certificates_sched.h"
#include "app/engine/sat/sat_certify_counts.h"
#include "circuits/sat/cadical_lib.h"
#include "circuits/sat/drat_check.h"
#include "circuits/sat/solve_hook.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/sha256.h"
#include "util/signal_cleanup.h"
#include "util/memory_budget.h"
#include "util/progress.h"
#include "model/model_json.h"
#include "app/engine/run/read_back.h"

namespace cz {

namespace {

namespace sat = circuits::sat;
namespace fs = std::filesystem;
using sat_cert::dimacs_of;
using sat_cert::HookScope;
using sat_cert::kFormat;


std::string solver_version(const sat::SolverSpec& s) {
  if (s.in_process) return sat::cadical_library_version();  // the linked library (issue 48): no process
  // `timeout` bounds a solver that ignores --version (a wrapper that hangs).
  std::string cmd = "timeout 5 '";
  for (char c : s.binary) cmd += c == '\'' ? std::string("'\\''") : std::string(1, c);
  cmd += "' --version 2>/dev/null";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[256];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0 && out.size() < 4096) out.append(buf, n);
    ::pclose(p);
  }
  out = out.substr(0, out.find('\n'));
  if (out.size() > 100) out.resize(100);
  return out;
}

nlohmann::json file_json(const std::string& name, const std::string& data) {
  return {{"file", name}, {"bytes", data.size()}, {"sha256", sha256_hex(data)}};
}

std::string model_text(const sat::SolveResult& r, int num_vars) {
  std::string s = "v";
  for (int v = 1; v <= num_vars; ++v) {
    const bool t = static_cast<std::size_t>(v) < r.model.size() && r.model[static_cast<std::size_t>(v)] == 1;
    s += " " + std::to_string(t ? v : -v);
  }
  return s + " 0\n";
}

class Recorder : public sat::SolveHook {
 public:
  // forward: a rank > 0 under mpirun with --proof DIR: the proofs of its scheduled tasks go to rank
  // 0 (through the scheduler, sat_schedule.cpp), which writes the directory.
  Recorder(TempDir* dir, bool check, bool forward) : dir_(dir), check_(check), forward_(forward) {}
  // A proof is captured only where it is used: --certify checks it, --proof DIR keeps it, a rank > 0
  // forwards it (capturing one costs the solver its tracing and us the bytes).
  bool wants_proof(const sat::SolverSpec&) const override { return needs_every_answer(); }
  bool needs_every_answer() const override { return check_ || forward_ || dir_ != nullptr; }
  void solved(const sat::SolverSpec& s, const sat::Cnf& cnf, const sat::SolveResult& r, std::string&& drat,
              const std::string& what_in) override {
    if (s.name != "cadical") return;  // --confirm's second opinion carries no proof
    const std::string what = what_in.empty() ? "a miter" : what_in;
    if (r.answer == sat::Answer::Unsat && check_) {
      sat::DratResult res;
      try {
        const sat::DratFormula f{cnf.num_vars, cnf.num_clauses, cnf.lits};
        res = sat::check_drat(f, sat::read_drat(drat, what));
      } catch (const InputError& e) {
        res.why = e.what();
      }
      if (!res.ok)
        throw InputError("cadical answered UNSAT on " + what + " but its DRAT proof does not check (" + res.why +
                             "): a broken solver, no verdict (--certify)",
                         s.binary);
      const CertifyCounts c{1, res.lemmas, res.checked, res.rat, res.seconds};
      thread_certify_counts() += c;  // the scheduler carries a task's checks to rank 0 (sat_schedule.cpp)
      std::lock_guard<std::mutex> lk(mu_);
      counts += c;
    }
    if (forward_) {
      sat::ForwardSlot& f = sat::forward_slot();
      if (f.on && r.answer == sat::Answer::Unsat) f.drat = std::move(drat), f.has = true;
      return;  // a solve outside the scheduler: every rank does it, rank 0 records its own
    }
    record(s, cnf, r, drat, what, sat::CubeLabel::current());
  }

  // Each sweep of the run (solve_hook.h SweepRecord), in call order, for the index's "sweeps".
  void sweep_done(const sat::SweepRecord& r) override {
    std::lock_guard<std::mutex> lk(mu_);
    sweeps_.push_back(r);
  }

  // Rank 0: a task another rank solved (its proof checked there under --certify).
  void adopt(const sat::SolverSpec& s, const sat::Cnf& cnf, const sat::SolveResult& r, std::string&& drat, const std::string& what,
             const sat::CubeOf* cube) override {
    if (s.name != "cadical" || !dir_) return;
    record(s, cnf, r, drat, what.empty() ? "a miter" : what, cube);
  }

 private:
  void record(const sat::SolverSpec& s, const sat::Cnf& cnf, const sat::SolveResult& r, const std::string& drat, const std::string& what,
              const sat::CubeOf* cube) {
    if (!dir_) return;
    const std::string dimacs = dimacs_of(cnf);
    std::size_t k;
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (!version_done_) version_ = solver_version(s), version_done_ = true, spec_ = s;
      k = next_++;
    }
    // Numbered in the order the solves end (threads race); index() renames them in a fixed order.
    const std::string base = "solved-" + std::to_string(k);
    nlohmann::json e = {{"what", what}};
    if (cube) e["cube"] = {{"of", cube->of}, {"literals", cube->literals}};
    dir_->write(base + ".cnf", dimacs);
    e["cnf"] = file_json(base + ".cnf", dimacs);
    e["cnf"]["vars"] = cnf.num_vars;
    e["cnf"]["clauses"] = cnf.num_clauses;
    if (r.answer == sat::Answer::Unsat) {
      e["answer"] = "UNSAT";
      e["proves"] = "UNSAT: no assignment violates the property the miter '" + what + "' encodes (for its whole input domain)";
      dir_->write(base + ".drat", drat);
      e["proof"] = file_json(base + ".drat", drat);
      e["proof"]["format"] = drat.empty() || drat[0] == 'a' || drat.find('\0') != std::string::npos ? "drat-binary" : "drat-text";
    } else {
      e["answer"] = "SAT";
      e["proves"] = "a model of this CNF (the run acts on it; check-proof checks it satisfies the CNF)";
      const std::string m = model_text(r, cnf.num_vars);
      dir_->write(base + ".model", m);
      e["model"] = file_json(base + ".model", m);
    }
    std::lock_guard<std::mutex> lk(mu_);
    entries_.push_back({k, std::move(e)});
  }

 public:
  // Same run, same bytes: the entries in the order of (what, numbers compared as numbers; CNF hash;
  // answer), the files renamed miter-0, miter-1, ... in that order (the solving threads finish in
  // any order; CaDiCaL's proof of one CNF is the same each time).
  // splits: the index's "splits" (empty: none, the key left out as before cubes); shard: "I/K" or "".
  nlohmann::json index(const nlohmann::json& identity, const std::string& verdict, const nlohmann::json& splits, const std::string& shard) {
    auto key = [](const nlohmann::json& e) {
      return std::make_tuple(e["what"].get<std::string>(), e["cnf"]["sha256"].get<std::string>(), e["answer"].get<std::string>());
    };
    std::stable_sort(entries_.begin(), entries_.end(), [&](const auto& a, const auto& b) {
      const auto ka = key(a.second), kb = key(b.second);
      const int c = natural_compare(std::get<0>(ka), std::get<0>(kb));
      if (c != 0) return c < 0;
      return std::make_tuple(std::get<1>(ka), std::get<2>(ka), a.first) < std::make_tuple(std::get<1>(kb), std::get<2>(kb), b.first);
    });
    nlohmann::json m = nlohmann::json::array();
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      nlohmann::json& e = entries_[i].second;
      const std::string base = "miter-" + std::to_string(i);
      for (const char* part : {"cnf", "proof", "model"}) {
        if (!e.contains(part)) continue;
        const std::string from = e[part]["file"].get<std::string>();
        const std::string to = base + from.substr(from.rfind('.'));
        dir_->rename(from, to);
        e[part]["file"] = to;
      }
      m.push_back(e);
    }
    nlohmann::json idx = {{"format", kFormat},
                          {"run", identity},
                          {"verdict", verdict},
                          {"solver", {{"name", "cadical"}, {"version", version_}, {"binary", spec_.binary}}},
                          {"certified_when_written", check_},
                          {"miters", m}};
    if (!shard.empty()) idx["shard"] = shard;
    if (!splits.empty()) idx["splits"] = splits;
    if (!sweeps_.empty()) {
      nlohmann::json a = nlohmann::json::array();
      for (const sat::SweepRecord& r : sweeps_) {
        nlohmann::json w = {{"equal", r.equal}, {"vars", r.vars}, {"first_b", r.first_b}};
        if (r.equal) {
          w["names"] = r.names;
          nlohmann::json p = nlohmann::json::array();
          for (const auto& [v, l] : r.pairs) p.push_back({v, l});
          w["pairs"] = std::move(p);
        }
        a.push_back(std::move(w));
      }
      idx["sweeps"] = std::move(a);
    }
    return idx;
  }
  CertifyCounts counts;  // this process's checks
  std::size_t entries() const { return entries_.size(); }

 private:
  TempDir* dir_;
  bool check_, forward_;
  std::mutex mu_;
  std::size_t next_ = 0;
  bool version_done_ = false;
  std::string version_;
  sat::SolverSpec spec_;
  std::vector<std::pair<std::size_t, nlohmann::json>> entries_;
  std::vector<sat::SweepRecord> sweeps_;
};

// Installs a hook for a scope.

}  // namespace

nlohmann::json certify_report_json(const CertifyCounts& c) {
  return {{"checker", "circuitzoo DRAT (RUP + RAT, backward, core-first)"},
          {"unsat_answers_checked", c.certified},
          {"lemmas", c.lemmas},
          {"core_lemmas_checked", c.core},
          {"rat_lemmas", c.rat},
          {"check_seconds", c.seconds}};
}

void check_certificate_dir(const std::string& dir) {
  std::error_code ec;
  if (fs::symlink_status(dir, ec).type() != fs::file_type::not_found)
    throw InputError("exists already: --proof DIR writes a new directory whole and never replaces one (remove it or name another; "
                     "a single DRAT file is --proof FILE.drat)",
                     "--proof " + dir);
}

SatOutcome run_sat_with_certificates(const SatOptions& o, const nlohmann::json& identity, const std::function<SatOutcome()>& run) {
  std::unique_ptr<TempDir> tmp;
  if (!o.proof_dir.empty()) {
    if (identity.is_null())
      throw InputError("--proof DIR is for constructions (check-proof re-encodes them); use --certify for a user's circuit", "--proof");
    check_certificate_dir(o.proof_dir);
    if (Cluster::rank() == 0) tmp = std::make_unique<TempDir>(o.proof_dir);  // under mpirun rank 0 writes DIR
  }
  const bool forward = !o.proof_dir.empty() && Cluster::rank() != 0;
  Recorder rec(tmp.get(), o.certify, forward);
  SatOutcome out;
  take_remote_certify_counts();  // a run before this one (Python) leaves none behind
  {
    HookScope scope(&rec);
    out = run();
  }
  nlohmann::json& st = out.report["sat"];
  if (o.certify) {
    // Under mpirun, rank 0 counts the checks every rank did (carried with the task results).
    CertifyCounts c = rec.counts;
    c += take_remote_certify_counts();
    st["certified"] = c.certified;
    st["certify"] = certify_report_json(c);
  }
  if (tmp) {
    if (out.verdict == "proved") {
      const std::string shard =
          o.parts && o.parts->shard ? std::to_string(o.parts->shard->index) + "/" + std::to_string(o.parts->shard->count) : std::string();
      const nlohmann::json splits = o.log ? index_splits(o.log->splits) : nlohmann::json::array();
      tmp->write("index.json", rec.index(identity, out.verdict, splits, shard).dump(2) + "\n");
      tmp->commit(o.proof_dir);
      st["certificates"] = {{"dir", o.proof_dir}, {"entries", rec.entries()}};
    } else {
      st["certificates"] = {{"dir", nullptr}, {"entries", 0}};  // none kept: the run did not prove
    }
  }
  return out;
}

}  // namespace cz
