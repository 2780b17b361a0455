// check-proof DIR (sat_certificates.h): the run done again with every solver call answered from
// the directory, each CNF re-derived and hashed, each DRAT proof checked.
// --proof DIR, --certify and check-proof (sat_certificates.h).
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

// What check-proof reads (issue 46 rows 8, 10-12; contract.md "check-proof"): the index at most
// 64 MiB of JSON read with the limits of every reader of the tool's own files (nesting, strings,
// values, a key twice), every field typed and named in messages; each certificate file a regular
// file of the directory itself, at most 4 GiB, one entry's only, its size compared with the
// index's before it is read; the proofs and models kept for the check within the memory budget.
constexpr std::uint64_t kIndexMaxBytes = std::uint64_t{64} << 20;
constexpr std::uint64_t kCertFileMaxBytes = std::uint64_t{1} << 32;
constexpr std::size_t kIndexMaxString = std::size_t{1} << 16;

struct Entry {
  std::string what, answer, cnf_file, cnf_sha, aux_file, aux_sha;
  std::uint64_t cnf_bytes = 0, aux_bytes = 0;
  std::string field;   // "miters[k]" of its index
  std::string status;  // "" until the re-run asks for it; "certified" or why not
  bool hash_ok = false;
  std::shared_ptr<const std::string> aux = std::make_shared<const std::string>();  // the proof or the model (shared: one file, one copy)
  bool used = false;
  std::shared_ptr<std::mutex> mu = std::make_shared<std::mutex>();  // one check per entry; entries checked in parallel
};

// A file of a certificate directory open for reading, refused (InputError naming it) unless it is
// a regular file of the directory itself: lstat first (a symbolic link is never followed, issue 46
// row 12: a certificate is a file of DIR, never one elsewhere), then opened O_NOFOLLOW |
// O_NONBLOCK (a FIFO swapped in meanwhile is not waited for: row 8) and checked again with fstat.
class CertFile {
 public:
  CertFile(const std::string& path, const std::string& what) : path_(path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) throw InputError("cannot read " + what + ": " + std::strerror(errno), path);
    refuse(st, what);
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw InputError("cannot read " + what + ": " + std::strerror(errno), path);
    if (::fstat(fd_, &st_) != 0) throw InputError("cannot read " + what + ": " + std::strerror(errno), path);
    refuse(st_, what);
  }
  ~CertFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  CertFile(const CertFile&) = delete;
  CertFile& operator=(const CertFile&) = delete;
  std::uint64_t size() const { return static_cast<std::uint64_t>(st_.st_size); }
  std::pair<std::uint64_t, std::uint64_t> id() const { return {static_cast<std::uint64_t>(st_.st_dev), static_cast<std::uint64_t>(st_.st_ino)}; }
  // Every byte, in chunks, to `chunk`; no more than size() (a file that grows is an error).
  template <class F>
  void read_all(F&& chunk) {
    static thread_local char buf[1 << 16];
    std::uint64_t done = 0;
    for (;;) {
      check_cancelled();  // Python's Ctrl-C: a 4 GiB file is read in seconds, not minutes
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw InputError(std::string("cannot read file: ") + std::strerror(errno), path_);
      if (n == 0) return;
      done += static_cast<std::uint64_t>(n);
      if (done > size()) throw InputError("the file grew while it was read", path_);
      chunk(buf, static_cast<std::size_t>(n));
    }
  }

 private:
  static void refuse_kind(const struct stat& st, const std::string& what, const std::string& path) {
    if (S_ISLNK(st.st_mode))
      throw InputError("is a symbolic link: check-proof reads " + what + " only as a file of the directory itself, never through a link", path);
    if (!S_ISREG(st.st_mode)) throw InputError(std::string(file_kind_text(st.st_mode)) + ", not a regular file (" + what + ")", path);
  }
  void refuse(const struct stat& st, const std::string& what) const { refuse_kind(st, what, path_); }
  std::string path_;
  int fd_ = -1;
  struct stat st_ {};
};

std::string plain_name(const nlohmann::json& holder, const std::string& field, const std::string& where) {
  const std::string s = bounded_string(holder, "file", field, where, kIndexMaxString);
  if (s.empty() || s.size() > 200 || s == "." || s == ".." ||
      !std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }))
    throw InputError(field + ": file name '" + s.substr(0, 60) + "' is not a plain name in the directory", where);
  return s;
}

// holder[key], which must be a JSON object (named `field` in messages).
const nlohmann::json& object_at(const nlohmann::json& holder, const char* key, const std::string& field, const std::string& where) {
  if (!holder.is_object() || !holder.contains(key)) throw InputError("missing field " + field, where);
  const nlohmann::json& v = holder[key];
  if (!v.is_object()) throw InputError(field + " must be an object, got " + json_brief(v), where);
  return v;
}

