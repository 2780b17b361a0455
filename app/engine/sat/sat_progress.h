// Progress of `verify --method sat` on stderr (issue 27, item 5): the solver phase, which miters
// are running (miter i of k, with its group), how many are done, and the elapsed time, redrawn on
// one line every 200 ms. Drawn only when enabled and stderr is a terminal, and the line is wiped
// when the run ends, so stdout (and a redirected stderr) hold the same bytes with or without it.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <map>
#include <set>
#include <string>
#include <thread>

namespace cz {

class SatProgress {
 public:
  SatProgress(bool enabled, std::size_t miters);
  ~SatProgress();
  SatProgress(const SatProgress&) = delete;
  SatProgress& operator=(const SatProgress&) = delete;
  bool on() const { return on_; }
  // From any thread.
  void phase(const std::string& p);                          // "encoding", "solving", ...
  void started(std::size_t mi, const std::string& group);    // miter mi (0-based) began
  void confirming(std::size_t mi);                           // its UNSAT goes to the second solver
  void finished(std::size_t mi);

 private:
  void loop();
  void draw();
  bool on_;
  std::size_t k_;
  std::chrono::steady_clock::time_point t0_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::string phase_ = "encoding";
  std::set<std::size_t> running_, confirming_;
  std::map<std::size_t, std::string> group_;
  std::size_t done_ = 0;
  std::thread th_;
};

}  // namespace cz
