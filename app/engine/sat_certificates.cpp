// --proof DIR, --certify and check-proof (sat_certificates.h).
#include "app/engine/sat_certificates.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>

#include "app/engine/cluster.h"
#include "app/engine/sat_certificates_sched.h"
#include "app/engine/sat_certify_counts.h"
#include "circuits/sat/drat_check.h"
#include "circuits/sat/solve_hook.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/sha256.h"
#include "util/signal_cleanup.h"

namespace cz {

namespace {

namespace sat = circuits::sat;
namespace fs = std::filesystem;
constexpr const char* kFormat = "circuitzoo-sat-certificates/1";

std::string dimacs_of(const sat::Cnf& cnf) {
  std::ostringstream os;
  cnf.write_dimacs(os);
  return os.str();
}

// One file written whole: created new (O_EXCL), every byte written, fsync'ed; InputError(path) on failure.
void write_new_file(const std::string& path, const std::string& data) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(std::string("cannot create a certificate file: ") + std::strerror(errno), path);
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t w = ::write(fd, data.data() + done, data.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int e = errno;
      ::close(fd);
      throw InputError(std::string("cannot write a certificate file: ") + std::strerror(e), path);
    }
    done += static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) throw InputError(std::string("cannot write a certificate file: ") + std::strerror(errno), path);
}

void fsync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  const int r = ::fsync(fd);
  const int e = errno;
  ::close(fd);
  if (r != 0 && e != EINVAL) throw InputError(std::string("cannot sync the certificate directory: ") + std::strerror(e), dir);
}

std::string solver_version(const sat::SolverSpec& s) {
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

// The temporary directory of one run, removed unless committed (and by the signal handler).
class TempDir {
 public:
  explicit TempDir(const std::string& target) : path_(target + ".tmp-" + std::to_string(::getpid())) {
    CleanupSignalsBlocked blocked;
    if (::mkdir(path_.c_str(), 0755) != 0)
      throw InputError(std::string("cannot create the certificate directory: ") + std::strerror(errno), path_);
    // One slot for the directory and whatever is in it (a slot per file ran out at ~500 entries).
    slot_ = register_cleanup_dir_with_files(path_);
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
    unregister_cleanup_path(slot_);
  }
  const std::string& path() const { return path_; }
  void write(const std::string& name, const std::string& data) {
    const std::string p = path_ + "/" + name;
    write_new_file(p, data);  // inside the directory: the handler's slot for it removes it too
  }
  // A file of the directory renamed (the index numbers files in a fixed order once every miter is in).
  void rename(const std::string& from, const std::string& to) {
    const std::string a = path_ + "/" + from, b = path_ + "/" + to;
    if (::rename(a.c_str(), b.c_str()) != 0) throw InputError(std::string("cannot name a certificate file: ") + std::strerror(errno), b);
  }
  // Renamed into place; never over an existing path (RENAME_NOREPLACE).
  void commit(const std::string& target) {
    fsync_dir(path_);
    if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) != 0)
      throw InputError(std::string("cannot rename the certificates into place: ") + std::strerror(errno), target);
    path_.clear();
    const fs::path parent = fs::path(target).parent_path();
    fsync_dir(parent.empty() ? std::string(".") : parent.string());
  }

 private:
  std::string path_;
  int slot_ = -1;
};

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
  bool wants_proof(const sat::SolverSpec&) const override { return true; }
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
};

// Installs a hook for a scope.
struct HookScope {
  explicit HookScope(sat::SolveHook* h) { sat::set_solve_hook(h); }
  ~HookScope() { sat::set_solve_hook(nullptr); }
};

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

// ---- check-proof ----------------------------------------------------------------------------------

