#include "app/engine/checkpoint.h"

#include "app/engine/run_identity.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz {

namespace {
constexpr const char* kFormat = "circuitzoo-checkpoint";
}

CheckpointState load_checkpoint(const std::string& path, const nlohmann::json& identity, std::uint64_t begin,
                                std::uint64_t end) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("not a checkpoint (") + e.what() + ")", path);
  }
  if (!j.is_object() || j.value("format", "") != kFormat || j.value("version", 0) != 1)
    throw InputError("not a circuitzoo checkpoint (format/version)", path);
  const std::string why = identity_mismatch(j.value("identity", nlohmann::json()), identity);
  if (!why.empty()) throw InputError("the checkpoint belongs to another run: " + why, path);
  CheckpointState s;
  try {
    if (j.at("begin").get<std::uint64_t>() != begin || j.at("end").get<std::uint64_t>() != end)
      throw InputError("the checkpoint covers [" + j.at("begin").dump() + ", " + j.at("end").dump() + "), this run [" +
                           std::to_string(begin) + ", " + std::to_string(end) + ") (another --shard?)",
                       path);
    s.done_until = j.at("done_until").get<std::uint64_t>();
    s.result.failed = j.at("failed").get<std::uint64_t>();
    if (!j.at("first_failure").is_null()) s.result.first = j.at("first_failure").get<std::uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("malformed checkpoint (") + e.what() + ")", path);
  }
  const bool first_ok = !s.result.first || (*s.result.first >= begin && *s.result.first < s.done_until);
  if (s.done_until < begin || s.done_until > end || s.result.failed > s.done_until - begin || !first_ok ||
      (s.result.failed > 0) != s.result.first.has_value())
    throw InputError("inconsistent checkpoint (counts outside its range)", path);
  return s;
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
