// The bit-sliced device path's kernel body (issue 12), written once: the CUDA kernel
// (gpu/lop_launch.cu) runs it per thread and the CPU twin (gpu/lop_check.cpp) per word group.
// One word group = the 32 instances base .. base+31 (base a multiple of 32), lane l = instance
// base + l; `mask` says which lanes are in the range being checked. Slot s of a group lives at
// w[s · stride] (stride = threads, so a warp's accesses are coalesced in shared or global memory).
// A group: instances generated into the input slots, the program run, and each lane compared with
// a reference computed from the task's definition (never from the circuit); the result is the
// mask of failing lanes.
#pragma once
#include <cstdint>

#include "gpu/hd.h"
#include "gpu/lop3.h"
#include "gpu/mqar_sampled.h"

namespace cz::gpu {

inline constexpr std::uint32_t kMaxSortKeys = 64;

enum class LopTaskKind : std::uint32_t {
  EvalOnly,  // no reference: every lane passes (throughput benchmarks)
  Compare,   // circuit/compare: inputs x (d bits, LSB first) then y; outputs lt, eq, min[d], max[d]
  Sort,      // circuit/sort: n keys of d bits; outputs per rank: key (d bits), index (w bits)
  Triples,   // mqar/dyadic on a triples domain (exhaustive, or triples_sampled with its seed)
};

// What is checked. The 0/1 tasks (EvalOnly, Compare, Sort) take instance k as "input i = bit i of
// k" (0 for i >= 64), the enumeration of constructions/circuits/support.cpp.
struct LopTask {
  LopTaskKind kind = LopTaskKind::EvalOnly;
  std::uint32_t n = 0, d = 0, w = 0;  // Compare: d; Sort: n keys, d key bits, w index bits; Triples: n, d code bits
  // Triples: row r of the N×d input holds token r's code (keys, values, queries at rows 3i,
  // 3i+1, 3i+2); query i's outputs are its answer's code (or zeros), then [answer exists] when
  // found. codes: per token, code_words words of code bits (bit j = column j).
  TriplesSource src;
  std::uint32_t out_cols = 0, found = 0, code_words = 0;
  const std::uint32_t* codes = nullptr;
};

// Input word i of the exhaustive 0/1 enumeration for the group at base.
CZ_HD std::uint32_t lop_exhaustive_word(std::uint64_t base, std::uint32_t i) {
  switch (i) {  // bit i of the lane number (no table: a device-side table would sit in local memory)
    case 0: return 0xAAAAAAAAu;
    case 1: return 0xCCCCCCCCu;
    case 2: return 0xF0F0F0F0u;
    case 3: return 0xFF00FF00u;
    case 4: return 0xFFFF0000u;
    default: return (i < 64 && ((base >> i) & 1)) ? ~0u : 0u;
  }
}

CZ_HD std::uint32_t lop_bit(const LopView& p, const std::uint32_t* w, std::uint32_t stride, std::uint32_t o, int lane) {
  return (w[p.out_slot[o] * stride] >> lane) & 1u;
}

CZ_HD void lop_triples_tokens(const LopTask& t, std::uint64_t k, std::int32_t* keys, std::int32_t* vals, std::int32_t* qs) {
  triples_draw(t.src, k, keys, vals, qs);
}

CZ_HD void lop_load_inputs(const LopView& p, const LopTask& t, std::uint64_t base, std::uint32_t mask, std::uint32_t* w,
                           std::uint32_t stride) {
  if (t.kind != LopTaskKind::Triples) {
    for (std::uint32_t i = 0; i < p.n_in; ++i)
      if (p.in_slot[i] != kNoLopSlot) w[p.in_slot[i] * stride] = lop_exhaustive_word(base, i);
    return;
  }
  for (std::uint32_t i = 0; i < p.n_in; ++i)
    if (p.in_slot[i] != kNoLopSlot) w[p.in_slot[i] * stride] = 0;
  std::int32_t tok[3][kMaxTriples];
  for (int lane = 0; lane < 32; ++lane) {
    if (!((mask >> lane) & 1u)) continue;
    lop_triples_tokens(t, base + static_cast<std::uint64_t>(lane), tok[0], tok[1], tok[2]);
    for (std::uint32_t r = 0; r < 3 * t.n; ++r) {
      const std::uint32_t* code = t.codes + static_cast<std::uint32_t>(tok[r % 3][r / 3]) * t.code_words;
      for (std::uint32_t q = 0; q < t.code_words; ++q)
        for (std::uint32_t bits = code[q]; bits; bits &= bits - 1) {
          const std::uint32_t slot = p.in_slot[r * t.d + 32 * q + static_cast<std::uint32_t>(lop_ctz(bits))];
          if (slot != kNoLopSlot) w[slot * stride] |= 1u << lane;
        }
    }
  }
}

CZ_HD void lop_eval(const LopView& p, std::uint32_t* w, std::uint32_t stride) {
  for (std::uint32_t i = 0; i < p.n_ops; ++i) {
    const LopOp o = p.ops[i];
    w[o.dst * stride] = lop3(o.tt, w[o.a * stride], w[o.b * stride], w[o.c * stride]);
  }
}

// Compare: the reference comparator, bit-sliced over the regenerated input words (MSB first:
// lt = x < y, eq = x == y; min = x when x <= y, max the other).
CZ_HD std::uint32_t lop_compare_bad(const LopView& p, const LopTask& t, std::uint64_t base, const std::uint32_t* w,
                                    std::uint32_t stride) {
  std::uint32_t lt = 0, eq = ~0u;
  for (std::uint32_t k = t.d; k-- > 0;) {
    const std::uint32_t x = lop_exhaustive_word(base, k), y = lop_exhaustive_word(base, t.d + k);
    lt |= eq & ~x & y;
    eq &= ~(x ^ y);
  }
  const std::uint32_t le = lt | eq;
  std::uint32_t bad = (w[p.out_slot[0] * stride] ^ lt) | (w[p.out_slot[1] * stride] ^ eq);
  for (std::uint32_t k = 0; k < t.d; ++k) {
    const std::uint32_t x = lop_exhaustive_word(base, k), y = lop_exhaustive_word(base, t.d + k);
    bad |= w[p.out_slot[2 + k] * stride] ^ ((le & x) | (~le & y));
    bad |= w[p.out_slot[2 + t.d + k] * stride] ^ ((le & y) | (~le & x));
  }
  return bad;
}

// Sort: one lane's answer is accepted when its keys are the sorted input keys and its indices a
// permutation with key[idx[i]] = sorted[i] (the network is not stable; circuit/sort's `accept`).
CZ_HD bool lop_sort_ok(const LopView& p, const LopTask& t, std::uint64_t k, const std::uint32_t* w, std::uint32_t stride,
                       int lane) {
  std::uint64_t key[kMaxSortKeys], sorted[kMaxSortKeys];
  for (std::uint32_t i = 0; i < t.n; ++i) {
    std::uint64_t v = 0;
    for (std::uint32_t b = 0; b < t.d; ++b) {
      const std::uint32_t bit = i * t.d + b;
      v |= static_cast<std::uint64_t>(bit < 64 ? (k >> bit) & 1 : 0) << b;
    }
    key[i] = v;
    std::uint32_t j = i;  // insertion sort
    for (; j > 0 && sorted[j - 1] > v; --j) sorted[j] = sorted[j - 1];
    sorted[j] = v;
  }
  std::uint64_t seen = 0;
  for (std::uint32_t i = 0; i < t.n; ++i) {
    const std::uint32_t o = i * (t.d + t.w);
    std::uint64_t kk = 0, ix = 0;
    for (std::uint32_t b = 0; b < t.d; ++b) kk |= static_cast<std::uint64_t>(lop_bit(p, w, stride, o + b, lane)) << b;
    for (std::uint32_t b = 0; b < t.w; ++b) ix |= static_cast<std::uint64_t>(lop_bit(p, w, stride, o + t.d + b, lane)) << b;
    if (kk != sorted[i] || ix >= t.n || ((seen >> ix) & 1) || key[ix] != kk) return false;
    seen |= std::uint64_t{1} << ix;
  }
  return true;
}

// Triples: every query's output columns equal its reference answer's code (zeros when there is
// none), then [answer exists] when the circuit has a found column.
CZ_HD bool lop_triples_ok(const LopView& p, const LopTask& t, std::uint64_t k, const std::uint32_t* w,
                          std::uint32_t stride, int lane) {
  std::int32_t keys[kMaxTriples], vals[kMaxTriples], qs[kMaxTriples], ans[kMaxTriples];
  lop_triples_tokens(t, k, keys, vals, qs);
  triples_reference(static_cast<int>(t.n), keys, vals, qs, ans);
  for (std::uint32_t i = 0; i < t.n; ++i) {
    const std::uint32_t* code = ans[i] < 0 ? nullptr : t.codes + static_cast<std::uint32_t>(ans[i]) * t.code_words;
    for (std::uint32_t j = 0; j < t.out_cols; ++j) {
      std::uint32_t want = 0;
      if (code) want = j < t.d ? (code[j / 32] >> (j % 32)) & 1u : 1u;
      if (lop_bit(p, w, stride, i * t.out_cols + j, lane) != want) return false;
    }
  }
  return true;
}

// Failing lanes of an evaluated group.
CZ_HD std::uint32_t lop_failures(const LopView& p, const LopTask& t, std::uint64_t base, std::uint32_t mask,
                                 const std::uint32_t* w, std::uint32_t stride) {
  if (t.kind == LopTaskKind::EvalOnly) return 0;
  if (t.kind == LopTaskKind::Compare) return lop_compare_bad(p, t, base, w, stride) & mask;
  std::uint32_t bad = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (!((mask >> lane) & 1u)) continue;
    const std::uint64_t k = base + static_cast<std::uint64_t>(lane);
    const bool ok = t.kind == LopTaskKind::Sort ? lop_sort_ok(p, t, k, w, stride, lane) : lop_triples_ok(p, t, k, w, stride, lane);
    if (!ok) bad |= 1u << lane;
  }
  return bad;
}

// The lanes of the group at base (a multiple of 32) inside [lo, hi).
CZ_HD std::uint32_t lop_lane_mask(std::uint64_t base, std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t from = lo > base ? lo - base : 0, to = hi - base < 32 ? hi - base : 32;
  if (from >= to) return 0;
  const std::uint32_t upto = to == 32 ? ~0u : (1u << to) - 1u;
  return upto & ~((1u << from) - 1u);
}

// One group, start to finish: the mask of failing lanes.
CZ_HD std::uint32_t lop_group(const LopView& p, const LopTask& t, std::uint64_t base, std::uint32_t mask, std::uint32_t* w,
                              std::uint32_t stride) {
  lop_load_inputs(p, t, base, mask, w, stride);
  lop_eval(p, w, stride);
  return lop_failures(p, t, base, mask, w, stride);
}

}  // namespace cz::gpu
