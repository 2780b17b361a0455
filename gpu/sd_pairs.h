// Set disjointness instances generated where they are checked (issue 12): instance k of the SD
// domains of tasks/sd.h (every subset pair, every ordered pair of sequences, fixed sizes; or their
// seeded samples, the same InstanceRng draws as sd::sample_*), their prompt rows (Remark G.14:
// element rows [x :: 0], one separator [0^n :: 1]; the JRT prompt of Def G.4 repeats u twice) and
// the reference A ∩ B. CZ_HD: the GPU and the CPU twin run this text; tests/gpu/test_sd_pairs.cpp
// compares it with tasks/sd.h on every instance of small domains and on many sampled (seed, k).
#pragma once
#include <cstdint>

#include "gpu/hd.h"
#include "util/seeded.h"

namespace cz::gpu {

inline constexpr int kSdMaxSet = 64;  // elements per set on the device (a fixed per-thread array)

struct SdShape {
  enum Kind : int { Subsets = 0, Orders = 1, Sized = 2 };
  int kind = Subsets;
  unsigned n = 2;                    // element width
  std::uint64_t U = 4;               // 2^n
  std::uint64_t kmax = 3, a = 1, b = 1;
  bool exhaustive = true;
  std::uint64_t seed = 1;
  std::uint64_t seqs = 0;            // exhaustive orders: sequences of length <= kmax
  std::uint64_t cb = 0;              // exhaustive sized: C(U, b)
};

struct SdPair {
  unsigned n = 0;
  int na = 0, nb = 0;
  std::uint32_t A[kSdMaxSet], B[kSdMaxSet];
};

// m·(m-1)···(m-l+1) and C(m, r), for the values the exhaustive domains reach (their counts fit in
// 2^32, so every partial product fits in 64 bits; C is taken on the smaller side r <= m/2).
CZ_HD std::uint64_t sd_falling(std::uint64_t m, std::uint64_t l) {
  if (l > m) return 0;
  std::uint64_t c = 1;
  for (std::uint64_t i = 0; i < l; ++i) c *= (m - i);
  return c;
}
CZ_HD std::uint64_t sd_binom(std::uint64_t m, std::uint64_t r) {
  if (r > m) return 0;
  if (r > m - r) r = m - r;
  std::uint64_t c = 1;
  for (std::uint64_t i = 0; i < r; ++i) c = c * (m - i) / (i + 1);
  return c;
}

// The idx-th smallest element of [0, U) not among chosen[0..m) (t = idx + #{chosen <= t} iterated
// to its fixed point: no used[] array of U entries on the device).
CZ_HD std::uint32_t sd_nth_unused(std::uint64_t idx, const std::uint32_t* chosen, int m) {
  std::uint64_t t = idx;
  for (;;) {
    std::uint64_t below = 0;
    for (int j = 0; j < m; ++j) below += chosen[j] <= t;
    if (idx + below == t) return static_cast<std::uint32_t>(t);
    t = idx + below;
  }
}

// tasks/sd.cpp sequence(): the r-th sequence of distinct elements, lengths increasing, digits
// most significant first, digit = which unused element.
CZ_HD int sd_sequence(std::uint64_t U, std::uint64_t kmax, std::uint64_t r, std::uint32_t* out) {
  for (std::uint64_t l = 0; l <= kmax; ++l) {
    const std::uint64_t f = sd_falling(U, l);
    if (r >= f) {
      r -= f;
      continue;
    }
    for (std::uint64_t i = 0; i < l; ++i) {
      const std::uint64_t rest = sd_falling(U - i - 1, l - i - 1), digit = r / rest;
      r %= rest;
      out[i] = sd_nth_unused(digit, out, static_cast<int>(i));
    }
    return static_cast<int>(l);
  }
  return 0;  // out of range: the host never asks
}

// tasks/sd.cpp combination(): the r-th a-subset of [0, U) in lexicographic order.
CZ_HD int sd_combination(std::uint64_t U, std::uint64_t a, std::uint64_t r, std::uint32_t* out) {
  std::uint64_t x = 0;
  for (std::uint64_t i = 0; i < a; ++i) {
    for (;; ++x) {
      const std::uint64_t with_x = sd_binom(U - x - 1, a - i - 1);
      if (r < with_x) break;
      r -= with_x;
    }
    out[i] = static_cast<std::uint32_t>(x++);
  }
  return static_cast<int>(a);
}

// tasks/sd.cpp distinct_sample(): `count` distinct elements of [0, U), draw for draw. Dense
// (2·count > U, so U < 2·kSdMaxSet): the shuffle of the whole universe; else rejection.
CZ_HD int sd_distinct_sample(std::uint64_t U, std::uint64_t count, InstanceRng& rng, std::uint32_t* out) {
  if (count * 2 > U) {
    std::uint32_t all[2 * kSdMaxSet];
    for (std::uint64_t x = 0; x < U; ++x) all[x] = static_cast<std::uint32_t>(x);
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t j = i + rng.below(U - i);
      const std::uint32_t t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    for (std::uint64_t i = 0; i < count; ++i) out[i] = all[i];
    return static_cast<int>(count);
  }
  int m = 0;
  while (static_cast<std::uint64_t>(m) < count) {
    const auto x = static_cast<std::uint32_t>(rng.below(U));
    bool seen = false;
    for (int j = 0; j < m; ++j) seen = seen || out[j] == x;
    if (!seen) out[m++] = x;
  }
  return m;
}

// Increasing order (insertion sort: at most kSdMaxSet distinct elements).
CZ_HD void sd_sort(std::uint32_t* v, int m) {
  for (int i = 1; i < m; ++i) {
    const std::uint32_t e = v[i];
    int p = i;
    for (; p > 0 && v[p - 1] > e; --p) v[p] = v[p - 1];
    v[p] = e;
  }
}

CZ_HD bool sd_pair_disjoint(const SdPair& x) {
  for (int i = 0; i < x.na; ++i)
    for (int j = 0; j < x.nb; ++j)
      if (x.A[i] == x.B[j]) return false;
  return true;
}

// Instance k of the domain (SdDomain::instance: exhaustive unranking, else InstanceRng(seed, k)).
CZ_HD void sd_pair(const SdShape& s, std::uint64_t k, SdPair& x) {
  x.n = s.n;
  x.na = x.nb = 0;
  if (s.exhaustive) {
    if (s.kind == SdShape::Subsets) {
      const std::uint64_t low = (std::uint64_t(1) << s.U) - 1, ma = (k >> s.U) & low, mb = k & low;
      for (std::uint64_t e = 0; e < s.U; ++e) {
        if ((ma >> e) & 1) x.A[x.na++] = static_cast<std::uint32_t>(e);
        if ((mb >> e) & 1) x.B[x.nb++] = static_cast<std::uint32_t>(e);
      }
    } else if (s.kind == SdShape::Orders) {
      x.na = sd_sequence(s.U, s.kmax, k / s.seqs, x.A);
      x.nb = sd_sequence(s.U, s.kmax, k % s.seqs, x.B);
    } else {
      x.na = sd_combination(s.U, s.a, k / s.cb, x.A);
      x.nb = sd_combination(s.U, s.b, k % s.cb, x.B);
    }
    return;
  }
  InstanceRng rng(s.seed, k);
  if (s.kind == SdShape::Subsets) {  // sd::sample_subset_pair: a coin per element, A then B
    for (std::uint64_t e = 0; e < s.U; ++e)
      if (rng.below(2)) x.A[x.na++] = static_cast<std::uint32_t>(e);
    for (std::uint64_t e = 0; e < s.U; ++e)
      if (rng.below(2)) x.B[x.nb++] = static_cast<std::uint32_t>(e);
  } else if (s.kind == SdShape::Orders) {  // sd::sample_order_pair: a size, then the set; A then B
    const std::uint64_t top = s.kmax < s.U ? s.kmax : s.U;
    x.na = sd_distinct_sample(s.U, rng.below(top + 1), rng, x.A);
    x.nb = sd_distinct_sample(s.U, rng.below(top + 1), rng, x.B);
  } else {  // sd::sample_sized_pair with plant = k odd
    x.na = sd_distinct_sample(s.U, s.a, rng, x.A);
    x.nb = sd_distinct_sample(s.U, s.b, rng, x.B);
    if (k % 2 == 1 && s.a > 0 && s.b > 0 && sd_pair_disjoint(x)) {
      // x.B[below(b)] = x.A[below(a)]: C++17 sequences the right operand first.
      const std::uint64_t ia = rng.below(s.a), ib = rng.below(s.b);
      x.B[ib] = x.A[ia];
    }
    sd_sort(x.A, x.na);  // the sized domain is increasing sets: sorted as sd::sample_sized_pair
    sd_sort(x.B, x.nb);
  }
}

// Rows of the prompt: copies·(|A| + |B| + 1), d = n + 1 columns.
CZ_HD std::uint64_t sd_prompt_rows(const SdPair& x, unsigned copies) {
  return static_cast<std::uint64_t>(copies) * static_cast<std::uint64_t>(x.na + x.nb + 1);
}
// Row i of the prompt [u; ...; u] (sd::repeat_prompt(sd::encode(x), copies)) into row[0..n].
CZ_HD void sd_prompt_row(const SdPair& x, std::uint64_t i, std::int64_t* row) {
  const std::uint64_t N = static_cast<std::uint64_t>(x.na + x.nb + 1), r = i % N;
  const bool sep = r == static_cast<std::uint64_t>(x.na);
  const std::uint32_t e = sep ? 0u : r < static_cast<std::uint64_t>(x.na) ? x.A[r] : x.B[r - x.na - 1];
  for (unsigned b = 0; b < x.n; ++b) row[b] = (e >> b) & 1;
  row[x.n] = sep ? 1 : 0;
}

// The reference A ∩ B in increasing order into out (returns its size), from the definition.
CZ_HD int sd_intersection(const SdPair& x, std::uint32_t* out) {
  int m = 0;
  for (int i = 0; i < x.na; ++i) {
    bool in_b = false;
    for (int j = 0; j < x.nb; ++j) in_b = in_b || x.B[j] == x.A[i];
    if (!in_b) continue;
    int p = m++;  // insertion sort (A's elements are distinct)
    while (p > 0 && out[p - 1] > x.A[i]) {
      out[p] = out[p - 1];
      --p;
    }
    out[p] = x.A[i];
  }
  return m;
}

}  // namespace cz::gpu
