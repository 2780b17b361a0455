#include "constructions/sd/program_device.h"

#include <nlohmann/json.hpp>

#include "gpu/program_check.h"
#include "gpu/sd_pairs_shape.h"

namespace cz::sdc {

std::shared_ptr<const DeviceProgram> sd_program_device(const nlohmann::json& program, const std::string& source,
                                                       const SdDomain& dom, bool exact_min_state, std::string* why) {
  const int kind = dom.kind == SdDomain::Subsets ? gpu::SdShape::Subsets
                   : dom.kind == SdDomain::Orders ? gpu::SdShape::Orders
                                                  : gpu::SdShape::Sized;
  const auto shape = gpu::sd_shape(kind, dom.n, dom.kmax, dom.a, dom.b, dom.exhaustive, dom.seed);
  if (!shape) {
    if (why) *why = "the domain's sets can exceed " + std::to_string(gpu::kSdMaxSet) + " elements";
    return nullptr;
  }
  const auto code = gpu::compile_program(program, source, why);
  if (!code) return nullptr;
  auto dev = gpu::program_device(*code, *shape, exact_min_state);
  if (!dev && why) *why = "the program's n differs from the domain's";
  return dev;
}

}  // namespace cz::sdc
