#include "verify/matrix_domain.h"

#include "util/error.h"
#include "util/seeded.h"

namespace cz {

std::uint64_t power_within(std::uint64_t b, std::size_t e, unsigned bits) {
  const std::uint64_t cap = std::uint64_t{1} << bits;
  std::uint64_t r = 1;
  for (std::size_t i = 0; i < e; ++i) {
    if (r > cap / b) return 0;
    r *= b;
  }
  return r <= cap ? r : 0;
}

namespace {
std::string set_text(std::int64_t lo, std::int64_t hi) {
  std::string s = "{";
  for (std::int64_t v = lo; v <= hi; ++v) s += (v > lo ? "," : "") + std::to_string(v);
  return s + "}";
}
}  // namespace

Matrix<std::int64_t> MatrixDomain::instance(std::uint64_t k) const {
  Matrix<std::int64_t> u(N, d, 0);
  if (k < box) {  // digit b of k in base (hi - lo + 1) is entry b (row-major); {0,1}: bit b, as before
    const std::uint64_t base = static_cast<std::uint64_t>(hi - lo + 1);
    for (auto& x : u.data()) {
      x = lo + static_cast<std::int64_t>(k % base);
      k /= base;
    }
  } else {
    InstanceRng rng(seed, k - box);  // sample j is the j-th of `--samples` with the same seed
    for (auto& x : u.data()) x = rng.in_range(-range, range);
  }
  return u;
}

std::string MatrixDomain::kind() const {
  if (!samples) return "exhaustive";
  return box ? "exhaustive+sampled" : "sampled";
}

std::string MatrixDomain::describe() const {
  const std::string shape = std::to_string(N) + "x" + std::to_string(d);
  std::string out;
  if (box) out = "all " + std::to_string(box) + " matrices in " + set_text(lo, hi) + "^(" + shape + ")";
  if (samples) {
    if (!out.empty()) out += ", then ";
    out += std::to_string(samples) + " seeded random " + shape + " matrices, entries in [-" + std::to_string(range) + ", " +
           std::to_string(range) + "], seed " + std::to_string(seed);
  }
  return out;
}

MatrixDomain make_matrix_domain(std::size_t N, std::size_t d, const DomainOptions& opts, std::int64_t range,
                                std::uint64_t default_samples) {
  MatrixDomain dom;
  dom.N = N;
  dom.d = d;
  dom.range = range;
  dom.seed = opts.seed;
  const std::size_t cells = N * d;
  auto pick_box = [&](unsigned signed_bits, unsigned bits) {
    if (const std::uint64_t n3 = power_within(3, cells, signed_bits)) {
      dom.lo = -1, dom.hi = 1, dom.box = n3;
    } else if (const std::uint64_t n2 = power_within(2, cells, bits)) {
      dom.lo = 0, dom.hi = 1, dom.box = n2;
    }
  };
  if (opts.force_exhaustive) {
    pick_box(kExhaustiveBitsMax, kExhaustiveBitsMax);
    if (!dom.box)
      throw InputError("exhaustive domain 2^" + std::to_string(cells) + " is too large (limit 2^32)", "--exhaustive");
  } else if (opts.samples) {
    dom.samples = *opts.samples;
  } else {
    pick_box(kSignedBoxBitsDefault, kExhaustiveBitsDefault);
    dom.samples = dom.box ? kSamplesBesideBox : default_samples;
  }
  dom.exhaustive = dom.samples == 0;
  dom.count = dom.box + dom.samples;
  return dom;
}

}  // namespace cz
