// A progress bar on stderr, shown only when stderr is a terminal and the work has run for more
// than ~2 s (so short runs and redirected output stay clean).
//
// Work watched from outside (issue 26 item 3: the Python module's `progress=` callables and
// Ctrl-C in a notebook). A front end runs the work on a thread of its own with a WorkWatch
// installed (WatchScope); every Progress made on that thread reports its counts to the watch
// instead of drawing, and once the watch is cancelled the next advance() or poll(), on any of
// the work's threads, throws Cancelled. The engine polls once per block (and once per instance
// on the scalar path), so a cancel stops a run within one block's time. The engine does not know
// who watches: app/engine never sees Python.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

namespace cz {

// Thrown by the work when its watch was cancelled (never reported as a verdict).
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

struct WorkWatch {
  std::atomic<bool> cancelled{false};
  std::atomic<std::uint64_t> done{0}, total{0};
  std::atomic<std::uint64_t> stage{0};  // bumped when a new Progress starts (a new stage of the work)
  std::mutex mu;
  std::string label;  // the current stage's label (under mu)
  std::string current_label() {
    std::lock_guard<std::mutex> lock(mu);
    return label;
  }
};

// Installs `w` as this thread's watch for the scope's lifetime (nested scopes restore the outer).
class WatchScope {
 public:
  explicit WatchScope(WorkWatch* w);
  ~WatchScope();
  WatchScope(const WatchScope&) = delete;
  WatchScope& operator=(const WatchScope&) = delete;

 private:
  WorkWatch* outer_;
};
WorkWatch* current_watch();  // this thread's, or null
// Throws Cancelled when this thread's watch was cancelled (loops outside the engine: sweep values).
void check_cancelled();

class Progress {
 public:
  Progress(std::string label, std::uint64_t total);
  ~Progress();
  // Called from any thread; cheap (draws at most every 200 ms). Throws Cancelled (see above).
  void advance(std::uint64_t n);
  // Throws Cancelled when the watch this Progress reports to was cancelled; one relaxed load.
  void poll() const {
    if (watch_ && watch_->cancelled.load(std::memory_order_relaxed)) throw Cancelled();
  }

 private:
  void draw(std::uint64_t done);
  std::string label_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::int64_t> last_draw_ms_{0};
  std::chrono::steady_clock::time_point start_;
  bool tty_;
  std::atomic<bool> drawn_{false};
  WorkWatch* watch_;  // the constructing thread's watch (null: none)
};

}  // namespace cz
