#include "util/signal_cleanup.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace cz {
namespace {

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

// Fixed arrays: the handler may not allocate. 1024 paths: the temporary files of one all-or-nothing
// write (a handful), a plot's directory and its files, and --method sat's files: one DIMACS file
// per running solver, plus the pending --proof and --sat-cnf files of every miter until the run
// ends (issue 36). 256 children: one solver process per thread. (Untouched slots cost no memory.)
constexpr int kPathSlots = 1024, kChildSlots = 256;
char g_paths[kPathSlots][PATH_MAX];
volatile std::sig_atomic_t g_path_kind[kPathSlots];  // 0 free, 1 file, 2 directory, 3 directory and its files
volatile pid_t g_children[kChildSlots];              // 0 free
volatile std::sig_atomic_t g_child_group[kChildSlots];  // 1: kill the child's process group
std::mutex g_mu;

// Unlinks every entry of directory `path` (one level) with raw getdents64/unlinkat calls, which
// are async-signal-safe where opendir/readdir (malloc) are not; the buffer is static (the handler
// runs once: SA_RESETHAND, its signals blocked). Passes repeat while they remove something.
alignas(8) char g_dirents[32768];
struct LinuxDirent64 {
  std::uint64_t ino;
  std::int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};
void unlink_entries(const char* path) {
  for (int pass = 0; pass < 64; ++pass) {
    const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    bool removed = false;
    for (;;) {
      const long n = ::syscall(SYS_getdents64, fd, g_dirents, sizeof g_dirents);
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        const auto* d = reinterpret_cast<const LinuxDirent64*>(g_dirents + at);
        at += d->reclen;
        if (d->name[0] == '.' && (d->name[1] == 0 || (d->name[1] == '.' && d->name[2] == 0))) continue;
        if (::unlinkat(fd, d->name, 0) == 0) removed = true;
      }
    }
    ::close(fd);
    if (!removed) return;
  }
}

extern "C" void cz_cleanup_and_reraise(int sig) {
  // SA_RESETHAND restored the default action and the signal is blocked until we return, so the
  // re-raised signal terminates the process then.
  for (int i = 0; i < kChildSlots; ++i) {
    const pid_t pid = g_children[i];
    if (pid <= 0) continue;
    // A group leader is not reaped before it is unregistered, so its pid (and group id) is ours.
    ::kill(g_child_group[i] ? -pid : pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  for (int i = 0; i < kPathSlots; ++i)
    if (g_path_kind[i] == 1) ::unlink(g_paths[i]);
  for (int i = 0; i < kPathSlots; ++i)
    if (g_path_kind[i] == 3) unlink_entries(g_paths[i]);
  for (int i = 0; i < kPathSlots; ++i)
    if (g_path_kind[i] == 2 || g_path_kind[i] == 3) ::rmdir(g_paths[i]);
  ::raise(sig);
}

}  // namespace

// Each call installs the handler for the signals whose action is the default then (a signal set
// back to SIG_DFL gets it again; one already handled, ours or another's, is left alone).
void install_cleanup_handlers() {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  {
    for (int sig : kCleanupSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // keep SIG_IGN (nohup) and others' handlers
      struct sigaction sa {};
      sa.sa_handler = cz_cleanup_and_reraise;
      sigemptyset(&sa.sa_mask);
      for (int s : kCleanupSignals) sigaddset(&sa.sa_mask, s);
      sa.sa_flags = SA_RESETHAND;
      ::sigaction(sig, &sa, nullptr);
    }
  }
}

CleanupSignalsBlocked::CleanupSignalsBlocked() {
  sigset_t s;
  sigemptyset(&s);
  for (int sig : kCleanupSignals) sigaddset(&s, sig);
  ::pthread_sigmask(SIG_BLOCK, &s, &old_);
}

CleanupSignalsBlocked::~CleanupSignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

namespace {
int register_path_kind(const std::string& path, int kind) {
  if (path.size() >= PATH_MAX) return -1;
  std::lock_guard<std::mutex> lock(g_mu);
  for (int i = 0; i < kPathSlots; ++i) {
    if (g_path_kind[i]) continue;
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    std::atomic_signal_fence(std::memory_order_seq_cst);  // the path is complete before the slot is used
    g_path_kind[i] = kind;
    return i;
  }
  return -1;
}
}  // namespace

int register_cleanup_path(const std::string& path, bool dir) { return register_path_kind(path, dir ? 2 : 1); }
int register_cleanup_dir_with_files(const std::string& path) { return register_path_kind(path, 3); }

void unregister_cleanup_path(int slot) {
  if (slot < 0) return;
  std::lock_guard<std::mutex> lock(g_mu);
  g_path_kind[slot] = 0;
}

int register_cleanup_child(pid_t pid, bool group) {
  std::lock_guard<std::mutex> lock(g_mu);
  for (int i = 0; i < kChildSlots; ++i) {
    if (g_children[i]) continue;
    g_child_group[i] = group ? 1 : 0;
    std::atomic_signal_fence(std::memory_order_seq_cst);  // the kind is set before the slot is used
    g_children[i] = pid;
    return i;
  }
  return -1;
}

void unregister_cleanup_child(int slot) {
  if (slot < 0) return;
  std::lock_guard<std::mutex> lock(g_mu);
  g_children[slot] = 0;
}

}  // namespace cz
