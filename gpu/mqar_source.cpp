#include "gpu/mqar_source.h"

#include <stdexcept>

namespace cz::gpu {

std::optional<TriplesSource> triples_source(const mqar::Domain& dom) {
  if (dom.triples_n == 0 || dom.triples_n > static_cast<std::size_t>(kMaxTriples) || dom.triples_c < dom.triples_n ||
      dom.triples_c > (std::size_t{1} << 31))
    return std::nullopt;
  TriplesSource s;
  if (dom.exhaustive) {
    try {
      s.shape = triples_shape(static_cast<int>(dom.triples_n), static_cast<int>(dom.triples_c));
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
    if (s.shape.instances != dom.count) return std::nullopt;
    return s;
  }
  s.sampled = true;
  s.seed = dom.triples_seed;
  s.shape.n = static_cast<int>(dom.triples_n);
  s.shape.c = static_cast<int>(dom.triples_c);
  s.shape.instances = dom.count;
  return s;
}

}  // namespace cz::gpu
