// The temporary directory of a --proof DIR run (sat_certificates.h): DIR.tmp-<pid> beside DIR,
// files written whole into it, renamed into place only when the run proves, and removed otherwise:
// by the destructor, by the signal handler, and by a janitor process when this process is killed
// (issue 46 row 9: under mpirun a rank is SIGKILLed milliseconds after another dies).
#pragma once
#include <memory>
#include <string>

namespace cz {

class Janitor;  // sat_cert_dir.cpp

class TempDir {
 public:
  explicit TempDir(const std::string& target);  // creates target.tmp-<pid>; InputError on failure
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  // One file written whole (new, every byte, fsync'ed); InputError naming it on failure.
  void write(const std::string& name, const std::string& data);
  // A file of the directory renamed (the index numbers files in a fixed order once every miter is in).
  void rename(const std::string& from, const std::string& to);
  // Renamed into place; never over an existing path (RENAME_NOREPLACE).
  void commit(const std::string& target);

 private:
  std::string path_;
  int slot_ = -1;
  std::unique_ptr<Janitor> janitor_;
};

}  // namespace cz
