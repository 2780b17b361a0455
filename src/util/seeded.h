// Seeded randomness that depends only on (seed, instance index), so a sampled domain gives the
// same instances, and the same report, for any thread count.
#pragma once
#include <cstdint>

#include "util/hd.h"  // CZ_HD: the GPU draws the same instances (issue 12, gpu/mqar_sampled.h)

namespace cz {

CZ_HD std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A small PRNG stream for instance k of a domain seeded with `seed`.
class InstanceRng {
 public:
  CZ_HD InstanceRng(std::uint64_t seed, std::uint64_t k) : s_(splitmix64(seed * 0x2545f4914f6cdd1dULL ^ splitmix64(k))) {}
  CZ_HD std::uint64_t next() { return s_ = splitmix64(s_); }
  // Uniform in [0, n) (n > 0), by rejection so there is no modulo bias.
  CZ_HD std::uint64_t below(std::uint64_t n) {
    std::uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
      std::uint64_t x = next();
      if (x < lim) return x % n;
    }
  }
  CZ_HD std::int64_t in_range(std::int64_t lo, std::int64_t hi) {  // inclusive
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }

 private:
  std::uint64_t s_;
};

}  // namespace cz
