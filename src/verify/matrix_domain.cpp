#include "verify/matrix_domain.h"

#include "util/error.h"
#include "util/seeded.h"

namespace cz {

Matrix<std::int64_t> MatrixDomain::instance(std::uint64_t k) const {
  Matrix<std::int64_t> u(N, d, 0);
  if (exhaustive) {
    for (std::size_t b = 0; b < N * d; ++b) u.data()[b] = static_cast<std::int64_t>((k >> b) & 1);
  } else {
    InstanceRng rng(seed, k);
    for (auto& x : u.data()) x = rng.in_range(-range, range);
  }
  return u;
}

std::string MatrixDomain::describe() const {
  const std::string shape = std::to_string(N) + "x" + std::to_string(d);
  if (exhaustive) return "all {0,1}^(" + shape + ") input matrices";
  return std::to_string(count) + " seeded random " + shape + " matrices, entries in [-" + std::to_string(range) + ", " +
         std::to_string(range) + "], seed " + std::to_string(seed);
}

MatrixDomain make_matrix_domain(std::size_t N, std::size_t d, const DomainOptions& opts, std::int64_t range,
                                std::uint64_t default_samples) {
  MatrixDomain dom;
  dom.N = N;
  dom.d = d;
  dom.range = range;
  dom.seed = opts.seed;
  const std::size_t bits = N * d;
  if (opts.force_exhaustive) {
    if (bits > kExhaustiveBitsMax)
      throw InputError("exhaustive domain 2^" + std::to_string(bits) + " is too large (limit 2^32)", "--exhaustive");
    dom.exhaustive = true;
  } else if (opts.samples) {
    dom.exhaustive = false;
  } else {
    dom.exhaustive = bits <= kExhaustiveBitsDefault;
  }
  dom.count = dom.exhaustive ? (std::uint64_t(1) << bits) : (opts.samples ? *opts.samples : default_samples);
  return dom;
}

}  // namespace cz
