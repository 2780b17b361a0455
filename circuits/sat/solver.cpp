#include "circuits/sat/solver.h"
#include "circuits/sat/cadical_lib.h"
#include "circuits/sat/incremental.h"
#include "circuits/sat/solve_hook.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "util/error.h"
#include "util/signal_cleanup.h"

namespace cz::circuits::sat {

const char* to_string(Answer a) {
  return a == Answer::Sat ? "sat" : a == Answer::Unsat ? "unsat" : "unknown";
}

namespace {
std::atomic<std::size_t> processes_started{0};
}

std::size_t solver_processes_started() { return processes_started.load(); }

namespace {
std::optional<SolverSpec> find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  std::stringstream ss(p);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    const std::string f = dir + "/" + name;
    struct stat st {};
    // access(X_OK) alone is true for a directory: a directory named cadical earlier on PATH was
    // "found" and then failed to run (issue 36 item 16).
    if (::stat(f.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(f.c_str(), X_OK) == 0) return SolverSpec{name, f};
  }
  return std::nullopt;
}
}  // namespace

std::optional<SolverSpec> find_solver(const std::string& name) {
  if (name != "cadical" && name != "picosat" && name != "minisat") return std::nullopt;
  std::optional<SolverSpec> s = find_on_path(name);
  // CaDiCaL in this process (issue 48) by cadical_lib.h's rule: never instead of another
  // `cadical` put first on PATH (a wrapper, the fake solvers of the tests) unless CZ_SAT_INPROCESS=1.
  if (name == "cadical" && cadical_in_process(s ? s->binary : std::string())) {
    if (!s) s = SolverSpec{name, "libcadical"};
    s->in_process = true;
  }
  return s;
}

std::size_t solver_output_cap(int num_vars) {
  // "v -123456789" is at most 12 bytes a literal; 16 leaves room for prefixes and line ends, and
  // 1 MiB for comment lines.
  return (std::size_t{1} << 20) + 16 * (static_cast<std::size_t>(std::max(num_vars, 0)) + 1);
}

namespace {

using Clock = std::chrono::steady_clock;

std::string tmp_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir && *dir ? dir : "/tmp";
}

