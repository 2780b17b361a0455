// Sampled MQAR triples instances generated where they are checked (issue 12): instance k of
// mqar::triples_sampled(n, c, count, seed), the same draws as mqar::triples_sample. The draws
// come from util/seeded.h's InstanceRng (a counter-based stream of (seed, k), CZ_HD), and the
// partial Fisher-Yates shuffle of the CPU's pool [0, c) is replayed with only the swapped
// positions kept (at most 2n), so no pool of c entries is needed on the device. tests/gpu
// compares it with triples_sample on many (seed, k).
#pragma once
#include <cstdint>

#include "gpu/hd.h"
#include "gpu/mqar_triples.h"
#include "util/seeded.h"

namespace cz::gpu {

CZ_HD void triples_sample_draw(int n, std::uint64_t c, std::uint64_t seed, std::uint64_t k, std::int32_t* keys,
                               std::int32_t* vals, std::int32_t* qs) {
  InstanceRng rng(seed, k);
  std::uint64_t pos[2 * kMaxTriples];
  std::uint64_t val[2 * kMaxTriples];
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t p = static_cast<std::uint64_t>(i), j = p + rng.below(c - p);
    std::uint64_t a = p, b = j;  // pool[i], pool[j]: the identity except where swapped
    int ia = -1, ib = -1;
    for (int q = 0; q < m; ++q) {
      if (pos[q] == p) ia = q, a = val[q];
      if (pos[q] == j) ib = q, b = val[q];
    }
    // swap(pool[i], pool[j])
    if (ia < 0) pos[ia = m++] = p;
    val[ia] = b;
    if (j != p) {
      if (ib < 0) pos[ib = m++] = j;
      val[ib] = a;
    }
    keys[i] = static_cast<std::int32_t>(b);
  }
  for (int i = 0; i < n; ++i) vals[i] = static_cast<std::int32_t>(rng.below(c));
  for (int i = 0; i < n; ++i) {
    const std::uint64_t r = i ? rng.below(4) : 3;
    if (r < 2) qs[i] = keys[rng.below(static_cast<std::uint64_t>(i))];
    else if (r == 2) qs[i] = keys[i];
    else qs[i] = static_cast<std::int32_t>(rng.below(c));
  }
}

// Where a device path's triples instances come from: the exhaustive enumeration (shape) or the
// seeded samples of mqar::triples_sampled (shape.n, shape.c and seed; shape.instances unused).
struct TriplesSource {
  TriplesShape shape;
  bool sampled = false;
  std::uint64_t seed = 0;
};

CZ_HD void triples_draw(const TriplesSource& s, std::uint64_t k, std::int32_t* keys, std::int32_t* vals,
                        std::int32_t* qs) {
  if (s.sampled)
    triples_sample_draw(s.shape.n, static_cast<std::uint64_t>(s.shape.c), s.seed, k, keys, vals, qs);
  else
    triples_unrank(s.shape, k, keys, vals, qs);
}

}  // namespace cz::gpu
