#include "util/atomic_file.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include "util/error.h"
#include "util/memory_budget.h"
#include "util/signal_cleanup.h"
#include "util/text.h"

namespace cz {
namespace {

// Temporary files are registered with the cleanup handler (util/signal_cleanup.h), which
// unlinks them when SIGINT/SIGTERM/SIGHUP/SIGPIPE ends the process.

// ---- where an output goes ------------------------------------------------------------------
enum class Kind { Stdout, Fd, WriteThrough, Replace, Refuse };
struct Plan {
  Kind kind = Kind::Refuse;
  int fd = -1;            // Kind::Fd: 1 or 2
  std::string target;     // WriteThrough: the path to open; Replace: the file to replace
  mode_t mode = 0644;     // Replace: permission bits of the result
  std::string reason;     // Refuse
};

bool under_system_dir(const std::string& p) { return p.rfind("/dev/", 0) == 0 || p.rfind("/proc/", 0) == 0; }

int same_as_std_fd(const struct stat& st) {
  for (int fd : {1, 2}) {
    struct stat s {};
    if (::fstat(fd, &s) == 0 && s.st_dev == st.st_dev && s.st_ino == st.st_ino) return fd;
  }
  return -1;
}

mode_t new_file_mode() {
  static const mode_t mode = [] {
    mode_t m = ::umask(022);
    ::umask(m);
    return static_cast<mode_t>(0666 & ~m);
  }();
  return mode;
}

Plan plan_output(const std::string& path) {
  Plan p;
  if (path.empty()) {
    p.reason = "empty output path";
    return p;
  }
  if (path == "-") {
    p.kind = Kind::Stdout;
    return p;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && under_system_dir(path))) {
      if (int fd = same_as_std_fd(st); fd > 0) {
        p.kind = Kind::Fd;
        p.fd = fd;
      } else if (S_ISREG(st.st_mode)) {
        p.reason = "refusing to replace a file reached through /dev or /proc";
      } else {
        p.kind = Kind::WriteThrough;
        p.target = path;
      }
      return p;
    }
    if (S_ISDIR(st.st_mode)) { p.reason = "is a directory"; return p; }
    if (S_ISBLK(st.st_mode)) { p.reason = "is a block device (refusing to write to it)"; return p; }
    if (!S_ISREG(st.st_mode)) { p.reason = "is not a regular file, character device or FIFO"; return p; }
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      char buf[PATH_MAX];
      if (!::realpath(path.c_str(), buf)) { p.reason = std::string("cannot resolve symbolic link: ") + std::strerror(errno); return p; }
      p.target = buf;  // replace the link's target, keep the link
    } else {
      p.target = path;
    }
    p.kind = Kind::Replace;
    p.mode = st.st_mode & 07777;
    return p;
  }
  const int e = errno;
  struct stat lst {};
  if (e == ENOENT && ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    p.reason = "is a dangling symbolic link (refusing to follow it)";
    return p;
  }
  if (e != ENOENT) {
    p.reason = std::string("cannot write file: ") + std::strerror(e);
    return p;
  }
  if (under_system_dir(path)) {
    p.reason = "refusing to create a file under /dev or /proc";
    return p;
  }
  p.kind = Kind::Replace;
  p.target = path;
  p.mode = new_file_mode();
  return p;
}

std::string where_of(const std::string& flag, const std::string& path) { return flag.empty() ? path : flag + " " + path; }

void write_all(int fd, const char* data, std::size_t n, const std::string& where) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw InputError(std::string("write failed: ") + std::strerror(errno), where);
    }
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

// An ostream over a file descriptor (no ownership); errors surface as InputError from flush_or_throw().
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buf_(1 << 16) { setp(buf_.data(), buf_.data() + buf_.size()); }
  void flush_or_throw(const std::string& where) {
    if (err_) throw InputError(std::string("write failed: ") + std::strerror(err_), where);
    if (!drain()) throw InputError(std::string("write failed: ") + std::strerror(err_), where);
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (err_) return false;
    const char* p = pbase();
    std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    while (n > 0) {
      ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        err_ = errno;
        return false;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return true;
  }
  int fd_;
  int err_ = 0;
  std::vector<char> buf_;
};

// A temporary file next to its target; removed on destruction unless committed.
struct TempFile {
  std::string path, target, where;
  int fd = -1, slot = -1;
  bool committed = false;

