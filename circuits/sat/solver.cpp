#include "circuits/sat/solver.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace cz::circuits::sat {

const char* to_string(Answer a) {
  return a == Answer::Sat ? "sat" : a == Answer::Unsat ? "unsat" : "unknown";
}

std::optional<SolverSpec> find_solver(const std::string& name) {
  if (name != "cadical" && name != "picosat" && name != "minisat") return std::nullopt;
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  std::stringstream ss(p);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    const std::string f = dir + "/" + name;
    if (::access(f.c_str(), X_OK) == 0) return SolverSpec{name, f};
  }
  return std::nullopt;
}

namespace {

// A temporary file that removes itself.
struct TempFile {
  std::string path;
  explicit TempFile(const char* tag) {
    const char* dir = std::getenv("TMPDIR");
    std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/cz-sat-" + tag + "-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    const int fd = ::mkstemp(buf.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file in " + tmpl);
    ::close(fd);
    path = buf.data();
  }
  ~TempFile() { ::unlink(path.c_str()); }
};

// Runs argv with stdout to out_path; kills the child (only it) at the deadline. Returns the exit
// status, or nullopt when it was killed for time.
std::optional<int> run_child(const std::vector<std::string>& argv, const std::string& out_path, double timeout_s,
                             double& seconds, const std::atomic<bool>* cancel, bool& cancelled) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  // fork + exec rather than posix_spawn: the child asks to be killed when we die (PR_SET_PDEATHSIG),
  // so a killed verify leaves no solver running. Only async-signal-safe calls after fork.
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("cannot start " + argv[0] + " (fork)");
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_TRUNC);
    const int null = ::open("/dev/null", O_WRONLY);
    if (out < 0 || null < 0 || ::dup2(out, 1) < 0 || ::dup2(null, 2) < 0) ::_exit(127);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  int status = 0;
  for (auto nap = std::chrono::microseconds(200);;) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0) throw std::runtime_error("waitpid failed for " + argv[0]);
    if (cancel && cancel->load()) cancelled = true;
    if (cancelled || elapsed() > timeout_s) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      seconds = elapsed();
      return std::nullopt;
    }
    std::this_thread::sleep_for(nap);
    if (nap < std::chrono::milliseconds(20)) nap *= 2;
  }
  seconds = elapsed();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) throw std::runtime_error("cannot run " + argv[0]);
  if (!WIFEXITED(status)) throw std::runtime_error(argv[0] + " died (signal " + std::to_string(WTERMSIG(status)) + ")");
  return WEXITSTATUS(status);
}

// "s SATISFIABLE" / "v ..." lines (CaDiCaL, PicoSAT) or MiniSat's result file ("SAT" then lits).
void read_answer(const std::string& text, int num_vars, bool minisat_file, SolveResult& r) {
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
    long long l = 0;
    while (ls >> l)
      if (l != 0 && std::llabs(l) <= num_vars) r.model[static_cast<std::size_t>(std::llabs(l))] = l > 0 ? 1 : 0;
  }
  r.answer = sat ? Answer::Sat : unsat ? Answer::Unsat : Answer::Unknown;
  if (r.answer != Answer::Sat) r.model.clear();
}

}  // namespace

SolveResult solve(const SolverSpec& s, const Cnf& cnf, double timeout_s, const std::string& proof_path,
                  const std::atomic<bool>* cancel) {
  TempFile in("cnf"), out("out");
  {
    std::ofstream f(in.path);
    cnf.write_dimacs(f);
    if (!f) throw std::runtime_error("cannot write " + in.path);
  }
  std::vector<std::string> argv{s.binary};
  std::optional<TempFile> result;
  if (s.name == "cadical") {
    argv.push_back("-q");
    argv.push_back(in.path);
    if (!proof_path.empty()) argv.push_back(proof_path);
  } else if (s.name == "picosat") {
    argv.push_back(in.path);
  } else {  // minisat writes its answer to a result file
    result.emplace("res");
    argv.push_back("-verb=0");
    argv.push_back(in.path);
    argv.push_back(result->path);
  }
  SolveResult r;
  bool cancelled = false;
  const std::optional<int> rc = run_child(argv, out.path, timeout_s, r.seconds, cancel, cancelled);
  if (!rc) {
    r.why = cancelled ? "cancelled" : "time limit (" + std::to_string(timeout_s) + " s)";
    return r;
  }
  std::ifstream f(result ? result->path : out.path);
  std::stringstream text;
  text << f.rdbuf();
  read_answer(text.str(), cnf.num_vars, result.has_value(), r);
  // Exit codes 10 / 20 are the SAT-competition convention all three follow.
  if ((*rc == 10) != (r.answer == Answer::Sat) || (*rc == 20) != (r.answer == Answer::Unsat))
    throw std::runtime_error(s.name + " exited " + std::to_string(*rc) + " but printed " + to_string(r.answer));
  if (r.answer == Answer::Unknown) r.why = s.name + " gave no answer (exit " + std::to_string(*rc) + ")";
  return r;
}

std::string confirm_unsat(const SolverSpec& second, const Cnf& cnf, double timeout_s, const std::string& what,
                          const std::atomic<bool>* cancel) {
  const SolveResult r2 = solve(second, cnf, std::max(1.0, timeout_s), "", cancel);
  if (r2.answer == Answer::Sat) throw std::logic_error("cadical says UNSAT and " + second.name + " SAT on " + what + " (solvers disagree)");
  if (r2.answer == Answer::Unknown) return second.name + " (--confirm): " + r2.why + " on " + what;
  return "";
}

std::vector<SolveResult> solve_batch(const SolverSpec& s, const std::vector<const Cnf*>& cnfs, const BatchOptions& o) {
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
        if (left() <= 0) r.why = "time limit";
        else r = solve(s, *cnfs[q], left(), "", o.cancel);
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

}  // namespace cz::circuits::sat
