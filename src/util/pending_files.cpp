#include "util/pending_files.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/signal_cleanup.h"

namespace cz {

struct PendingFiles::File {
  std::string target, temp, where;
  int fd = -1, slot = -1;
  bool renamed = false, dropped = false;
};

namespace {

// The file a rename must replace: a symbolic link's target (the link is kept, as
// util/atomic_file.h does), else the path itself.
std::string resolved_target(const std::string& path) {
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    char buf[PATH_MAX];
    if (::realpath(path.c_str(), buf)) return buf;
  }
  return path;
}

}  // namespace

PendingFiles::PendingFiles() = default;

PendingFiles::~PendingFiles() {
  for (auto& f : files_) {
    if (f->fd >= 0) ::close(f->fd);
    if (!f->renamed && !f->dropped) ::unlink(f->temp.c_str());
    unregister_cleanup_path(f->slot);
  }
}

std::size_t PendingFiles::add(const std::string& target, const std::string& flag) {
  const std::string where = flag.empty() ? target : flag + " " + target;
  if (target == "-") throw InputError("standard output cannot take this file: it is written whole and renamed into place", where);
  if (!is_replaced_output(target))  // devices, FIFOs, directories, "", new files under /dev
    throw InputError("not a regular file or a new one: this file is written whole and renamed into place", where);
  auto f = std::make_unique<File>();
  f->target = resolved_target(target);
  f->where = where;
  std::string tmpl = f->target + ".tmp.XXXXXX";
  if (tmpl.size() >= PATH_MAX) throw InputError("output path too long", where);
  install_cleanup_handlers();
  std::lock_guard<std::mutex> lock(mu_);
  {
    CleanupSignalsBlocked block;  // created and registered together
    f->fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (f->fd < 0) throw InputError(std::string("cannot write file: ") + std::strerror(errno), where);
    f->temp = tmpl;
    f->slot = register_cleanup_path(f->temp);
  }
  files_.push_back(std::move(f));  // from here the destructor removes it
  File& g = *files_.back();
  if (g.slot < 0) throw InputError("more files at once than the signal cleanup can track (1024)", where);
  struct stat st {};  // an existing file keeps its permission bits; a new one gets 0666 & ~umask
  mode_t mode = 0;
  if (::stat(g.target.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t m = ::umask(022);
    ::umask(m);
    mode = 0666 & ~m;
  }
  if (::fchmod(g.fd, mode) != 0) throw InputError(std::string("cannot set permissions: ") + std::strerror(errno), where);
  return files_.size() - 1;
}

int PendingFiles::fd(std::size_t i) const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.at(i)->fd;
}

const std::string& PendingFiles::where(std::size_t i) const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_.at(i)->where;
}

void PendingFiles::write(std::size_t i, const char* data, std::size_t n) {
  const int fd = this->fd(i);
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw InputError(std::string("write failed: ") + std::strerror(errno), where(i));
    }
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

void PendingFiles::drop(std::size_t i) {
  std::lock_guard<std::mutex> lock(mu_);
  File& f = *files_.at(i);
  if (f.renamed || f.dropped) return;
  if (f.fd >= 0) ::close(f.fd);
  f.fd = -1;
  ::unlink(f.temp.c_str());
  f.dropped = true;
  unregister_cleanup_path(f.slot);
  f.slot = -1;
}

void PendingFiles::commit() {
  std::lock_guard<std::mutex> lock(mu_);
  // Every file is on disk before any is renamed: a late ENOSPC/EIO (delayed allocation) replaces nothing.
  for (auto& f : files_) {
    if (f->fd < 0) continue;
    if (::fsync(f->fd) != 0 && errno != EINVAL && errno != EROFS)
      throw InputError(std::string("write failed: ") + std::strerror(errno), f->where);
    const int rc = ::close(f->fd);
    f->fd = -1;
    if (rc != 0) throw InputError(std::string("write failed: ") + std::strerror(errno), f->where);
  }
  for (auto& f : files_) {
    if (f->renamed || f->dropped) continue;
    if (::rename(f->temp.c_str(), f->target.c_str()) != 0)
      throw InputError(std::string("cannot rename into place: ") + std::strerror(errno), f->where);
    f->renamed = true;
    unregister_cleanup_path(f->slot);
    f->slot = -1;
  }
}

}  // namespace cz