  TempFile(const Plan& p, const std::string& where_) : target(p.target), where(where_) {
    const auto slash = target.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
    std::string tmpl = dir + base + ".tmp.XXXXXX";
    if (tmpl.size() >= PATH_MAX) throw InputError("output path too long", where);
    install_cleanup_handlers();
    {
      CleanupSignalsBlocked block;  // created and registered together
      fd = ::mkostemp(tmpl.data(), O_CLOEXEC);  // O_EXCL: never follows a planted link
      if (fd < 0) throw InputError(std::string("cannot write file: ") + std::strerror(errno), where);
      path = tmpl;
      slot = register_cleanup_path(path);
    }
    if (slot < 0) {
      discard();
      throw std::logic_error("too many temporary files at once");
    }
    if (::fchmod(fd, p.mode) != 0) {
      const int e = errno;
      discard();
      throw InputError(std::string("cannot set permissions: ") + std::strerror(e), where);
    }
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (!committed) discard();
  }
  void discard() {
    if (fd >= 0) ::close(fd);
    fd = -1;
    if (!path.empty()) ::unlink(path.c_str());
    unregister_cleanup_path(slot);
    slot = -1;
    path.clear();
  }
  // fsync + close; InputError on failure.
  void finish() {
    if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
      throw InputError(std::string("write failed: ") + std::strerror(errno), where);
    }
    const int rc = ::close(fd);
    fd = -1;
    if (rc != 0) throw InputError(std::string("write failed: ") + std::strerror(errno), where);
  }
  void commit() {
    if (::rename(path.c_str(), target.c_str()) != 0)
      throw InputError(std::string("cannot rename into place: ") + std::strerror(errno), where);
    committed = true;
    unregister_cleanup_path(slot);
    slot = -1;
  }
};

void write_through(const Plan& p, const std::string& where, const std::function<void(std::ostream&)>& produce) {
  if (p.kind == Kind::Stdout || p.kind == Kind::Fd) {
    std::ostream& os = p.fd == 2 ? std::cerr : std::cout;
    if (p.fd == 2) std::cout.flush();
    produce(os);
    os.flush();
    if (!os) throw InputError("write failed", where);
    return;
  }
  int fd = ::open(p.target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw InputError(std::string("cannot write file: ") + std::strerror(errno), where);
  struct Closer { int fd; ~Closer() { ::close(fd); } } closer{fd};
  FdBuf buf(fd);
  std::ostream os(&buf);
  produce(os);
  buf.flush_or_throw(where);
}

}  // namespace

void write_file_atomic_stream(const std::string& path, const std::function<void(std::ostream&)>& produce) {
  const Plan p = plan_output(path);
  const std::string where = path.empty() ? "output path" : path;
  if (p.kind == Kind::Refuse) throw InputError(p.reason, where);
  if (p.kind != Kind::Replace) return write_through(p, where, produce);
  TempFile t(p, where);
  {
    FdBuf buf(t.fd);
    std::ostream os(&buf);
    produce(os);
    buf.flush_or_throw(where);
  }
  t.finish();
  t.commit();
}

void write_file_atomic(const std::string& path, const std::string& content) {
  write_file_atomic_stream(path, [&](std::ostream& os) { os.write(content.data(), static_cast<std::streamsize>(content.size())); });
}

void write_files_atomic(const std::vector<OutputFile>& outputs) {
  std::vector<NamedPath> named;
  for (const auto& o : outputs) named.push_back({o.flag, o.path});
  check_output_paths(named, {});
  std::vector<Plan> plans;
  for (const auto& o : outputs) {
    plans.push_back(plan_output(o.path));
    if (plans.back().kind == Kind::Refuse) throw InputError(plans.back().reason, where_of(o.flag, o.path.empty() ? "\"\"" : o.path));
  }
  // 1. every replaced output to its temporary file
  std::vector<std::unique_ptr<TempFile>> temps(outputs.size());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (plans[i].kind != Kind::Replace) continue;
    const std::string where = where_of(outputs[i].flag, outputs[i].path);
    temps[i] = std::make_unique<TempFile>(plans[i], where);
    write_all(temps[i]->fd, outputs[i].content.data(), outputs[i].content.size(), where);
    temps[i]->finish();
  }
  // 2. outputs written through (stdout, devices, FIFOs); a failure here still replaces nothing
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (plans[i].kind == Kind::Replace) continue;
    const auto& c = outputs[i].content;
    write_through(plans[i], where_of(outputs[i].flag, outputs[i].path),
                  [&](std::ostream& os) { os.write(c.data(), static_cast<std::streamsize>(c.size())); });
  }
  // 3. rename all into place (a rename within one directory of a file we just created does not
  //    fail in practice; if one does, the outputs renamed before it stay replaced)
  for (auto& t : temps)
    if (t) t->commit();
}

