#include "util/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace cz {

namespace {
thread_local WorkWatch* t_watch = nullptr;
std::atomic<std::int64_t> g_bar_drawn_ms{0};  // when a Progress bar last drew (steady clock, ms)
std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

std::int64_t progress_after_ms() {
  static const std::int64_t ms = [] {
    const char* e = std::getenv("CIRCUITZOO_PROGRESS_AFTER_MS");
    if (!e || !*e) return std::int64_t{2000};
    char* end = nullptr;
    const long long v = std::strtoll(e, &end, 10);
    return (*end == 0 && v >= 0) ? static_cast<std::int64_t>(v) : std::int64_t{2000};
  }();
  return ms;
}

WatchScope::WatchScope(WorkWatch* w) : outer_(t_watch) { t_watch = w; }
WatchScope::~WatchScope() { t_watch = outer_; }
WorkWatch* current_watch() { return t_watch; }
void check_cancelled() {
  if (t_watch && t_watch->cancelled.load(std::memory_order_relaxed)) throw Cancelled();
}

Progress::Progress(std::string label, std::uint64_t total, bool draw)
    : label_(std::move(label)), total_(total), start_(std::chrono::steady_clock::now()), watch_(t_watch) {
  // A watched run reports to its watcher (a notebook's bar), never to the terminal.
  tty_ = draw && !watch_ && ::isatty(2) != 0;
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
  if (ms < progress_after_ms()) return;
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
  g_bar_drawn_ms = now_ms();
}

StatusLine::StatusLine(std::string label) : label_(std::move(label)), start_(std::chrono::steady_clock::now()) {
  on_ = !t_watch && ::isatty(2) != 0;
  if (!on_) return;
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      cv_.wait_for(lock, std::chrono::milliseconds(200));
      if (!stop_) draw_locked();
    }
  });
}

StatusLine::~StatusLine() {
  if (!on_) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    clear_locked();
  }
  cv_.notify_all();
  thread_.join();
}

void StatusLine::step(std::string what) {
  if (!on_) return;
  std::lock_guard<std::mutex> lock(mu_);
  step_ = std::move(what);
  draw_locked();
}

void StatusLine::print(std::ostream& os, const std::string& line) {
  if (!on_) {
    os << line << "\n";
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  clear_locked();
  os << line << "\n";
  os.flush();
}

void StatusLine::draw_locked() {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
  if (ms < progress_after_ms() || now_ms() - g_bar_drawn_ms.load() < 500) return;
  std::fprintf(stderr, "\r\033[K%s  %s  %llds", label_.c_str(), step_.c_str(), static_cast<long long>(ms / 1000));
  std::fflush(stderr);
  drawn_ = true;
}

void StatusLine::clear_locked() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace cz