bool bool_at(const nlohmann::json& holder, const char* key, const std::string& field, const std::string& where) {
  if (!holder.is_object() || !holder.contains(key)) throw InputError("missing field " + field, where);
  const nlohmann::json& v = holder[key];
  if (!v.is_boolean()) throw InputError(field + " must be true or false, got " + json_brief(v), where);
  return v.get<bool>();
}

// holder[key]: a string, one of `allowed`.
std::string choice_at(const nlohmann::json& holder, const char* key, const std::string& field, const std::string& where,
                      const std::vector<std::string>& allowed) {
  const std::string s = bounded_string(holder, key, field, where);
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
    std::string want;
    for (const std::string& a : allowed) want += (want.empty() ? "" : ", ") + a;
    throw InputError(field + " must be one of " + want + ", got " + json_brief(holder[key]), where);
  }
  return s;
}

std::string sha_at(const nlohmann::json& holder, const std::string& field, const std::string& where) {
  const std::string s = bounded_string(holder, "sha256", field, where, kIndexMaxString);
  if (s.size() != 64 || s.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw InputError(field + " must be 64 lowercase hex digits, got " + json_brief(holder["sha256"]), where);
  return s;
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

// The index's "sweeps" (issue 48: each SAT sweep of the run, in call order, with the pairs its final
// round reduced by; absent in directories written before), every field typed. The pairs' fit to the
// circuits is checked where they are used (sweep_round.h cand_of).
std::optional<std::vector<sat::SweepRecord>> read_sweeps(const nlohmann::json& idx, const std::string& ipath) {
  std::vector<sat::SweepRecord> out;
  if (!idx.contains("sweeps")) return std::nullopt;
  const nlohmann::json& a = idx["sweeps"];
  if (!a.is_array() || a.size() > 4096) throw InputError("sweeps must be an array of at most 4096 sweeps, got " + json_brief(a), ipath);
  for (std::size_t k = 0; k < a.size(); ++k) {
    const std::string f = "sweeps[" + std::to_string(k) + "]";
    const nlohmann::json& w = a[k];
    if (!w.is_object()) throw InputError(f + " must be an object, got " + json_brief(w), ipath);
    sat::SweepRecord r;
    r.equal = bool_at(w, "equal", f + ".equal", ipath);
    r.vars = exact_uint(w, "vars", f + ".vars", ipath);
    r.first_b = exact_uint(w, "first_b", f + ".first_b", ipath);
    if (r.vars > (std::uint64_t{1} << 31) || r.first_b > r.vars) throw InputError(f + ": vars and first_b out of range", ipath);
    if (!r.equal) {
      out.push_back(std::move(r));
      continue;
    }
    if (!w.contains("names") || !w["names"].is_array()) throw InputError(f + ".names must be an array", ipath);
    for (std::size_t q = 0; q < w["names"].size(); ++q) {
      const nlohmann::json& n = w["names"][q];
      if (!n.is_string() || n.get_ref<const std::string&>().size() > kIndexMaxString)
        throw InputError(f + ".names[" + std::to_string(q) + "] must be a string, got " + json_brief(n), ipath);
      r.names.push_back(n.get<std::string>());
    }
    if (!w.contains("pairs") || !w["pairs"].is_array()) throw InputError(f + ".pairs must be an array", ipath);
    for (std::size_t q = 0; q < w["pairs"].size(); ++q) {
      const nlohmann::json& p = w["pairs"][q];
      if (!p.is_array() || p.size() != 2 || !p[0].is_number_unsigned() || !p[1].is_number_unsigned() || p[0].get<std::uint64_t>() >= r.vars ||
          p[1].get<std::uint64_t>() >= 2 * r.vars)
        throw InputError(f + ".pairs[" + std::to_string(q) + "] must be [node, literal] within vars, got " + json_brief(p), ipath);
      r.pairs.emplace_back(static_cast<std::uint32_t>(p[0].get<std::uint64_t>()), static_cast<std::uint32_t>(p[1].get<std::uint64_t>()));
    }
    out.push_back(std::move(r));
  }
  return out;
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

namespace {

// run.equivalence of an equivalence run's index: the two files, every field typed.
std::pair<EquivFile, EquivFile> equiv_files(const nlohmann::json& run, const std::string& ipath) {
  const nlohmann::json& eq = object_at(run, "equivalence", "run.equivalence", ipath);
  auto one = [&](const char* key) {
    const std::string f = std::string("run.equivalence.") + key;
    const nlohmann::json& o = object_at(eq, key, f, ipath);
    EquivFile e;
    e.path = bounded_string(o, "path", f + ".path", ipath, kIndexMaxString);
    if (e.path.empty()) throw InputError(f + ".path is empty", ipath);
    const std::vector<std::string>& formats = circuits::circuit_formats();
    e.format = choice_at(o, "format", f + ".format", ipath, std::vector<std::string>(formats.begin(), formats.end()));
    e.bytes = exact_uint(o, "bytes", f + ".bytes", ipath);
    e.sha256 = sha_at(o, f, ipath);
    return e;
  };
  return {one("first"), one("second")};
}

// DIR/index.json: the one reader of certificate indexes (issue 46 row 10). Everything check-proof
// goes by is typed here or in read_entries / read_index_splits; a field of the wrong type, a key
// twice, deeper nesting than an index has: InputError naming the field (exit 2).
nlohmann::json read_index(const std::string& dir) {
  const std::string ipath = dir + "/index.json";
  CertFile f(ipath, "a certificate index");
  if (f.size() > kIndexMaxBytes) throw InputError("larger than 64 MiB: not a certificate index", ipath);
  std::string text;
  text.reserve(static_cast<std::size_t>(f.size()));
  f.read_all([&](const char* p, std::size_t n) { text.append(p, n); });
  JsonLimits lim;
  lim.max_depth = 16;  // an index nests 5 deep
  lim.max_string = kIndexMaxString;
  lim.max_values = kModelMaxValues;
  nlohmann::json idx;
  try {
    idx = parse_json_input(text, ipath, lim);
  } catch (const InputError& e) {
    throw InputError(std::string("not JSON, or not JSON a certificate index holds: ") + e.what(), e.where);
  }
  if (!idx.is_object() || !idx.contains("format") || idx["format"] != kFormat)
    throw InputError(std::string("not a certificate index (\"format\": \"") + kFormat + "\" expected)", ipath);
  const nlohmann::json& run = object_at(idx, "run", "run", ipath);
  if (run.contains("equivalence")) {  // `circuit A --equiv B --proof DIR` (issue 47): two files, no construction
    (void)equiv_files(run, ipath);
  } else {
    (void)bounded_string(run, "construction", "run.construction", ipath);
    const nlohmann::json& params = object_at(run, "params", "run.params", ipath);
    for (const auto& [k, v] : params.items()) (void)bounded_string(params, k.c_str(), "run.params." + k.substr(0, 60), ipath, kIndexMaxString);
    const nlohmann::json& ro = object_at(run, "options", "run.options", ipath);
    // The values verify's flags take (app/cli/main.cpp): anything else would be run as a default.
    (void)choice_at(ro, "split", "run.options.split", ipath, {"family", "cell", "whole"});
    (void)choice_at(ro, "strategy", "run.options.strategy", ipath, {"auto", "stages", "monolithic"});
    (void)choice_at(ro, "zero_one", "run.options.zero_one", ipath, {"auto", "exhaustive", "sat"});
    (void)choice_at(ro, "order", "run.options.order", ipath, {"index", "largest"});
    // Directories written before --sat-blocks proved dyadic blocks query by query.
    if (ro.contains("blocks")) (void)choice_at(ro, "blocks", "run.options.blocks", ipath, {"calls", "queries"});
    (void)bool_at(ro, "lemmas", "run.options.lemmas", ipath);
    (void)bool_at(ro, "cubes", "run.options.cubes", ipath);
  }
  (void)read_sweeps(idx, ipath);
  if (!idx.contains("miters") || !idx["miters"].is_array())
    throw InputError("miters must be an array, got " + (idx.contains("miters") ? json_brief(idx["miters"]) : std::string("nothing")), ipath);
  return idx;
}

// The entries of one directory's index, every field checked, no file opened yet (shown: the
// names in messages and the report: the plain file name for one directory, DIR/name for several).
void index_entries(const std::string& dir, const nlohmann::json& idx, bool several, std::vector<Entry>& entries) {
  const std::string ipath = dir + "/index.json";
  for (std::size_t k = 0; k < idx["miters"].size(); ++k) {
    const nlohmann::json& m = idx["miters"][k];
    const std::string f = "miters[" + std::to_string(k) + "]";
    if (!m.is_object()) throw InputError(f + " must be an object, got " + json_brief(m), ipath);
    Entry e;
    e.field = f;
    e.what = bounded_string(m, "what", f + ".what", ipath, kIndexMaxString);
    e.answer = choice_at(m, "answer", f + ".answer", ipath, {"UNSAT", "SAT"});
    const char* aux = e.answer == "UNSAT" ? "proof" : "model";
    const nlohmann::json& c = object_at(m, "cnf", f + ".cnf", ipath);
    const nlohmann::json& a = object_at(m, aux, f + "." + aux, ipath);
    e.cnf_file = plain_name(c, f + ".cnf.file", ipath);
    e.cnf_sha = sha_at(c, f + ".cnf.sha256", ipath);
    e.cnf_bytes = exact_uint(c, "bytes", f + ".cnf.bytes", ipath);
    e.aux_file = plain_name(a, f + "." + aux + ".file", ipath);
    e.aux_sha = sha_at(a, f + "." + aux + ".sha256", ipath);
    e.aux_bytes = exact_uint(a, "bytes", f + "." + aux + ".bytes", ipath);
    for (const auto& [bytes, part] : {std::pair{e.cnf_bytes, "cnf"}, std::pair{e.aux_bytes, aux}})
      if (bytes > kCertFileMaxBytes)
        throw InputError(f + "." + part + ".bytes is " + std::to_string(bytes) + ", over 4 GiB, the limit of a certificate file", ipath);
    if (several) e.cnf_file = dir + "/" + e.cnf_file, e.aux_file = dir + "/" + e.aux_file;
    entries.push_back(std::move(e));
  }
}

// The files of the entries: each opened once (a file named by two entries, or linked under two
// names, is refused: three entries naming one 1.5 GiB file read 4.5 GB), its size compared with the
// index's before it is read (a differing one is not read: the entry is rejected), the CNF hashed
// as it streams by, the proof or model kept.
void read_entry_files(const std::vector<std::string>& dirs, const std::vector<std::pair<std::size_t, std::size_t>>& spans, std::vector<Entry>& entries) {
  auto paths = [&](std::size_t d, const Entry& e) {
    const std::string base = dirs.size() > 1 ? std::string() : dirs[d] + "/";  // several: the names hold DIR/ already
    return std::pair{base + e.cnf_file, base + e.aux_file};
  };
  // First every file opened (each must be a regular file of its directory), none read; what is
  // kept (each distinct proof or model once) must fit the memory budget.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> kept_files;
  for (std::size_t d = 0; d < dirs.size(); ++d)
    for (std::size_t i = spans[d].first; i < spans[d].second; ++i) {
      const auto [cpath, apath] = paths(d, entries[i]);
      const CertFile cf(cpath, "a certificate file"), af(apath, "a certificate file");
      kept_files[af.id()] = af.size();
    }
  std::uint64_t kept = 0;
  for (const auto& [id, bytes] : kept_files) kept += bytes;
  require_memory(kept, "the proofs and models the index lists (" + std::to_string(kept_files.size()) + " files)", dirs.front() + "/index.json");
  // Then each file read once (three entries naming one 1.5 GiB file read it three times and kept
  // it three times: 4.5 GB), its size compared with the index's first: a file of another size is
  // not read (a 3 GB file the index says is 124 bytes), the entry is rejected.
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::string> cnf_hash;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<std::shared_ptr<const std::string>, std::string>> aux_read;
  for (std::size_t d = 0; d < dirs.size(); ++d)
    for (std::size_t i = spans[d].first; i < spans[d].second; ++i) {
      Entry& e = entries[i];
      const auto [cpath, apath] = paths(d, e);
      CertFile cf(cpath, "a certificate file"), af(apath, "a certificate file");
      if (cf.size() != e.cnf_bytes || af.size() != e.aux_bytes) {
        e.status = "rejected: the files do not match the sizes and SHA-256 of the index";
        continue;
      }
      auto ch = cnf_hash.find(cf.id());
      if (ch == cnf_hash.end()) {
        Sha256 h;
        cf.read_all([&](const char* p, std::size_t n) { h.update(p, n); });
        ch = cnf_hash.emplace(cf.id(), h.hex()).first;
      }
      auto ar = aux_read.find(af.id());
      if (ar == aux_read.end()) {
        auto text = std::make_shared<std::string>();
        text->reserve(static_cast<std::size_t>(af.size()));
        af.read_all([&](const char* p, std::size_t n) { text->append(p, n); });
        const std::string h = sha256_hex(*text);
        ar = aux_read.emplace(af.id(), std::pair{std::shared_ptr<const std::string>(std::move(text)), h}).first;
      }
      e.hash_ok = ar->second.first->size() == e.aux_bytes && ch->second == e.cnf_sha && ar->second.second == e.aux_sha;
      if (e.hash_ok) e.aux = ar->second.first;
      else e.status = "rejected: the files do not match the sizes and SHA-256 of the index";
    }
}

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
