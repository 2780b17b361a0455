// A progress bar on stderr, shown only when stderr is a terminal and the work has run for more
// than ~2 s (so short runs and redirected output stay clean).
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace cz {

class Progress {
 public:
  Progress(std::string label, std::uint64_t total);
  ~Progress();
  // Called from any thread; cheap (draws at most every 200 ms).
  void advance(std::uint64_t n);

 private:
  void draw(std::uint64_t done);
  std::string label_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::int64_t> last_draw_ms_{0};
  std::chrono::steady_clock::time_point start_;
  bool tty_;
  std::atomic<bool> drawn_{false};
};

}  // namespace cz
