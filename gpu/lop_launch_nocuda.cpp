// Stand-in for gpu/lop_launch.cu in builds without CUDA (CZ_CUDA=OFF).
#include <stdexcept>

#include "gpu/lop_launch.h"

namespace cz::gpu {

struct LopLauncher::Impl {};

LopLauncher::LopLauncher(const LopView&, std::uint32_t, const LopTask&, bool) {
  throw std::runtime_error("this build has no CUDA backend (configure with CZ_CUDA=ON and nvcc)");
}
LopLauncher::~LopLauncher() = default;
void LopLauncher::run(std::uint64_t, std::uint64_t, std::uint64_t&, std::uint64_t&) {
  throw std::runtime_error("this build has no CUDA backend (configure with CZ_CUDA=ON and nvcc)");
}

}  // namespace cz::gpu
