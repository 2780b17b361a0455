// Stands in for modmodel_launch.cu when CZ_CUDA is off (gpu/CMakeLists.txt).
#include <stdexcept>

#include "gpu/modmodel_launch.h"

namespace cz::gpu {

std::unique_ptr<ModModelDevice> make_mod_device(const ModModelView&, std::uint64_t, std::uint64_t) {
  throw std::runtime_error("this build has no CUDA backend (configure with -DCZ_CUDA=ON where nvcc is installed)");
}

}  // namespace cz::gpu