namespace {

struct Entry {
  std::string what, answer, cnf_file, cnf_sha, aux_file, aux_sha;
  std::size_t cnf_bytes = 0, aux_bytes = 0;
  std::string status;  // "" until the re-run asks for it; "certified" or why not
  bool hash_ok = false;
  std::string aux;     // the proof or the model
  bool used = false;
  std::shared_ptr<std::mutex> mu = std::make_shared<std::mutex>();  // one check per entry; entries checked in parallel
};

std::string plain_name(const nlohmann::json& v, const std::string& where) {
  if (!v.is_string()) throw InputError("a file name is not a string", where);
  const std::string s = v.get<std::string>();
  if (s.empty() || s.size() > 200 || s == "." || s == ".." ||
      !std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }))
    throw InputError("file name '" + s.substr(0, 60) + "' is not a plain name in the directory", where);
  return s;
}

std::string str_at(const nlohmann::json& o, const char* key, const std::string& where) {
  if (!o.is_object() || !o.contains(key) || !o[key].is_string()) throw InputError(std::string("\"") + key + "\" missing or not a string", where);
  return o[key].get<std::string>();
}
std::size_t size_at(const nlohmann::json& o, const char* key, const std::string& where) {
  if (!o.is_object() || !o.contains(key) || !o[key].is_number_unsigned()) throw InputError(std::string("\"") + key + "\" missing or not a count", where);
  return o[key].get<std::size_t>();
}

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

class Replayer : public sat::SolveHook {
 public:
  explicit Replayer(std::vector<Entry>& e) : entries_(e) {}
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
          res = sat::check_drat(f, sat::read_drat(e.aux, e.aux_file));
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
    std::istringstream in(e.aux);
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
};

}  // namespace

namespace {

nlohmann::json read_index(const std::string& dir) {
  const std::string ipath = dir + "/index.json";
  const std::string text = read_file(ipath, TextLimits{64u << 20, "a certificate index"});
  nlohmann::json idx;
  try {
    idx = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("not JSON: ") + e.what(), ipath);
  }
  if (!idx.is_object() || !idx.contains("format") || idx["format"] != kFormat)
    throw InputError(std::string("not a certificate index (\"format\": \"") + kFormat + "\" expected)", ipath);
  if (!idx.contains("run") || !idx["run"].is_object()) throw InputError("\"run\" missing", ipath);
  if (!idx.contains("miters") || !idx["miters"].is_array()) throw InputError("\"miters\" missing", ipath);
  return idx;
}

// The entries of one directory's index, files read and hashed (shown: the names in messages and
// the report: the plain file name for one directory, DIR/name for several).
void read_entries(const std::string& dir, const nlohmann::json& idx, bool several, std::vector<Entry>& entries) {
  const std::string ipath = dir + "/index.json";
  for (std::size_t k = 0; k < idx["miters"].size(); ++k) {
    const nlohmann::json& m = idx["miters"][k];
    const std::string where = ipath + ", miters[" + std::to_string(k) + "]";
    Entry e;
    e.what = str_at(m, "what", where);
    e.answer = str_at(m, "answer", where);
    if (e.answer != "UNSAT" && e.answer != "SAT") throw InputError("answer is neither UNSAT nor SAT", where);
    const char* aux = e.answer == "UNSAT" ? "proof" : "model";
    if (!m.contains("cnf") || !m.contains(aux)) throw InputError(std::string("\"cnf\" or \"") + aux + "\" missing", where);
    e.cnf_file = plain_name(m["cnf"].value("file", nlohmann::json()), where);
    e.cnf_sha = str_at(m["cnf"], "sha256", where);
    e.cnf_bytes = size_at(m["cnf"], "bytes", where);
    e.aux_file = plain_name(m[aux].value("file", nlohmann::json()), where);
    e.aux_sha = str_at(m[aux], "sha256", where);
    e.aux_bytes = size_at(m[aux], "bytes", where);
    const TextLimits lim{std::uint64_t{1} << 32, "a certificate file", false};
    const std::string cnf_text = read_file(dir + "/" + e.cnf_file, lim);
    e.aux = read_file(dir + "/" + e.aux_file, lim);
    e.hash_ok = cnf_text.size() == e.cnf_bytes && sha256_hex(cnf_text) == e.cnf_sha && e.aux.size() == e.aux_bytes &&
                sha256_hex(e.aux) == e.aux_sha;
    if (!e.hash_ok) e.status = "rejected: the files do not match the sizes and SHA-256 of the index";
    if (several) e.cnf_file = dir + "/" + e.cnf_file, e.aux_file = dir + "/" + e.aux_file;
    entries.push_back(std::move(e));
  }
}

}  // namespace

