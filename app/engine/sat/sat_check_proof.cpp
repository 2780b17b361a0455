// check-proof DIR (sat_certificates.h): the run done again with every solver call answered from
// the directory, each CNF re-derived and hashed, each DRAT proof checked.
// --proof DIR, --certify and check-proof (sat_certificates.h).
#include "app/engine/sat/sat_certificates.h"
#include "app/engine/sat/sat_cert_common.h"
#include "app/engine/sat/sat_cert_dir.h"
#include "app/engine/sat/sat_cert_index.h"

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
#include "app/engine/sat/sat_equiv.h"
#include "circuits/io.h"
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
}  // namespace

// ---- check-proof ----------------------------------------------------------------------------------

namespace {

using sat_cert::Entry;
using sat_cert::equiv_files;
using sat_cert::index_entries;
using sat_cert::read_entry_files;
using sat_cert::read_index;
using sat_cert::read_sweeps;

bool model_satisfies(const sat::Cnf& cnf, const std::vector<signed char>& m) {
  bool sat_clause = false;
  for (int l : cnf.lits) {
    if (l == 0) {
      if (!sat_clause) return false;
      sat_clause = false;
      continue;
    }
    const std::size_t v = static_cast<std::size_t>(l < 0 ? -l : l);
    if (v < m.size() && (m[v] == 1) == (l > 0)) sat_clause = true;
  }
  return true;
}


// An entry check-proof did not need: a SAT answer of a sweep's earlier round (the recorded sweep is
// rebuilt from its final round). It supports nothing, so it neither certifies nor rejects.
constexpr const char* kNotNeeded = "not needed: a SAT answer of an earlier sweep round (the sweep is rebuilt from its recorded final round)";

// Each entry's verdict after the re-run (certified, not needed, or rejected: never_asked when the
// run did not ask for it); all: every entry certified or not needed.
nlohmann::json entry_verdicts(const std::vector<Entry>& entries, const std::string& never_asked, bool& all) {
  nlohmann::json ms = nlohmann::json::array();
  for (const Entry& e : entries) {
    std::string st = e.status;
    if (!e.used && e.hash_ok && e.answer == "SAT" && e.what.rfind("sweep round ", 0) == 0)
      st = kNotNeeded;  // a recorded sweep is rebuilt from its final round (read_sweeps): its rounds' SAT answers go unasked
    else if (!e.used && e.hash_ok)
      st = "rejected: " + never_asked;
    if (st.empty()) st = "rejected: not checked";
    all = all && (st == "certified" || st == kNotNeeded);
    ms.push_back({{"what", e.what}, {"answer", e.answer}, {"cnf", e.cnf_file}, {e.answer == "UNSAT" ? "proof" : "model", e.aux_file}, {"verdict", st}});
  }
  return ms;
}

class Replayer : public sat::SolveHook {
 public:
  // watch: the run's (Python's Ctrl-C cancels it); the hook is called on the solving threads,
  // which have none of their own. sweeps: the index's, handed to the run's sweeps in order; none (an
  // index without "sweeps"): every sweep of the re-run is "not equal", as in a directory written
  // before sweeps ran under --proof DIR (the run took its other route then; a run of today that
  // sweeps always records them).
  Replayer(std::vector<Entry>& e, WorkWatch* watch, std::optional<std::vector<sat::SweepRecord>> sweeps = std::nullopt)
      : entries_(e), watch_(watch), sweeps_(std::move(sweeps)) {}
  std::optional<sat::SweepRecord> replay_sweep() override {
    std::lock_guard<std::mutex> lk(sweep_mu_);
    if (!sweeps_) return sat::SweepRecord{};  // equal false: not swept when written
    if (next_sweep_ >= sweeps_->size()) return std::nullopt;
    return (*sweeps_)[next_sweep_++];
  }
  std::optional<sat::SolveResult> replay(const sat::SolverSpec&, const sat::Cnf& cnf, const std::string& what_in) override {
    const std::string what = what_in.empty() ? "a miter" : what_in;
    const std::string dimacs = dimacs_of(cnf);
    const std::string h = sha256_hex(dimacs);
    sat::SolveResult r;
    r.why = "no certificate for this CNF in the directory";
    std::optional<sat::SolveResult> answer;
    // Every entry of this CNF and this miter is checked (stage miters repeat: equal CNFs of
    // different nodes). An entry must name the miter the re-encoded run asks about: a certificate
    // of another miter's CNF filed under this one's name is never used for it (nor counted as its).
    for (Entry& e : entries_) {
      if (e.cnf_sha != h || e.what != what) continue;
      std::lock_guard<std::mutex> lk(*e.mu);
      e.used = true;
      if (!e.hash_ok) {
        r.why = "the saved files of " + e.what + " do not match their hashes";
        continue;
      }
      if (e.status.empty()) {
        if (e.answer == "UNSAT") {
          sat::DratResult res;
          const sat::DratFormula f = sat::read_dimacs(dimacs, e.cnf_file);
          res = sat::check_drat(f, sat::read_drat(*e.aux, e.aux_file), watch_ ? &watch_->cancelled : nullptr);
          if (res.cancelled) throw Cancelled();
          e.status = res.ok ? "certified" : "rejected: " + res.why;
        } else {
          sat::SolveResult m = model_of(e, cnf.num_vars);
          e.status = model_satisfies(cnf, m.model) ? "certified" : "rejected: the model does not satisfy the CNF";
        }
      }
      if (e.status != "certified") {
        r.why = e.what + ": " + e.status;
        continue;
      }
      if (!answer) answer = e.answer == "UNSAT" ? sat::SolveResult{sat::Answer::Unsat, {}, 0, ""} : model_of(e, cnf.num_vars);
    }
    return answer ? *answer : r;
  }

