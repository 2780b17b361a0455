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
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>

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

// How long work runs before a bar or status line appears: 2000 ms, or $CIRCUITZOO_PROGRESS_AFTER_MS
// (a whole number; tests set 0 to see the drawing on a pseudo-terminal without slow work).
std::int64_t progress_after_ms();

class Progress {
 public:
  // draw false: counts for a watcher only, never drawn (the caller shows a StatusLine instead).
  Progress(std::string label, std::uint64_t total, bool draw = true);
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

// A status line for work in steps whose length is not known (issue 49 item 7: prove, claims,
// sweep): "LABEL  STEP  12s" on stderr, redrawn every 200 ms by a thread of its own, only when
// stderr is a terminal, no watcher (Python) is installed, and the work has run for
// progress_after_ms(). A Progress bar drawn meanwhile (the engine's, inside a step) has the line:
// the status line waits until no bar has drawn for 0.5 s.
class StatusLine {
 public:
  explicit StatusLine(std::string label);
  ~StatusLine();  // stops the thread and clears the line
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;
  void step(std::string what);  // the step now running (drawn at once when the delay has passed)
  // LINE and a newline to OS, the status cleared first (a line of output never shares the bar's).
  void print(std::ostream& os, const std::string& line);
  bool on() const { return on_; }

 private:
  void draw_locked();
  void clear_locked();
  std::string label_, step_;
  std::chrono::steady_clock::time_point start_;
  bool on_ = false, drawn_ = false, stop_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread thread_;
};

}  // namespace cz