CheckProofResult check_proof_dir(const std::string& dir, unsigned threads) { return check_proof_dirs({dir}, threads); }

CheckProofResult check_proof_dirs(const std::vector<std::string>& dirs, unsigned threads) {
  const auto t0 = std::chrono::steady_clock::now();
  if (dirs.empty()) throw InputError("give the certificate directory (or every shard's)", "check-proof");
  std::vector<std::pair<std::string, nlohmann::json>> idxs;
  for (const std::string& d : dirs) idxs.emplace_back(d + "/index.json", read_index(d));
  // Shards (`verify --shard I/K --proof DIR_I`): K directories of one run, each shard once.
  if (dirs.size() > 1 || idxs.front().second.contains("shard")) check_shard_indexes(idxs);
  const std::string ipath = idxs.front().first;
  const nlohmann::json& idx = idxs.front().second;
  const nlohmann::json& run = idx["run"];
  const std::string construction = str_at(run, "construction", ipath);
  std::map<std::string, std::string> given;
  if (!run.contains("params") || !run["params"].is_object()) throw InputError("\"run.params\" missing", ipath);
  for (const auto& [k, v] : run["params"].items()) {
    if (!v.is_string()) throw InputError("run.params." + k + " is not a string", ipath);
    given[k] = v.get<std::string>();
  }
  SatOptions o;
  if (!run.contains("options") || !run["options"].is_object()) throw InputError("\"run.options\" missing", ipath);
  const nlohmann::json& ro = run["options"];
  o.split = str_at(ro, "split", ipath);
  o.strategy = str_at(ro, "strategy", ipath);
  o.zero_one = str_at(ro, "zero_one", ipath);
  o.order = str_at(ro, "order", ipath);
  // Directories written before --sat-blocks proved dyadic blocks query by query.
  o.blocks = ro.contains("blocks") ? str_at(ro, "blocks", ipath) : "queries";
  if (o.blocks != "calls" && o.blocks != "queries") throw InputError("run.options.blocks is not calls or queries", ipath);
  if (!ro.contains("lemmas") || !ro["lemmas"].is_boolean() || !ro.contains("cubes") || !ro["cubes"].is_boolean())
    throw InputError("run.options.lemmas / cubes missing or not true/false", ipath);
  o.lemmas = ro["lemmas"].get<bool>();
  o.cubes = ro["cubes"].get<bool>();
  o.timeout_s = 1e7;  // answers come from the directory; checking takes what it takes
  o.threads = threads;
  std::vector<Entry> entries;
  auto plan = std::make_shared<CubePlan>();
  for (std::size_t d = 0; d < dirs.size(); ++d) {
    read_entries(dirs[d], idxs[d].second, dirs.size() > 1, entries);
    read_index_splits(idxs[d].second, idxs[d].first, *plan);
  }
  // Cube-and-conquer runs: the same splits again, no timer (sat_schedule.h CubePlan).
  if (!plan->splits.empty()) o.cube_plan = plan, o.log = std::make_shared<SatScheduleLog>();
  Replayer rep(entries);
  SatOutcome out;
  {
    HookScope scope(&rep);
    out = run_verify_sat(find_construction(construction), given, o);
  }
  CheckProofResult res;
  nlohmann::json ms = nlohmann::json::array();
  bool all = true;
  for (Entry& e : entries) {
    std::string st = e.status;
    if (!e.used && e.hash_ok)
      st = "rejected: the re-encoded run never asked for this CNF under this name (not this miter's CNF, not a miter of this run, or the run stopped before it)";
    if (st.empty()) st = "rejected: not checked";
    all = all && st == "certified";
    ms.push_back({{"what", e.what}, {"answer", e.answer}, {"cnf", e.cnf_file}, {e.answer == "UNSAT" ? "proof" : "model", e.aux_file}, {"verdict", st}});
  }
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
