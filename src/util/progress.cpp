#include "util/progress.h"

#include <unistd.h>

#include <cstdio>

namespace cz {

namespace {
thread_local WorkWatch* t_watch = nullptr;
}

WatchScope::WatchScope(WorkWatch* w) : outer_(t_watch) { t_watch = w; }
WatchScope::~WatchScope() { t_watch = outer_; }
WorkWatch* current_watch() { return t_watch; }
void check_cancelled() {
  if (t_watch && t_watch->cancelled.load(std::memory_order_relaxed)) throw Cancelled();
}

Progress::Progress(std::string label, std::uint64_t total)
    : label_(std::move(label)), total_(total), start_(std::chrono::steady_clock::now()), watch_(t_watch) {
  // A watched run reports to its watcher (a notebook's bar), never to the terminal.
  tty_ = !watch_ && ::isatty(2) != 0;
  if (watch_) {
    {
      std::lock_guard<std::mutex> lock(watch_->mu);
      watch_->label = label_;
    }
    watch_->done = 0;
    watch_->total = total_;
    watch_->stage.fetch_add(1);
  }
}

Progress::~Progress() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void Progress::advance(std::uint64_t n) {
  std::uint64_t done = done_.fetch_add(n) + n;
  if (watch_) {
    watch_->done.fetch_add(n, std::memory_order_relaxed);
    poll();
    return;
  }
  if (!tty_) return;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
  if (ms < 2000) return;
  auto last = last_draw_ms_.load();
  if (ms - last < 200 || !last_draw_ms_.compare_exchange_strong(last, ms)) return;
  draw(done);
}

void Progress::draw(std::uint64_t done) {
  const int width = 30;
  double f = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  int fill = static_cast<int>(f * width);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  double eta = f > 0 ? secs * (1 - f) / f : 0;
  std::fprintf(stderr, "\r\033[K%s [%.*s%*s] %5.1f%%  %llu/%llu  eta %.0fs", label_.c_str(), fill,
               "##############################", width - fill, "", 100 * f, static_cast<unsigned long long>(done),
               static_cast<unsigned long long>(total_), eta);
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace cz
