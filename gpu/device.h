// Which CUDA device this process can use (issue 12). Never throws: a build without CUDA
// (CZ_CUDA=OFF) or a machine without a driver or GPU answers present = false with the reason.
#pragma once
#include <string>

namespace cz::gpu {

struct DeviceInfo {
  bool present = false;
  int index = -1;            // the CUDA device used (the current one)
  std::string name;          // e.g. "NVIDIA H200"
  int sm_count = 0, major = 0, minor = 0;
  std::size_t global_bytes = 0;
  std::string why_not;       // when !present: "built without CUDA (CZ_CUDA=OFF)", "no CUDA device", ...
  std::string label() const; // "cuda:0 (NVIDIA H200, sm_90)" or ""
};

// Asked once per process (the answer is cached). Under mpirun/srun a rank uses GPU
// (local rank mod GPUs on the node).
const DeviceInfo& cuda_device();
// Whether this build compiled the CUDA kernels (CZ_CUDA).
bool built_with_cuda();

}  // namespace cz::gpu
