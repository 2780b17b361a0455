// A one-instance-per-thread kernel over `count` instances with a capped grid (issue 29 item 7):
// grid_shape gives the launch (at most max_blocks blocks, so the block count always fits the
// launch's unsigned gridDim.x: the old `unsigned(ceil(count / 128))` wrapped at count >= 2^39 and
// left those instances unchecked), grid_stride walks thread tid's instances tid, tid + stride, ...,
// and FailTally is what a thread, then a warp, keeps: the failures and the smallest failing index
// (one atomicAdd and one atomicMin per warp, gpu/warp_tally.cuh).
// CZ_HD: the kernel runs this text; the CPU twin (tests/gpu/test_grid_stride.cpp) runs it with a
// tiny grid so a missing stride loop shows on a few hundred instances.
#pragma once
#include <cstdint>

#include "gpu/hd.h"

namespace cz::gpu {

struct GridShape {
  std::uint32_t blocks = 0;
  std::uint32_t threads = 0;
  CZ_HD std::uint64_t size() const { return std::uint64_t(blocks) * threads; }
};

// Blocks = min(ceil(count / threads), max_blocks); count / threads first, so count near 2^64 does
// not overflow. 0 blocks for count 0 (the caller launches nothing).
CZ_HD GridShape grid_shape(std::uint64_t count, std::uint32_t threads, std::uint32_t max_blocks) {
  const std::uint64_t need = count / threads + (count % threads != 0);
  return {static_cast<std::uint32_t>(need < max_blocks ? need : max_blocks), threads};
}

// f(t) for t = tid, tid + stride, ... < count; stops before t + stride could pass 2^64.
template <class F>
CZ_HD void grid_stride(std::uint64_t tid, std::uint64_t stride, std::uint64_t count, F&& f) {
  for (std::uint64_t t = tid; t < count; t += stride) {
    f(t);
    if (count - t <= stride) break;
  }
}

struct FailTally {
  std::uint64_t failed = 0;
  std::uint64_t first = ~std::uint64_t(0);  // none
  CZ_HD void fail(std::uint64_t k) {
    ++failed;
    if (k < first) first = k;
  }
  CZ_HD void merge(const FailTally& o) {
    failed += o.failed;
    if (o.first < first) first = o.first;
  }
};

// A warp's smallest failing index from 32-bit minima (issue 29 item 6: sm_80's __reduce_min_sync
// is 32-bit only): the least high half over the warp, then the least low half among the lanes with
// that high half. gpu/warp_tally.cuh reduces with these keys; the twin test reduces them on the CPU.
CZ_HD std::uint32_t min_hi_key(std::uint64_t x) { return static_cast<std::uint32_t>(x >> 32); }
CZ_HD std::uint32_t min_lo_key(std::uint64_t x, std::uint32_t hi) {
  return static_cast<std::uint32_t>(x >> 32) == hi ? static_cast<std::uint32_t>(x) : ~std::uint32_t(0);
}
CZ_HD std::uint64_t min_join(std::uint32_t hi, std::uint32_t lo) { return (std::uint64_t(hi) << 32) | lo; }

}  // namespace cz::gpu
