#include "util/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/error.h"

namespace cz {

void write_file_atomic(const std::string& path, const std::string& content) {
  write_file_atomic_stream(path, [&](std::ostream& out) { out << content; });
}

void write_file_atomic_stream(const std::string& path, const std::function<void(std::ostream&)>& produce) {
  if (path.empty()) throw InputError("empty output path", "-o");
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(std::string("cannot write file: ") + std::strerror(errno), path);
    try {
      produce(out);  // std::ofstream buffers: the content is written piece by piece, never held whole
    } catch (...) {
      out.close();
      std::remove(tmp.c_str());
      throw;
    }
    out.flush();
    if (!out) {
      out.close();
      std::remove(tmp.c_str());
      throw InputError("write failed", path);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    std::remove(tmp.c_str());
    throw InputError(std::string("cannot rename into place: ") + std::strerror(e), path);
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(std::string("cannot read file: ") + std::strerror(errno), path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace cz
