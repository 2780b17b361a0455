#include "util/signal_cleanup.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
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
volatile std::sig_atomic_t g_path_kind[kPathSlots];  // 0 free, 1 file, 2 directory
volatile pid_t g_children[kChildSlots];              // 0 free
volatile std::sig_atomic_t g_child_group[kChildSlots];  // 1: kill the child's process group
std::mutex g_mu;

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
    if (g_path_kind[i] == 2) ::rmdir(g_paths[i]);
  ::raise(sig);
}

}  // namespace

void install_cleanup_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
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
  });
}

CleanupSignalsBlocked::CleanupSignalsBlocked() {
  sigset_t s;
  sigemptyset(&s);
  for (int sig : kCleanupSignals) sigaddset(&s, sig);
  ::pthread_sigmask(SIG_BLOCK, &s, &old_);
}

CleanupSignalsBlocked::~CleanupSignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

int register_cleanup_path(const std::string& path, bool dir) {
  if (path.size() >= PATH_MAX) return -1;
  std::lock_guard<std::mutex> lock(g_mu);
  for (int i = 0; i < kPathSlots; ++i) {
    if (g_path_kind[i]) continue;
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    std::atomic_signal_fence(std::memory_order_seq_cst);  // the path is complete before the slot is used
    g_path_kind[i] = dir ? 2 : 1;
    return i;
  }
  return -1;
}

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
