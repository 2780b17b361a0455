// The CUDA side of the bit-sliced device path (issue 12): the program, the task and its code
// table copied to the device once, then one launch per block of instances (gpu/lop_launch.cu;
// gpu/lop_launch_nocuda.cpp throws in builds without CUDA).
#pragma once
#include <cstdint>
#include <memory>

#include "gpu/lop_kernel.h"

namespace cz::gpu {

class LopLauncher {
 public:
  // prog and task.codes are host pointers (copied to the device here; task.codes holds
  // shape.c · code_words words for Triples); slots: the program's working slots. Throws
  // std::runtime_error when the build or the machine has no CUDA device. global_slots: keep slots
  // in the global scratch even when they would fit in shared memory (so tests reach that path).
  LopLauncher(const LopView& prog, std::uint32_t slots, const LopTask& task, bool global_slots = false);
  ~LopLauncher();
  LopLauncher(const LopLauncher&) = delete;
  LopLauncher& operator=(const LopLauncher&) = delete;
  // Checks [k0, k0 + count): failures counted, and the smallest failing index (UINT64_MAX: none).
  void run(std::uint64_t k0, std::uint64_t count, std::uint64_t& failed, std::uint64_t& first);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cz::gpu
