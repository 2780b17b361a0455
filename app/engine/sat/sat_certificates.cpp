// --proof DIR, --certify and check-proof (sat_certificates.h).
#include "app/engine/sat/sat_certificates.h"

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

// A process of its own that removes DIR.tmp-<pid> when this process ends without doing so (issue
// 46 row 9: under mpirun, once a rank ended on SIGTERM the others were sent SIGKILL within
// milliseconds, before or during the signal handler, and DIR.tmp-<pid> was left with partial
// files). It waits, in a session of its own (a signal to our process group does not reach it), for
// the end of a pipe whose write end only this process holds (O_CLOEXEC: solvers do not inherit
// it): end of file when this process is gone, or when the TempDir closes it. Then it removes the
// directory if it is still there: after a commit it is not (renamed), after the handler or the
// destructor neither. Between fork and _exit only async-signal-safe calls (this process has threads).
class Janitor {
 public:
  explicit Janitor(const std::string& dir) {
    if (dir.size() >= sizeof path_) return;
    std::memcpy(path_, dir.c_str(), dir.size() + 1);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;  // best effort: the signal handler still removes it
    const pid_t pid = ::_Fork();  // no atfork handlers (MPI's, Python's): the child runs none of the parent's code
    if (pid < 0) {
      ::close(fds[0]), ::close(fds[1]);
      return;
    }
    if (pid == 0) run(fds[0]);
    ::close(fds[0]);
    fd_ = fds[1], pid_ = pid;
  }
  ~Janitor() {
    if (fd_ < 0) return;
    ::close(fd_);  // end of file: it removes what is left (nothing after a commit) and ends
    int st = 0;
    while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
  }
  Janitor(const Janitor&) = delete;
  Janitor& operator=(const Janitor&) = delete;

 private:
  [[noreturn]] void run(int rfd) {
    ::setsid();
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {  // not the parent's handler (its tables are the parent's)
      struct sigaction sa {};
      sa.sa_handler = SIG_IGN;
      ::sigaction(sig, &sa, nullptr);
    }
    sigset_t none;
    sigemptyset(&none);
    ::pthread_sigmask(SIG_SETMASK, &none, nullptr);
    // Only the pipe stays open: a rank's stdout and stderr held here would keep mpirun waiting.
    if (rfd != 3) ::dup2(rfd, 3), ::close(rfd);
    ::close_range(4, ~0u, 0);
    const int null = ::open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; ++fd) ::dup2(null, fd);
    if (null > 2) ::close(null);
    char c;
    while (::read(3, &c, 1) < 0 && errno == EINTR) {
    }
    // The files (one level, as the writer makes them), then the directory; raw getdents64, no malloc.
    for (int pass = 0; pass < 64; ++pass) {
      const int dfd = ::open(path_, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (dfd < 0) ::_exit(0);  // gone (renamed into place, or removed)
      bool removed = false;
      for (;;) {
        const long n = ::syscall(SYS_getdents64, dfd, dirents_, sizeof dirents_);
        if (n <= 0) break;
        for (long at = 0; at < n;) {
          const auto* d = reinterpret_cast<const Dirent64*>(dirents_ + at);
          at += d->reclen;
          if (d->name[0] == '.' && (d->name[1] == 0 || (d->name[1] == '.' && d->name[2] == 0))) continue;
          if (::unlinkat(dfd, d->name, 0) == 0) removed = true;
        }
      }
      ::close(dfd);
      if (::rmdir(path_) == 0 || !removed) break;
    }
    ::_exit(0);
  }
  struct Dirent64 {
    std::uint64_t ino;
    std::int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
  };
  char path_[PATH_MAX] = {};
  alignas(8) static inline char dirents_[32768];
  int fd_ = -1;
  pid_t pid_ = -1;
};

// The temporary directory of one run, removed unless committed (and by the signal handler, and by
// its janitor when this process is killed).
class TempDir {
 public:
  explicit TempDir(const std::string& target) : path_(target + ".tmp-" + std::to_string(::getpid())) {
    // Installed here, not only when a solver starts: under mpirun rank 0 may write DIR while the
    // other ranks solve (issue 46 row 9).
    install_cleanup_handlers();
    {
      CleanupSignalsBlocked blocked;
      if (::mkdir(path_.c_str(), 0755) != 0)
        throw InputError(std::string("cannot create the certificate directory: ") + std::strerror(errno), path_);
      // One slot for the directory and whatever is in it (a slot per file ran out at ~500 entries).
      slot_ = register_cleanup_dir_with_files(path_);
    }
    janitor_ = std::make_unique<Janitor>(path_);
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
    unregister_cleanup_path(slot_);
    janitor_.reset();
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
  std::unique_ptr<Janitor> janitor_;
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

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "is a directory";
  if (S_ISCHR(m)) return "is a character device";
  if (S_ISBLK(m)) return "is a block device";
  if (S_ISFIFO(m)) return "is a FIFO (named pipe)";
  if (S_ISSOCK(m)) return "is a socket";
  if (S_ISLNK(m)) return "is a symbolic link";
  return "is not a plain file";
}

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
    if (!S_ISREG(st.st_mode)) throw InputError(std::string(kind_of(st.st_mode)) + ", not a regular file (" + what + ")", path);
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

class Replayer : public sat::SolveHook {
 public:
  // watch: the run's (Python's Ctrl-C cancels it); the hook is called on the solving threads,
  // which have none of their own.
  Replayer(std::vector<Entry>& e, WorkWatch* watch) : entries_(e), watch_(watch) {}
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
};

}  // namespace

namespace {

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

CheckProofResult check_proof_dir(const std::string& dir, unsigned threads) { return check_proof_dirs({dir}, threads); }

CheckProofResult check_proof_dirs(const std::vector<std::string>& dirs, unsigned threads) {
  const auto t0 = std::chrono::steady_clock::now();
  if (dirs.empty()) throw InputError("give the certificate directory (or every shard's)", "check-proof");
  std::vector<std::pair<std::string, nlohmann::json>> idxs;
  for (const std::string& d : dirs) idxs.emplace_back(d + "/index.json", read_index(d));
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
  Replayer rep(entries, current_watch());
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
