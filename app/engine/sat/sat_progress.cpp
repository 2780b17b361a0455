#include "app/engine/sat/sat_progress.h"

#include <unistd.h>

#include <cstdio>

namespace cz {

SatProgress::SatProgress(bool enabled, std::size_t miters)
    : on_(enabled && ::isatty(2) != 0), k_(miters), t0_(std::chrono::steady_clock::now()) {
  if (!on_) return;
  {
    std::lock_guard<std::mutex> lk(mu_);
    draw();  // at once: even a run shorter than one redraw shows (and then wipes) its line
  }
  th_ = std::thread([this] { loop(); });
}

SatProgress::~SatProgress() {
  if (!on_) return;
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  th_.join();
  std::fprintf(stderr, "\r\033[K");  // wipe the line: nothing of it stays on the terminal
  std::fflush(stderr);
}

void SatProgress::phase(const std::string& p) {
  if (!on_) return;
  std::lock_guard<std::mutex> lk(mu_);
  phase_ = p;
}

void SatProgress::started(std::size_t mi, const std::string& group) {
  if (!on_) return;
  std::lock_guard<std::mutex> lk(mu_);
  running_.insert(mi);
  group_[mi] = group;
}

void SatProgress::confirming(std::size_t mi) {
  if (!on_) return;
  std::lock_guard<std::mutex> lk(mu_);
  confirming_.insert(mi);
}

void SatProgress::finished(std::size_t mi) {
  if (!on_) return;
  std::lock_guard<std::mutex> lk(mu_);
  running_.erase(mi);
  confirming_.erase(mi);
  ++done_;
}

void SatProgress::loop() {
  std::unique_lock<std::mutex> lk(mu_);
  while (!stop_) {
    cv_.wait_for(lk, std::chrono::milliseconds(200));
    if (!stop_) draw();
  }
}

// Called with mu_ held.
void SatProgress::draw() {
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  std::string line = "sat: " + phase_;
  if (phase_ == "solving") {
    std::string run;
    for (std::size_t mi : running_) {
      if (!run.empty()) run += ", ";
      run += "miter " + std::to_string(mi + 1) + " of " + std::to_string(k_) + " (" + group_[mi] +
             (confirming_.count(mi) ? ", confirming" : "") + ")";
    }
    line += "  " + std::to_string(done_) + "/" + std::to_string(k_) + " done" + (run.empty() ? "" : "; running " + run);
  }
  char el[32];
  std::snprintf(el, sizeof el, "  %.1f s", s);
  line += el;
  if (line.size() > 150) line = line.substr(0, 147) + "...";
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

}  // namespace cz
