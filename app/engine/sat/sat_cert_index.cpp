#include "app/engine/sat/sat_cert_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>

#include "app/engine/run/read_back.h"
#include "app/engine/sat/sat_cert_common.h"
#include "util/error.h"
#include "util/memory_budget.h"
#include "util/progress.h"
#include "util/sha256.h"
#include "circuits/io.h"
#include "model/model_json.h"

namespace cz::sat_cert {

namespace sat = circuits::sat;

namespace {

// What check-proof reads (issue 46 rows 8, 10-12; contract.md "check-proof"): the index at most
// 64 MiB of JSON read with the limits of every reader of the tool's own files (nesting, strings,
// values, a key twice), every field typed and named in messages; each certificate file a regular
// file of the directory itself, at most 4 GiB, one entry's only, its size compared with the
// index's before it is read; the proofs and models kept for the check within the memory budget.
constexpr std::uint64_t kIndexMaxBytes = std::uint64_t{64} << 20;
constexpr std::uint64_t kCertFileMaxBytes = std::uint64_t{1} << 32;
constexpr std::size_t kIndexMaxString = std::size_t{1} << 16;

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

}  // namespace


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
    // Directories written before issue 48's order facts across queries (dyadic_pbs_stages.h).
    if (ro.contains("pbs_facts")) (void)choice_at(ro, "pbs_facts", "run.options.pbs_facts", ipath, {"across", "within"});
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

}  // namespace cz::sat_cert