// A temporary file (the CNF handed to a solver, MiniSat's result file) that removes itself, and
// that the signal cleanup removes when a signal ends the run (issue 36 item 4).
struct TempFile {
  std::string path;
  int slot = -1;
  explicit TempFile(const char* tag) {
    std::string tmpl = tmp_dir() + "/cz-sat-" + tag + "-XXXXXX";
    install_cleanup_handlers();
    CleanupSignalsBlocked block;  // created and registered together
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0) throw InputError(std::string("cannot create a temporary file: ") + std::strerror(errno), tmp_dir() + " (TMPDIR)");
    ::close(fd);
    path = tmpl;
    slot = register_cleanup_path(path);
  }
  ~TempFile() {
    ::unlink(path.c_str());
    unregister_cleanup_path(slot);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

// The CNF into its temporary file; a write error (a full TMPDIR) is an environment error naming
// the directory, never a truncated CNF handed to the solver.
void write_cnf(const Cnf& cnf, const std::string& path) {
  errno = 0;
  std::ofstream f(path);
  cnf.write_dimacs(f);
  f.close();  // the last buffer is written here: its error too must be seen
  if (!f) {
    const int e = errno;
    throw InputError(std::string("cannot write the CNF for the solver: ") + (e ? std::strerror(e) : "write failed"),
                     tmp_dir() + " (TMPDIR)");
  }
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

struct ChildRun {
  std::optional<int> rc;  // exit status; nullopt: killed by us (time limit or cancelled)
  bool cancelled = false;
  std::string out;        // its stdout
};

// Runs argv in its own process group with stdout into a pipe (read here, at most out_cap bytes)
// and, with a proof sink, fd 3 a second pipe whose bytes go to the sink. The group is killed at
// the deadline, on cancel, when the output passes the cap or the sink throws, and after the child
// exits (a wrapper's leftover children would hold the pipes open).
ChildRun run_child(const SolverSpec& s, const std::vector<std::string>& argv, double timeout_s, std::size_t out_cap,
                   const ProofSink* proof, const std::atomic<bool>* cancel, double& seconds) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int outp[2] = {-1, -1}, prfp[2] = {-1, -1};
  if (::pipe2(outp, O_CLOEXEC) != 0 || (proof && ::pipe2(prfp, O_CLOEXEC) != 0)) {
    close_fd(outp[0]), close_fd(outp[1]);
    throw InputError(std::string("cannot start the solver (pipe): ") + std::strerror(errno), s.binary);
  }
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  // fork + exec rather than posix_spawn: the child asks to be killed when we die (PR_SET_PDEATHSIG),
  // so a killed verify leaves no solver running. Only async-signal-safe calls after fork.
  const pid_t parent = ::getpid();
  pid_t pid = -1;
  int slot = -1;
  install_cleanup_handlers();
  {
    CleanupSignalsBlocked block;  // forked and registered together
    pid = ::fork();
    if (pid > 0) processes_started.fetch_add(1, std::memory_order_relaxed);
    if (pid == 0) {
      ::setpgid(0, 0);  // its own group: killing -pid ends a wrapper's children too
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      ::pthread_sigmask(SIG_SETMASK, &block.previous(), nullptr);  // exec keeps the mask
      const int null_in = ::open("/dev/null", O_RDONLY), null_out = ::open("/dev/null", O_WRONLY);
      if (null_in < 0 || null_out < 0 || ::dup2(null_in, 0) < 0 || ::dup2(outp[1], 1) < 0 || ::dup2(null_out, 2) < 0) ::_exit(127);
      if (prfp[1] >= 0 && ::dup2(prfp[1], 3) < 0) ::_exit(127);  // dup2 clears O_CLOEXEC on 3
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    if (pid > 0) {
      ::setpgid(pid, 0);  // also here: no window in which a kill of the group misses the child
      slot = register_cleanup_child(pid, /*group=*/true);  // -1 (all slots taken): PDEATHSIG still ends it
    }
  }
  close_fd(outp[1]), close_fd(prfp[1]);
  if (pid < 0) {
    close_fd(outp[0]), close_fd(prfp[0]);
    throw InputError("cannot start the solver (fork)", s.binary);
  }
  // The child's exit as a file descriptor the poll below waits on (Linux >= 5.3): a solver's end is
  // seen at once, not after a nap (a nap of up to 20 ms per miter was 15% of a one-thread run of
  // 696 stage miters, issue 38). -1 where the kernel has none: the naps then poll waitid.
#ifdef SYS_pidfd_open
  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  int pidfd = -1;
#endif
  // Ends the group and reaps the child (whose unreaped pid keeps the group id ours until then).
  bool reaped = false;
  int status = 0;
  auto end_child = [&] {
    if (reaped) return;
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    reaped = true;
    unregister_cleanup_child(slot);
    close_fd(outp[0]), close_fd(prfp[0]), close_fd(pidfd);
  };
  ChildRun res;
  try {
    bool exited = false;
    char buf[1 << 16];
    while (outp[0] >= 0 || prfp[0] >= 0 || !exited) {
      if (cancel && cancel->load()) res.cancelled = true;
      if (res.cancelled || elapsed() > timeout_s) {
        end_child();
        seconds = elapsed();
        return res;
      }
      if (!exited) {
        siginfo_t si{};
        if (::waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) {
          exited = true;
          ::kill(-pid, SIGKILL);  // leftovers of a wrapper; the child itself is a zombie (its pid still ours)
        }
      }
      pollfd fds[3];
      int n = 0;
      for (int fd : {outp[0], prfp[0]})
        if (fd >= 0) fds[n++] = pollfd{fd, POLLIN, 0};
      const int pipes = n;
      if (!exited && pidfd >= 0) fds[n++] = pollfd{pidfd, POLLIN, 0};  // readable once it has exited
      // Sub-second naps: a limit of 0.3 s ends at 0.3 s (issue 36 item 19).
      const double left_ms = (timeout_s - elapsed()) * 1000;
      const int nap = static_cast<int>(std::clamp(left_ms, 1.0, exited ? 5.0 : 20.0));
      if (n == 0) {  // pipes closed: exited ends the loop, else wait for the exit
        if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(nap));
        continue;
      }
      if (::poll(fds, static_cast<nfds_t>(n), nap) < 0 && errno != EINTR) throw InputError("poll failed on the solver's output", s.binary);
      for (int k = 0; k < pipes; ++k) {
        if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t r = ::read(fds[k].fd, buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        const bool is_out = fds[k].fd == outp[0];
        if (r <= 0) {
          close_fd(is_out ? outp[0] : prfp[0]);
          continue;
        }
        if (!is_out) {
          (*proof)(buf, static_cast<std::size_t>(r));
        } else {
          if (res.out.size() + static_cast<std::size_t>(r) > out_cap)
            throw InputError(s.name + " printed more than " + std::to_string(out_cap) +
                                 " bytes, more than any answer on this CNF can take (a broken solver)",
                             s.binary);
          res.out.append(buf, static_cast<std::size_t>(r));
        }
      }
    }
  } catch (...) {
    end_child();
    throw;
  }
  end_child();
  seconds = elapsed();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) throw InputError("cannot run " + s.name, s.binary);
  if (!WIFEXITED(status))
    throw InputError(s.name + " died (signal " + std::to_string(WTERMSIG(status)) + "): a broken solver", s.binary);
  res.rc = WEXITSTATUS(status);
  return res;
}

// A token of a `v` line (or MiniSat's result file) as a literal of the CNF: a decimal integer
// within [-num_vars, num_vars]. Anything else is a broken solver (issue 36 item 3: a literal of
// LLONG_MIN went through llabs into a crash).
long long literal_of(const std::string& tok, int num_vars, const SolverSpec& s) {
  long long l = 0;
  const char* b = tok.data();
  const char* e = b + tok.size();
  const auto [p, ec] = std::from_chars(b, e, l);
  if (ec != std::errc() || p != e || l < -static_cast<long long>(num_vars) || l > num_vars)
    throw InputError(s.name + " printed the literal '" + tok.substr(0, 24) + (tok.size() > 24 ? "..." : "") +
                         "', not one of the CNF's " + std::to_string(num_vars) + " variables (a broken solver)",
                     s.binary);
  return l;
}

// "s SATISFIABLE" / "v ..." lines (CaDiCaL, PicoSAT) or MiniSat's result file ("SAT" then lits).
void read_answer(const std::string& text, int num_vars, bool minisat_file, const SolverSpec& s, SolveResult& r) {
  std::istringstream in(text);
  std::string line;
  r.model.assign(static_cast<std::size_t>(num_vars) + 1, 0);
  bool sat = false, unsat = false;
  while (std::getline(in, line)) {
    if (minisat_file) {
      if (line == "SAT") { sat = true; continue; }
      if (line == "UNSAT") { unsat = true; continue; }
      if (line == "INDET") continue;
    } else {
      if (line.rfind("s SATISFIABLE", 0) == 0) { sat = true; continue; }
      if (line.rfind("s UNSATISFIABLE", 0) == 0) { unsat = true; continue; }
      if (line.rfind("v", 0) != 0) continue;
      line = line.substr(1);
    }
    std::istringstream ls(line);
    std::string tok;
    while (ls >> tok) {
      const long long l = literal_of(tok, num_vars, s);
      if (l != 0) r.model[static_cast<std::size_t>(l > 0 ? l : -l)] = l > 0 ? 1 : 0;
    }
  }
  r.answer = sat ? Answer::Sat : unsat ? Answer::Unsat : Answer::Unknown;
  if (r.answer != Answer::Sat) r.model.clear();
}

// solve() and solve_by_goals(): by_goals only with CaDiCaL in this process (solve_by_goals checks).
SolveResult solve_with(const SolverSpec& s, const Cnf& cnf, double timeout_s, const ProofSink* proof,
                       const std::atomic<bool>* cancel, bool by_goals) {
  SolveResult r;
  if (!(timeout_s > 0)) {
    r.why = "time limit";
    return r;
  }
  // The certificate hook (solve_hook.h): a replayed answer, or CaDiCaL's DRAT captured.
  SolveHook* const hook = solve_hook();
  if (hook)
    if (std::optional<SolveResult> rr = hook->replay(s, cnf, MiterLabel::current())) return *rr;
  std::string drat;
  ProofSink tee;
  if (hook && s.name == "cadical" && hook->wants_proof(s)) {
    tee = [&drat, proof](const char* d, std::size_t n) {
      drat.append(d, n);
      if (proof) (*proof)(d, n);
    };
    proof = &tee;
  }
  if (s.in_process) {  // the linked library (cadical_lib.h): no process, no temporary file
    r = solve_cadical_in_process(cnf, timeout_s, proof, cancel, s.binary, by_goals);
    if (hook && r.answer != Answer::Unknown) hook->solved(s, cnf, r, std::move(drat), MiterLabel::current());
    return r;
  }
  TempFile in("cnf");
  write_cnf(cnf, in.path);
  std::vector<std::string> argv{s.binary};
  std::optional<TempFile> result;
  const bool with_proof = proof && s.name == "cadical";
  if (s.name == "cadical") {
    argv.push_back("-q");
    argv.push_back(in.path);
    if (with_proof) argv.push_back("/dev/fd/3");  // the proof pipe (run_child)
  } else if (s.name == "picosat") {
    argv.push_back(in.path);
  } else {  // minisat writes its answer to a result file
    result.emplace("res");
    argv.push_back("-verb=0");
    argv.push_back(in.path);
    argv.push_back(result->path);
  }
  const std::size_t cap = solver_output_cap(cnf.num_vars);
  ChildRun run = run_child(s, argv, timeout_s, cap, with_proof ? proof : nullptr, cancel, r.seconds);
  if (!run.rc) {
    r.why = run.cancelled ? "cancelled" : "time limit (" + std::to_string(timeout_s) + " s)";
    return r;
  }
  const int rc = *run.rc;
  if (result) {
    struct stat st {};
    if (::stat(result->path.c_str(), &st) == 0 && static_cast<std::size_t>(st.st_size) > cap)
      throw InputError(s.name + " wrote more than " + std::to_string(cap) + " bytes of answer (a broken solver)", s.binary);
    std::ifstream f(result->path);
    std::stringstream text;
    text << f.rdbuf();
    run.out = text.str();
  }
  read_answer(run.out, cnf.num_vars, result.has_value(), s, r);
  // Exit codes 10 / 20 are the SAT-competition convention all three follow.
  if ((rc == 10) != (r.answer == Answer::Sat) || (rc == 20) != (r.answer == Answer::Unsat))
    throw InputError(s.name + " exited " + std::to_string(rc) + " but printed " +
                         (r.answer == Answer::Unknown ? std::string("no answer") : std::string(to_string(r.answer))) +
                         " (a broken solver)",
                     s.binary);
  if (r.answer == Answer::Unknown) r.why = s.name + " gave no answer (exit " + std::to_string(rc) + ")";
  if (hook && r.answer != Answer::Unknown) hook->solved(s, cnf, r, std::move(drat), MiterLabel::current());
  return r;
}

}  // namespace

