// Output files that are written during a long run and appear only at its end, together (issue 36:
// `verify --method sat --proof`, whose DRAT proofs are written while the solvers run and kept only
// when the run proves; `--sat-cnf`, whose miters appear all or none). Each file is a temporary
// file created next to its target (mkostemp, O_EXCL), registered with the signal cleanup
// (util/signal_cleanup.h); commit() fsyncs every one and only then renames them into place, and a
// PendingFiles destroyed without commit() removes them all. So an existing target is never
// truncated by a run that fails, is refuted, or is interrupted, and two runs writing one target
// leave one run's whole file, never a mixture.
#pragma once
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cz {

class PendingFiles {
 public:
  PendingFiles();
  PendingFiles(const PendingFiles&) = delete;
  PendingFiles& operator=(const PendingFiles&) = delete;
  ~PendingFiles();  // removes every temporary file not committed

  // A new temporary file for `target`, open for writing; returns its index. InputError (where =
  // flag and target) when the target is not a regular file or a new one (util/atomic_file.h
  // is_replaced_output: "-", devices, FIFOs, directories are refused) or when the file cannot be
  // created. Thread-safe.
  std::size_t add(const std::string& target, const std::string& flag);
  int fd(std::size_t i) const;                    // the open temporary file
  const std::string& where(std::size_t i) const;  // "FLAG TARGET", for messages
  // Appends to file i; InputError (where) on a write error (ENOSPC, EIO, EFBIG).
  void write(std::size_t i, const char* data, std::size_t n);
  // Removes file i's temporary file now (a --proof of a run that did not prove); commit() skips it.
  void drop(std::size_t i);
  // fsync and close every file (InputError on a failure: nothing renamed), then rename each into place.
  void commit();

 private:
  struct File;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<File>> files_;
};

}  // namespace cz
