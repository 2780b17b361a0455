// Runs one long call of the Python module on a thread of its own while the calling (Python) thread
// watches it (issue 26 item 3): every ~50 ms it takes the GIL, runs Python's signal handlers
// (PyErr_CheckSignals: Ctrl-C raises KeyboardInterrupt there) and calls the `progress` callable
// with (done, total, stage). A KeyboardInterrupt, or any exception the callable raises, cancels
// the work (cz::WorkWatch: the engine stops at its next block), waits for it to stop and
// propagates. The work never touches Python objects, so it runs without the GIL.
#pragma once
#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "util/progress.h"

namespace cz::py_module {

namespace py = pybind11;

template <class F>
auto watched_call(const py::object& progress, F&& work) -> decltype(work()) {
  using Result = decltype(work());
  cz::WorkWatch watch;
  std::optional<Result> result;
  std::exception_ptr error;
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  std::uint64_t reported_done = ~std::uint64_t{0}, reported_stage = 0;
  auto report = [&] {  // under the GIL; only when something moved
    if (progress.is_none()) return;
    const std::uint64_t stage = watch.stage.load(), done = watch.done.load(), total = watch.total.load();
    if (stage == 0 || (done == reported_done && stage == reported_stage)) return;
    reported_done = done;
    reported_stage = stage;
    progress(done, total, watch.current_label());
  };
  std::thread worker;
  {
    py::gil_scoped_release nogil;
    worker = std::thread([&] {
      cz::WatchScope scope(&watch);
      try {
        result.emplace(work());
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mu);
      finished = true;
      cv.notify_all();
    });
  }
  // Stops the work and waits for it (the GIL held: the worker never needs it) before `e` leaves.
  auto cancel_and_join = [&] {
    watch.cancelled = true;
    py::gil_scoped_release nogil;
    worker.join();
  };
  for (;;) {
    bool done_now = false;
    {
      py::gil_scoped_release nogil;
      std::unique_lock<std::mutex> lock(mu);
      done_now = cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished; });
    }
    if (done_now) break;
    if (PyErr_CheckSignals() != 0) {
      py::error_already_set e;  // KeyboardInterrupt (or what a signal handler raised)
      cancel_and_join();
      throw e;
    }
    try {
      report();
    } catch (...) {
      cancel_and_join();
      throw;
    }
  }
  worker.join();
  if (error) std::rethrow_exception(error);
  report();
  return std::move(*result);
}

}  // namespace cz::py_module
