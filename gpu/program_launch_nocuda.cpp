// CZ_CUDA=OFF: program_launch.cu's stand-in; there is no device to launch on.
#include <stdexcept>

#include "gpu/program_launch.h"

namespace cz::gpu {

struct ProgramLaunch::Impl {};

ProgramLaunch::ProgramLaunch(const ProgramJob&, const std::vector<ProgInsn>&) {
  throw std::runtime_error("this build has no CUDA backend (configure with -DCZ_CUDA=ON where nvcc is installed)");
}
ProgramLaunch::~ProgramLaunch() = default;
void ProgramLaunch::run(std::uint64_t, std::uint64_t, std::uint64_t&, std::uint64_t&) {}

}  // namespace cz::gpu
