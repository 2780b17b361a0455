// Checkpoints (issue 13): `verify ... --checkpoint FILE` saves, every ~30 s, how far the run has
// come: the longest run of finished blocks from its start (blocks finish out of order across
// threads; only a contiguous prefix is saved), with that prefix's failure count and smallest
// failing index. The file is replaced atomically, so a kill at any moment leaves the previous
// checkpoint or the next, never half of one. `--resume` continues from it; the report then equals
// an uninterrupted run's. A checkpoint of another run (parameters, domain, seed, build) is refused.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "app/engine/engine.h"

namespace cz {

struct CheckpointState {
  std::uint64_t done_until = 0;  // every instance in [begin, done_until) is checked
  BlockResult result;            // over [begin, done_until)
};

// Reads PATH and checks that it belongs to this run (identity and range) and that its counts are
// exact and consistent (app/engine/run/read_back.h); InputError otherwise. parse_checkpoint is the
// same on text already read (the fuzz harness, fuzz/fuzz_checkpoint.cpp).
CheckpointState load_checkpoint(const std::string& path, const nlohmann::json& identity, std::uint64_t begin,
                                std::uint64_t end);
CheckpointState parse_checkpoint(const std::string& text, const std::string& path, const nlohmann::json& identity,
                                 std::uint64_t begin, std::uint64_t end);

// InputError when PATH exists and is not a regular file (a FIFO, a device, a directory): checked
// before anything else about the checkpoint, so that a FIFO never blocks and /dev/null is named
// for what it is.
void check_checkpoint_path(const std::string& path);

class CheckpointLedger final : public BlockLedger {
 public:
  CheckpointLedger(std::string path, nlohmann::json identity, std::uint64_t begin, std::uint64_t end,
                   const CheckpointState& start, double interval_seconds);
  void done(std::uint64_t lo, std::uint64_t n, const BlockResult& r) override;
  void save();  // now (the engine calls it once the range is finished)

 private:
  void save_locked();
  const std::string path_;
  const nlohmann::json identity_;
  const std::uint64_t begin_, end_;
  const std::chrono::duration<double> interval_;
  std::mutex mu_;
  CheckpointState state_;
  std::map<std::uint64_t, std::pair<std::uint64_t, BlockResult>> pending_;  // finished beyond done_until
  std::chrono::steady_clock::time_point last_;
};

}  // namespace cz
