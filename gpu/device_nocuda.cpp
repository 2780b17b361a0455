// CZ_CUDA=OFF: no device, ever (device.cu is the CUDA build's twin of this file).
#include "gpu/device.h"

namespace cz::gpu {

std::string DeviceInfo::label() const { return ""; }

const DeviceInfo& cuda_device() {
  static const DeviceInfo info = [] {
    DeviceInfo d;
    d.why_not = "this build has no CUDA backend (configure with -DCZ_CUDA=ON where nvcc is installed)";
    return d;
  }();
  return info;
}

bool built_with_cuda() { return false; }

}  // namespace cz::gpu