 private:
  static sat::SolveResult model_of(const Entry& e, int num_vars) {
    sat::SolveResult r;
    r.answer = sat::Answer::Sat;
    r.model.assign(static_cast<std::size_t>(num_vars) + 1, 0);
    std::istringstream in(*e.aux);
    std::string tok;
    in >> tok;
    if (tok != "v") throw InputError("a model file starts with 'v'", e.aux_file);
    long long l;
    while (in >> l) {
      if (l == 0) return r;
      if (l < -num_vars || l > num_vars) throw InputError("a model literal past the CNF's variables", e.aux_file);
      r.model[static_cast<std::size_t>(l < 0 ? -l : l)] = l > 0 ? 1 : 0;
    }
    throw InputError("a model not ended by 0", e.aux_file);
  }
  std::vector<Entry>& entries_;
  WorkWatch* watch_;
  std::optional<std::vector<sat::SweepRecord>> sweeps_;
  std::size_t next_sweep_ = 0;
  std::mutex sweep_mu_;
};

}  // namespace

CheckProofResult check_proof_dir(const std::string& dir, unsigned threads, const std::vector<std::string>& circuits) {
  return check_proof_dirs({dir}, threads, circuits);
}

namespace {

// check-proof of `circuit A --equiv B --proof DIR` (issue 47): the two files read again (where the
// index says, or `at`), each with the recorded SHA-256, and sat_equivalent done again with every
// answer from DIR. Certified when it proves and every entry was asked for and checked (a proof by
// structural hashing alone has none: the re-run itself is the proof).
CheckProofResult check_equiv_dir(const std::string& dir, const nlohmann::json& idx, const std::vector<std::string>& at, unsigned threads,
                                 std::chrono::steady_clock::time_point t0) {
  const std::string ipath = dir + "/index.json";
  const auto [first, second] = equiv_files(idx["run"], ipath);
  std::vector<Entry> entries;
  index_entries(dir, idx, false, entries);
  read_entry_files({dir}, {{0, entries.size()}}, entries);
  SatOptions o;
  o.timeout_s = 1e7;  // answers come from the directory; checking takes what it takes
  o.threads = threads;
  Replayer rep(entries, current_watch(), read_sweeps(idx, ipath));
  SatEquiv out;
  {
    HookScope scope(&rep);
    out = sat_equivalent_again(first, at.empty() ? first.path : at[0], second, at.empty() ? second.path : at[1], o);
  }
  bool all = true;
  nlohmann::json ms = entry_verdicts(entries, "the re-done run never asked for this CNF under this name (not this sweep's miter, or the run stopped before it)", all);
  const bool ok = all && out.verdict == "proved";
  auto file = [](const EquivFile& f, const std::string& now) {
    nlohmann::json j = {{"path", f.path}, {"format", f.format}, {"bytes", f.bytes}, {"sha256", f.sha256}};
    if (now != f.path) j["read_from"] = now;
    return j;
  };
  CheckProofResult res;
  res.report = {{"dir", dir},
                {"what", idx["run"].contains("what") && idx["run"]["what"].is_string() ? idx["run"]["what"].get<std::string>()
                                                                                        : "circuit equivalence of files " + first.path + " and " + second.path},
                {"equivalence", {{"first", file(first, at.empty() ? first.path : at[0])}, {"second", file(second, at.empty() ? second.path : at[1])}}},
                {"verdict", ok ? "certified" : "rejected"},
                {"run_verdict", out.verdict},
                {"method", out.report.value("method", std::string())},
                {"miters", ms},
                {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
  if (out.verdict != "proved")
    res.report["why"] = out.verdict == "refuted" ? std::string("the re-done run refutes the equivalence")
                                                 : out.report.value("why", std::string("the re-done run is undecided"));
  else if (!ok) res.report["why"] = "an index entry is not certified";
  res.exit_code = ok ? 0 : 1;
  return res;
}

}  // namespace

CheckProofResult check_proof_dirs(const std::vector<std::string>& dirs, unsigned threads, const std::vector<std::string>& circuits) {
  const auto t0 = std::chrono::steady_clock::now();
  if (dirs.empty()) throw InputError("give the certificate directory (or every shard's)", "check-proof");
  if (!circuits.empty() && circuits.size() != 2) throw InputError("give two paths: the first circuit file and the second", "--circuits");
  std::vector<std::pair<std::string, nlohmann::json>> idxs;
  for (const std::string& d : dirs) idxs.emplace_back(d + "/index.json", read_index(d));
  // An equivalence run (`circuit A --equiv B --proof DIR`, issue 47): one directory, two files.
  const bool equiv = std::any_of(idxs.begin(), idxs.end(), [](const auto& i) { return i.second["run"].contains("equivalence"); });
  if (equiv && (dirs.size() > 1 || idxs.front().second.contains("shard")))
    throw InputError("a circuit equivalence run has one certificate directory, never shards", dirs.size() > 1 ? "check-proof" : idxs.front().first);
  if (equiv) return check_equiv_dir(dirs.front(), idxs.front().second, circuits, threads, t0);
  if (!circuits.empty())
    throw InputError("--circuits is for the directory of a circuit equivalence run (circuit A --equiv B --proof DIR); this one is a construction's",
                     "--circuits");
  // Shards (`verify --shard I/K --proof DIR_I`): K directories of one run, each shard once.
  if (dirs.size() > 1 || idxs.front().second.contains("shard")) check_shard_indexes(idxs);
  const nlohmann::json& idx = idxs.front().second;
  const nlohmann::json& run = idx["run"];  // read_index checked every field used here
  const std::string construction = run["construction"].get<std::string>();
  std::map<std::string, std::string> given;
  for (const auto& [k, v] : run["params"].items()) given[k] = v.get<std::string>();
  SatOptions o;
  const nlohmann::json& ro = run["options"];
  o.split = ro["split"].get<std::string>();
  o.strategy = ro["strategy"].get<std::string>();
  o.zero_one = ro["zero_one"].get<std::string>();
  o.order = ro["order"].get<std::string>();
  o.blocks = ro.contains("blocks") ? ro["blocks"].get<std::string>() : "queries";
  o.pbs_facts = ro.contains("pbs_facts") ? ro["pbs_facts"].get<std::string>() : "within";
  o.lemmas = ro["lemmas"].get<bool>();
  o.cubes = ro["cubes"].get<bool>();
  o.timeout_s = 1e7;  // answers come from the directory; checking takes what it takes
  o.threads = threads;
  std::vector<Entry> entries;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  auto plan = std::make_shared<CubePlan>();
  for (std::size_t d = 0; d < dirs.size(); ++d) {
    const std::size_t from = entries.size();
    index_entries(dirs[d], idxs[d].second, dirs.size() > 1, entries);
    spans.emplace_back(from, entries.size());
    read_index_splits(idxs[d].second, idxs[d].first, *plan);
  }
  read_entry_files(dirs, spans, entries);
  // Cube-and-conquer runs: the same splits again, no timer (sat_schedule.h CubePlan).
  if (!plan->splits.empty()) o.cube_plan = plan, o.log = std::make_shared<SatScheduleLog>();
  Replayer rep(entries, current_watch(), read_sweeps(idx, idxs.front().first));  // every shard sweeps alike: the first's
  SatOutcome out;
  {
    HookScope scope(&rep);
    out = run_verify_sat(find_construction(construction), given, o);
  }
  CheckProofResult res;
  bool all = true;
  nlohmann::json ms = entry_verdicts(entries, "the re-encoded run never asked for this CNF under this name (not this miter's CNF, not a miter of this run, or the run stopped before it)", all);
  // Every split of the index was made by the re-run, with the cubes it lists.
  nlohmann::json sp = nlohmann::json::array();
  for (const auto& [key, s] : plan->splits) {
    std::string st = !s.bad.empty() ? "rejected: " + s.bad
                     : s.used        ? "certified"
                                     : "rejected: the re-encoded run never split this (not a miter or cube of this run, or another CNF)";
    all = all && st == "certified";
    sp.push_back({{"miter", std::get<0>(key)}, {"cube", std::get<2>(key)}, {"cubes", s.cubes.size()}, {"verdict", st}});
  }
  const bool ok = all && out.verdict == "proved" && !entries.empty();
  res.report = {{"dir", dirs.front()},
                {"construction", construction},
                {"params", run["params"]},
                {"verdict", ok ? "certified" : "rejected"},
                {"run_verdict", out.verdict},
                {"miters", ms},
                {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
  if (dirs.size() > 1) res.report["dirs"] = dirs;
  if (!plan->splits.empty()) res.report["splits"] = sp;
  if (out.report.contains("sat") && out.report["sat"].contains("undecided")) res.report["why"] = out.report["sat"]["undecided"];
  if (!ok && out.verdict == "proved") res.report["why"] = "an index entry is not certified";
  res.exit_code = ok ? 0 : 1;
  return res;
}

}  // namespace cz
