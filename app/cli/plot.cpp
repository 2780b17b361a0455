#include "app/cli/plot.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/signal_cleanup.h"

namespace cz::cli {
namespace fs = std::filesystem;
namespace {

std::string python() {
  const char* p = std::getenv("CZ_PYTHON");
  return p && *p ? p : "/usr/bin/python3";
}

std::string plot_script() {
  if (const char* p = std::getenv("CZ_PLOT_SCRIPT"); p && *p) return p;
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "share" / "circuitzoo" / "plot.py");
#ifdef CZ_SOURCE_DIR
  candidates.push_back(fs::path(CZ_SOURCE_DIR) / "scripts" / "plot.py");
#endif
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return c.string();
  throw InputError("cannot find plot.py (set CZ_PLOT_SCRIPT, or install with cmake --install)", "--plot");
}

// The plot's scratch directory, registered with the cleanup handler (util/signal_cleanup.h) with
// the files it will hold, so that SIGINT/SIGTERM during a plot leaves no $TMPDIR/circuitzoo-plot-*.
struct TempDir {
  std::string path;
  std::vector<int> slots;
  TempDir() {
    install_cleanup_handlers();
    std::string tmpl = (fs::temp_directory_path() / "circuitzoo-plot-XXXXXX").string();
    CleanupSignalsBlocked block;  // created and registered together
    if (!mkdtemp(tmpl.data())) throw InputError("cannot create a temporary directory", "--plot");
    path = tmpl;
    slots.push_back(register_cleanup_path(path, /*dir=*/true));
  }
  // The path of a file in the directory, registered before anything creates it.
  std::string file(const std::string& name) {
    const std::string f = path + "/" + name;
    slots.push_back(register_cleanup_path(f));
    return f;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
    for (int s : slots) unregister_cleanup_path(s);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// Runs python with args, stdout to /dev/null and stderr into `err_file`; returns the exit status.
// The child is registered with the cleanup handler (a signal to us ends it too) and dies with us
// (PR_SET_PDEATHSIG) should we be killed outright.
int run(const std::vector<std::string>& args, const std::string& err_file) {
  const std::string py = python();
  if (access(py.c_str(), X_OK) != 0) throw InputError("plotting needs Python 3 at " + py + " (set CZ_PYTHON)", "--plot");
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(py.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  pid_t pid = -1;
  int slot = -1;
  {
    CleanupSignalsBlocked block;  // forked and registered together
    pid = fork();
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(127);  // the parent is already gone
      pthread_sigmask(SIG_SETMASK, &block.previous(), nullptr);  // exec keeps the mask: give python ours
      int devnull = open("/dev/null", O_WRONLY);
      int err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (devnull >= 0) dup2(devnull, 1);
      if (err >= 0) dup2(err, 2);
      execv(py.c_str(), argv.data());
      _exit(127);
    }
    if (pid > 0) slot = register_cleanup_child(pid);
  }
  if (pid < 0) throw InputError("cannot start " + py, "--plot");
  int status = 0;
  int rc = 0;
  while ((rc = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  unregister_cleanup_child(slot);
  if (rc < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The last non-empty line of the script's stderr (its message, or a traceback's last line).
std::string last_line(const std::string& text) {
  std::istringstream is(text);
  std::string line, last;
  while (std::getline(is, line))
    if (!line.empty()) last = line;
  if (last.rfind("error: ", 0) == 0) last = last.substr(7);
  return last.empty() ? "no message" : last;
}

void run_or_throw(const std::vector<std::string>& args, TempDir& tmp) {
  const std::string err = tmp.file("stderr.txt");
  const int rc = run(args, err);
  if (rc != 0) throw InputError("plot.py failed: " + last_line(slurp(err)), "--plot");
}

}  // namespace

void check_plot_path(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  if (ext != ".svg" && ext != ".png") throw InputError("the plot must be a .svg or .png file", "--plot " + path);
}

void check_plotting_available() {
  TempDir tmp;
  run_or_throw({plot_script(), "--check"}, tmp);
}

namespace {
// Runs plot.py [MODE] DATA.json OUT in a temporary directory and returns OUT's bytes.
std::string render(const nlohmann::json& data, const std::string& path, const std::string& mode) {
  TempDir tmp;
  const std::string in = tmp.file("data.json"), out = tmp.file("plot" + fs::path(path).extension().string());
  {
    std::ofstream f(in, std::ios::binary);
    f << data.dump();
    if (!f) throw InputError("cannot write a temporary file", "--plot");
  }
  std::vector<std::string> args = {plot_script()};
  if (!mode.empty()) args.push_back(mode);
  args.push_back(in);
  args.push_back(out);
  run_or_throw(args, tmp);
  std::string bytes = slurp(out);
  // A script that exits 0 without a picture must not turn into an empty file and exit 0.
  if (bytes.empty()) throw InputError("plot.py wrote no picture (it exited 0 but " + fs::path(out).filename().string() + " is missing or empty)", "--plot " + path);
  return bytes;
}
}  // namespace

std::string render_sweep_plot(const nlohmann::json& sweep, const std::string& path) { return render(sweep, path, ""); }

std::string render_claims_plot(const nlohmann::json& ledger, const std::string& path) { return render(ledger, path, "--claims"); }

}  // namespace cz::cli
