// Host side of gpu/sd_pairs.h: the device shape of an SD domain, or none when an instance could
// hold more than kSdMaxSet elements per set (then the domain stays on the CPU).
#pragma once
#include <cstdint>
#include <optional>

#include "gpu/sd_pairs.h"

namespace cz::gpu {

// kind as SdShape::Kind; parameters as sdc::SdDomain (n, kmax, a, b, exhaustive, seed).
std::optional<SdShape> sd_shape(int kind, unsigned n, std::uint64_t kmax, std::uint64_t a, std::uint64_t b, bool exhaustive,
                                std::uint64_t seed);

}  // namespace cz::gpu
