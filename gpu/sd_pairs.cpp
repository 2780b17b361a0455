#include "gpu/sd_pairs_shape.h"

namespace cz::gpu {

std::optional<SdShape> sd_shape(int kind, unsigned n, std::uint64_t kmax, std::uint64_t a, std::uint64_t b, bool exhaustive,
                                std::uint64_t seed) {
  if (n < 1 || n > 24) return std::nullopt;
  SdShape s;
  s.kind = kind;
  s.n = n;
  s.U = std::uint64_t(1) << n;
  s.kmax = kmax;
  s.a = a;
  s.b = b;
  s.exhaustive = exhaustive;
  s.seed = seed;
  const std::uint64_t cap = kSdMaxSet;
  if (kind == SdShape::Subsets) {
    if (s.U > cap || (exhaustive && s.U >= 32)) return std::nullopt;  // tasks/sd.cpp enumerates n <= 4
  } else if (kind == SdShape::Orders) {
    if ((kmax < s.U ? kmax : s.U) > cap) return std::nullopt;
    if (exhaustive) {  // the number of sequences must fit (the exhaustive count does, <= 2^32)
      unsigned __int128 total = 0;
      for (std::uint64_t l = 0; l <= kmax && l <= s.U; ++l) {
        unsigned __int128 f = 1;
        for (std::uint64_t i = 0; i < l && f <= UINT64_MAX; ++i) f *= (s.U - i);
        total += f;
        if (total > UINT64_MAX) return std::nullopt;
      }
      s.seqs = static_cast<std::uint64_t>(total);
    }
  } else if (kind == SdShape::Sized) {
    if (a > cap || b > cap || a > s.U || b > s.U) return std::nullopt;
    if (exhaustive) {
      unsigned __int128 c = 1;
      for (std::uint64_t i = 0; i < b; ++i) {
        c = c * (s.U - i) / (i + 1);
        if (c > UINT64_MAX) return std::nullopt;
      }
      s.cb = static_cast<std::uint64_t>(c);
    }
  } else {
    return std::nullopt;
  }
  return s;
}

}  // namespace cz::gpu