SolveResult solve(const SolverSpec& s, const Cnf& cnf, double timeout_s, const ProofSink* proof,
                  const std::atomic<bool>* cancel) {
  return solve_with(s, cnf, timeout_s, proof, cancel, false);
}

std::string confirm_unsat(const SolverSpec& second, const Cnf& cnf, double timeout_s, const std::string& what,
                          const std::atomic<bool>* cancel) {
  const SolveResult r2 = solve(second, cnf, timeout_s, nullptr, cancel);  // the time left, fractions too (issue 36 item 19)
  if (r2.answer == Answer::Sat) throw std::logic_error("cadical says UNSAT and " + second.name + " SAT on " + what + " (solvers disagree)");
  if (r2.answer == Answer::Unknown) return second.name + " (--confirm): " + r2.why + " on " + what;
  return "";
}

std::vector<SolveResult> solve_batch(const SolverSpec& s, const std::vector<const Cnf*>& cnfs, const BatchOptions& o) {
  if (o.runner) {
    BatchOptions here = o;
    here.runner = nullptr;
    return o.runner(s, cnfs, here);
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto left = [&] { return o.timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::vector<SolveResult> res(cnfs.size());
  for (SolveResult& r : res) r.why = "not run";
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::exception_ptr err;
  auto work = [&] {
    try {
      for (std::size_t q; !stop && (q = next.fetch_add(1)) < cnfs.size();) {
        if (o.started) o.started(q);
        SolveResult r;
        MiterLabel label(o.what ? o.what(q) : std::string());
        if (left() <= 0) r.why = "time limit";
        else r = solve(s, *cnfs[q], left(), nullptr, o.cancel);
        if (r.answer == Answer::Unsat && o.second) {
          const std::string why = confirm_unsat(*o.second, *cnfs[q], left(), o.what ? o.what(q) : "miter " + std::to_string(q), o.cancel);
          if (!why.empty()) r = SolveResult{Answer::Unknown, {}, r.seconds, why};
        }
        if (o.stop_at_first && r.answer != Answer::Unsat) stop = true;
        res[q] = std::move(r);
        if (o.finished) o.finished(q);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu);
      if (!err) err = std::current_exception();
      stop = true;
    }
  };
  std::vector<std::thread> pool;
  const unsigned T = std::max(1u, std::min<unsigned>(o.threads, static_cast<unsigned>(std::max<std::size_t>(cnfs.size(), 1))));
  for (unsigned k = 1; k < T; ++k) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  if (err) std::rethrow_exception(err);
  return res;
}

SolveResult solve_by_goals(const SolverSpec& s, const Cnf& cnf, double timeout_s, const std::atomic<bool>* cancel) {
  // A process: the miter whole.
  return solve_with(s, cnf, timeout_s, nullptr, cancel, s.in_process && s.name == "cadical");
}

}  // namespace cz::circuits::sat