namespace {
// One reader for both forms of read_file: `limits` null reads up to the memory budget (binary
// inputs: AIGER, .npy), else as TextLimits says.
std::string read_input(const std::string& path, const TextLimits* limits) {
  if (path.empty()) throw InputError("empty input path", "\"\"");
  // "-" is standard input, as "-" is standard output for outputs (issue 26 item 10). It can be
  // read once per process: a second "-" input would find it empty.
  const bool stdin_input = path == "-";
  if (stdin_input) {
    static std::atomic<bool> taken{false};
    if (taken.exchange(true)) throw InputError("standard input is already read by another input of this command", "-");
  }
  struct stat st {};
  if ((stdin_input ? ::fstat(0, &st) : ::stat(path.c_str(), &st)) != 0)
    throw InputError(std::string("cannot read file: ") + std::strerror(errno), path);
  if (S_ISDIR(st.st_mode)) throw InputError("is a directory, not a file", path);
  // Only a terminal waits for typing; other devices on standard input (/dev/null, /dev/zero) are
  // read, so that the message can say what they hold (issue 36 item 23).
  if (stdin_input && ::isatty(0)) throw InputError("standard input is a terminal: pipe or redirect the input into it", path);
  const bool device_on_stdin = stdin_input && S_ISCHR(st.st_mode) && limits;
  if (S_ISCHR(st.st_mode) && !device_on_stdin) throw InputError("is a character device, not a regular file or pipe", path);
  if (S_ISBLK(st.st_mode)) throw InputError("is a block device, not a regular file or pipe", path);
  if (S_ISSOCK(st.st_mode)) throw InputError("is a socket, not a regular file or pipe", path);
  const bool regular = S_ISREG(st.st_mode);
  const std::uint64_t budget = memory_budget();
  const std::uint64_t cap = limits ? std::min(limits->max_bytes, budget) : budget;
  const auto too_large = [&] {
    if (limits && limits->max_bytes <= budget)
      return InputError("more than " + format_bytes(limits->max_bytes) + ", the limit for " + limits->what, path);
    return InputError("input exceeds the memory budget of " + format_bytes(budget) + " (--max-memory)", path);
  };
  if (regular) {
    if (limits && static_cast<std::uint64_t>(st.st_size) > cap) throw too_large();
    require_memory(static_cast<std::uint64_t>(st.st_size), "reading this file", path);
  }
  int fd = stdin_input ? 0 : ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) throw InputError(std::string("cannot read file: ") + std::strerror(errno), path);
  struct Closer { int fd; ~Closer() { if (fd != 0) ::close(fd); } } closer{fd};
  std::string out;
  if (regular) out.reserve(static_cast<std::size_t>(st.st_size));
  const bool sniff = limits && limits->json_text;
  bool started = false;  // a non-blank byte seen
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(std::string("cannot read file: ") + std::strerror(errno), path);
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::size_t>(n) > cap) throw too_large();
    const std::size_t from = out.size();
    out.append(buf, static_cast<std::size_t>(n));
    if (!sniff) continue;
    // Text that cannot be JSON is refused at its first bytes, not after max_bytes of it.
    for (std::size_t i = from; i < out.size(); ++i) {
      const char c = out[i];
      if (c == '\0')
        throw InputError("a NUL byte at offset " + std::to_string(i) + ": binary data, not " + limits->what, path);
      if (started || c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
      started = true;
      if (c != '\xef' && !std::strchr("{[\"-0123456789tfn", c))  // \xef: a UTF-8 byte order mark, the parser's to judge
        throw InputError("not " + limits->what + ": JSON text cannot start with '" + printable(std::string_view(&out[i], 1)) + "'", path);
    }
  }
  if (sniff && !started)
    throw InputError(std::string(out.empty() ? "empty input" : "blank input (only white space)") + ": not " + limits->what, path);
  return out;
}
}  // namespace

std::string read_file(const std::string& path) { return read_input(path, nullptr); }
std::string read_file(const std::string& path, const TextLimits& limits) { return read_input(path, &limits); }

std::string file_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  char buf[PATH_MAX];
  if (::realpath(dir.c_str(), buf)) return std::string(buf) + "/" + base;
  return path;
}

bool is_replaced_output(const std::string& path) { return plan_output(path).kind == Kind::Replace; }

void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs) {
  const NamedPath* to_stdout = nullptr;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& o = outputs[i];
    if (o.path.empty()) throw InputError("empty output path", where_of(o.flag, "\"\""));
    const Plan p = plan_output(o.path);
    if (p.kind == Kind::Refuse) throw InputError(p.reason, where_of(o.flag, o.path));
    if (p.kind == Kind::Stdout || (p.kind == Kind::Fd && p.fd == 1)) {
      if (to_stdout)
        throw InputError("two outputs go to standard output (" + where_of(to_stdout->flag, to_stdout->path) + ")",
                         where_of(o.flag, o.path));
      to_stdout = &o;
    }
    if (p.kind != Kind::Replace) continue;
    const std::string id = file_identity(p.target);
    for (const auto& in : inputs)
      if (!in.path.empty() && in.path != "-" && file_identity(in.path) == id)
        throw InputError("output is the same file as the input " + where_of(in.flag, in.path), where_of(o.flag, o.path));
    for (std::size_t k = 0; k < i; ++k)
      if (is_replaced_output(outputs[k].path) && file_identity(plan_output(outputs[k].path).target) == id)
        throw InputError("two outputs name the same file (" + where_of(outputs[k].flag, outputs[k].path) + ")",
                         where_of(o.flag, o.path));
  }
}

}  // namespace cz
