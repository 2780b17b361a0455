// The TriplesSource of a CPU domain (host side of gpu/mqar_sampled.h): exhaustive triples domains
// are unranked, triples_sampled domains are drawn with their seed; any other domain (zoology
// layouts, lists) has none and stays on the CPU.
#pragma once
#include <optional>

#include "gpu/mqar_sampled.h"
#include "tasks/mqar_domain.h"

namespace cz::gpu {

// nullopt when the domain is not a triples domain the device can generate (or n > kMaxTriples).
std::optional<TriplesSource> triples_source(const mqar::Domain& dom);

}  // namespace cz::gpu
