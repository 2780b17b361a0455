// The CUDA launch of the program kernel (gpu/program_kernel.h): a capped grid striding over the
// instances (gpu/grid_stride.h); failures counted with atomicAdd and the smallest failing index kept
// with atomicMin, once per warp (gpu/warp_tally.cuh). program_launch.cu in a CUDA build;
// program_launch_nocuda.cpp (throws) otherwise. Light: no CUDA headers here.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu/program_kernel.h"

namespace cz::gpu {

class ProgramLaunch {
 public:
  // Uploads the bytecode once; throws std::runtime_error without a CUDA device or backend.
  ProgramLaunch(const ProgramJob& job, const std::vector<ProgInsn>& code);
  ~ProgramLaunch();
  ProgramLaunch(const ProgramLaunch&) = delete;
  ProgramLaunch& operator=(const ProgramLaunch&) = delete;
  // Instances [k0, k0 + count): how many fail, and the smallest failing index (UINT64_MAX: none).
  void run(std::uint64_t k0, std::uint64_t count, std::uint64_t& failed, std::uint64_t& first);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cz::gpu
