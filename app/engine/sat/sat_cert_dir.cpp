#include "app/engine/sat/sat_cert_dir.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "util/error.h"
#include "util/signal_cleanup.h"

namespace cz {

namespace {

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

}  // namespace

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

TempDir::TempDir(const std::string& target) : path_(target + ".tmp-" + std::to_string(::getpid())) {
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

TempDir::~TempDir() {
  if (!path_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  unregister_cleanup_path(slot_);
  janitor_.reset();
}

void TempDir::write(const std::string& name, const std::string& data) {
  write_new_file(path_ + "/" + name, data);  // inside the directory: the handler's slot for it removes it too
}

void TempDir::rename(const std::string& from, const std::string& to) {
  const std::string a = path_ + "/" + from, b = path_ + "/" + to;
  if (::rename(a.c_str(), b.c_str()) != 0) throw InputError(std::string("cannot name a certificate file: ") + std::strerror(errno), b);
}

void TempDir::commit(const std::string& target) {
  fsync_dir(path_);
  if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) != 0)
    throw InputError(std::string("cannot rename the certificates into place: ") + std::strerror(errno), target);
  path_.clear();
  const std::filesystem::path parent = std::filesystem::path(target).parent_path();
  fsync_dir(parent.empty() ? std::string(".") : parent.string());
}

}  // namespace cz
