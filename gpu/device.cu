// CZ_CUDA=ON: asks the CUDA runtime (linked statically) for the current device. On a machine
// without a driver or GPU the runtime answers an error, which becomes why_not.
#include <cuda_runtime.h>

#include <cstdlib>
#include <string>

#include "gpu/device.h"

namespace cz::gpu {

std::string DeviceInfo::label() const {
  if (!present) return "";
  return "cuda:" + std::to_string(index) + " (" + name + ", sm_" + std::to_string(major) + std::to_string(minor) + ")";
}

const DeviceInfo& cuda_device() {
  static const DeviceInfo info = [] {
    DeviceInfo d;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
      d.why_not = std::string("no CUDA device (") + (e != cudaSuccess ? cudaGetErrorString(e) : "none found") + ")";
      cudaGetLastError();  // clear the sticky error
      return d;
    }
    // Under mpirun or srun, ranks on one node take the node's GPUs round-robin by local rank.
    for (const char* var : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
      if (const char* v = std::getenv(var)) {
        cudaSetDevice(std::atoi(v) % n);
        break;
      }
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
      d.why_not = "no CUDA device (cudaGetDeviceProperties failed)";
      return d;
    }
    d.present = true;
    d.index = dev;
    d.name = p.name;
    d.sm_count = p.multiProcessorCount;
    d.major = p.major;
    d.minor = p.minor;
    d.global_bytes = p.totalGlobalMem;
    return d;
  }();
  return info;
}

bool built_with_cuda() { return true; }

}  // namespace cz::gpu
