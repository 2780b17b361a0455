// MQAR triples instances generated where they are checked (issue 12): instance k of the exhaustive
// triples domain, in the order of mqar::triples_instance and mqar::TriplesUnranker (the key
// injection's lexicographic rank, then the values, then the queries, position n-1 fastest), and
// its reference answers (Zoology Alg. 9 as in tasks/mqar_block.h: query i looks up the LAST j < i
// whose key equals it; -1 = no answer). CZ_HD: the same text runs on the GPU and in the CPU twin;
// tests/gpu compares it with TriplesUnranker on every instance of small domains.
#pragma once
#include <cstdint>

#include "gpu/hd.h"

namespace cz::gpu {

inline constexpr int kMaxTriples = 16;

struct TriplesShape {
  int n = 0, c = 0;
  std::uint64_t cn = 1;                           // c^n: values (and queries) per key injection
  std::uint64_t block[kMaxTriples] = {};          // block[i] = P(c-i-1, n-i-1): injections per choice at i
  std::uint64_t instances = 0;                    // P(c, n) · c^n · c^n
};

// Host side: throws std::invalid_argument unless 1 <= n <= kMaxTriples, n <= c and the count fits
// in 64 bits (the CPU domain refuses the same).
TriplesShape triples_shape(int n, int c);

// Tokens of instance k: keys[i], vals[i], qs[i] for triple i (rows 3i, 3i+1, 3i+2).
CZ_HD void triples_unrank(const TriplesShape& s, std::uint64_t k, std::int32_t* keys, std::int32_t* vals,
                          std::int32_t* qs) {
  std::uint64_t qi = k % s.cn, rest = k / s.cn;
  std::uint64_t vi = rest % s.cn, rank = rest / s.cn;
  for (int i = s.n; i-- > 0;) {
    qs[i] = static_cast<std::int32_t>(qi % static_cast<std::uint64_t>(s.c));
    qi /= static_cast<std::uint64_t>(s.c);
    vals[i] = static_cast<std::int32_t>(vi % static_cast<std::uint64_t>(s.c));
    vi /= static_cast<std::uint64_t>(s.c);
  }
  // The injection of rank `rank`: at position i, the idx-th smallest token not yet chosen
  // (t = idx + #{chosen <= t}, iterated to its fixed point; no pool array on the device).
  for (int i = 0; i < s.n; ++i) {
    const std::uint64_t idx = rank / s.block[i];
    rank %= s.block[i];
    std::uint64_t t = idx;
    for (;;) {
      std::uint64_t below = 0;
      for (int j = 0; j < i; ++j) below += static_cast<std::uint64_t>(keys[j]) <= t;
      if (idx + below == t) break;
      t = idx + below;
    }
    keys[i] = static_cast<std::int32_t>(t);
  }
}

// Reference answers, written from the task's definition (not from any construction).
CZ_HD void triples_reference(int n, const std::int32_t* keys, const std::int32_t* vals, const std::int32_t* qs,
                             std::int32_t* ans) {
  for (int i = 0; i < n; ++i) {
    std::int32_t a = -1;
    for (int j = 0; j < i; ++j)
      if (keys[j] == qs[i]) a = vals[j];
    ans[i] = a;
  }
}

}  // namespace cz::gpu
