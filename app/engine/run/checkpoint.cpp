#include "app/engine/run/checkpoint.h"

#include "app/engine/run/read_back.h"
#include "app/engine/run/run_identity.h"
#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz {

namespace {
constexpr const char* kFormat = "circuitzoo-checkpoint";
}

void check_checkpoint_path(const std::string& path) {
  // A FIFO would block the resume forever and a device is no run's file (issue 25); say so before
  // "exists: add --resume". A dangling link or a missing directory is check_outputs's to refuse.
  refuse_non_regular(path, "a checkpoint: it is replaced atomically");
}

CheckpointState parse_checkpoint(const std::string& text, const std::string& path, const nlohmann::json& identity,
                                 std::uint64_t begin, std::uint64_t end) {
  JsonLimits limits;
  limits.max_string = kReadBackMaxString;
  const nlohmann::json j = parse_json_input(text, path, limits);
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat || !j.contains("version") ||
      !j["version"].is_number_unsigned() || j["version"].get<std::uint64_t>() != 1)
    throw InputError("not a circuitzoo checkpoint (format/version)", path);
  const std::string why = identity_mismatch(j.contains("identity") ? j["identity"] : nlohmann::json(), identity);
  if (!why.empty()) throw InputError("the checkpoint belongs to another run: " + why, path);
  const std::uint64_t b = exact_uint(j, "begin", "begin", path), e = exact_uint(j, "end", "end", path);
  if (b != begin || e != end)
    throw InputError("the checkpoint covers [" + std::to_string(b) + ", " + std::to_string(e) + "), this run [" +
                         std::to_string(begin) + ", " + std::to_string(end) + ") (another --shard?)",
                     path);
  CheckpointState s;
  s.done_until = exact_uint(j, "done_until", "done_until", path);
  s.result.failed = exact_uint(j, "failed", "failed", path);
  s.result.first = exact_uint_or_null(j, "first_failure", "first_failure", path);
  const bool first_ok = !s.result.first || (*s.result.first >= begin && *s.result.first < s.done_until);
  if (s.done_until < begin || s.done_until > end || s.result.failed > s.done_until - begin || !first_ok ||
      (s.result.failed > 0) != s.result.first.has_value())
    throw InputError("inconsistent checkpoint (counts outside its range)", path);
  return s;
}

CheckpointState load_checkpoint(const std::string& path, const nlohmann::json& identity, std::uint64_t begin,
                                std::uint64_t end) {
  return parse_checkpoint(read_back_file(path, kCheckpointMaxBytes, "a checkpoint"), path, identity, begin, end);
}

CheckpointLedger::CheckpointLedger(std::string path, nlohmann::json identity, std::uint64_t begin, std::uint64_t end,
                                   const CheckpointState& start, double interval_seconds)
    : path_(std::move(path)), identity_(std::move(identity)), begin_(begin), end_(end),
      interval_(interval_seconds), state_(start), last_(std::chrono::steady_clock::now()) {
  std::lock_guard<std::mutex> lock(mu_);
  save_locked();  // the file exists (and is this run's) from the start
}

void CheckpointLedger::done(std::uint64_t lo, std::uint64_t n, const BlockResult& r) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_[lo] = {n, r};
  // Fold in the blocks that now continue the finished prefix.
  for (auto it = pending_.begin(); it != pending_.end() && it->first == state_.done_until; it = pending_.erase(it)) {
    state_.done_until += it->second.first;
    state_.result.merge(it->second.second);
  }
  if (std::chrono::steady_clock::now() - last_ >= interval_) save_locked();
}

void CheckpointLedger::save() {
  std::lock_guard<std::mutex> lock(mu_);
  save_locked();
}

void CheckpointLedger::save_locked() {
  nlohmann::json j = {{"format", kFormat},
                      {"version", 1},
                      {"identity", identity_},
                      {"begin", begin_},
                      {"end", end_},
                      {"done_until", state_.done_until},
                      {"failed", state_.result.failed},
                      {"first_failure", state_.result.first ? nlohmann::json(*state_.result.first) : nlohmann::json(nullptr)}};
  write_file_atomic(path_, j.dump(1) + "\n");
  last_ = std::chrono::steady_clock::now();
}

}  // namespace cz
