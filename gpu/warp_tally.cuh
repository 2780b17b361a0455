// For .cu files only (issue 29 item 6): a warp's failures go to the two global counters with one
// atomicAdd and one atomicMin per warp, not two same-address atomics per failing thread (they
// serialise on the counters' address). The result equals the per-thread atomics: the count is the
// sum, the first the least failing index (the twin merges FailTally the same way).
#pragma once
#include <cstdint>

#include "gpu/grid_stride.h"

namespace cz::gpu {

// Every lane of the warp must call it: the kernels stride (no lane returns early) and launch
// blocks of a multiple of 32 threads.
__device__ __forceinline__ void flush_tally(const FailTally& f, unsigned long long* failed, unsigned long long* first) {
  constexpr unsigned kAll = 0xffffffffu;
  unsigned long long n = f.failed;
  for (int o = 16; o > 0; o >>= 1) n += __shfl_xor_sync(kAll, n, o);
  if (n == 0) return;  // the same sum in every lane: the warp leaves together
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const std::uint32_t hi = __reduce_min_sync(kAll, min_hi_key(f.first));
  const unsigned long long m = min_join(hi, __reduce_min_sync(kAll, min_lo_key(f.first, hi)));
#else
  unsigned long long m = f.first;
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long y = __shfl_xor_sync(kAll, m, o);
    if (y < m) m = y;
  }
#endif
  if ((threadIdx.x & 31u) == 0) {
    atomicAdd(failed, n);
    atomicMin(first, m);
  }
}

}  // namespace cz::gpu
