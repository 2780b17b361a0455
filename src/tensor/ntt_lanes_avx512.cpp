// Lane-batched NTT kernels on AVX-512 (F, BW, DQ, VL): W = 16 channels per row, one 64-byte
// register. Every function of this file, the templates of ntt_lanes_impl.h included, is compiled
// for AVX-512 by the pragma and reached only through kernels_avx512(), which ntt.cpp's dispatch
// hands out only when the CPU has it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC PR 105593, as in ntt_avx512.cpp
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <bit>
#include <climits>
#include <type_traits>

#include "tensor/ntt_lanes.h"

// GCC: a target pragma; clang (the fuzz build) ignores it and takes an attribute on every function
// instead, lambdas' call operators included.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl")
#endif

namespace cz::ntt_lanes {
namespace {

struct V {
  using R = __m512i;
  static constexpr unsigned W = 16;
  static constexpr unsigned kRadix = 3;  // stages per register pass (see LaneConv::radix)
  static R load(const std::uint32_t* a) { return _mm512_loadu_si512(a); }
  static void store(std::uint32_t* a, R x) { _mm512_storeu_si512(a, x); }
  static R zero() { return _mm512_setzero_si512(); }
  static R set1(std::uint32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
  static R add(R a, R b) { return _mm512_add_epi32(a, b); }
  static R sub(R a, R b) { return _mm512_sub_epi32(a, b); }
  static R minu(R a, R b) { return _mm512_min_epu32(a, b); }
  static R mullo(R a, R b) { return _mm512_mullo_epi32(a, b); }
  // b is a broadcast (a twiddle's or a scale's Shoup companion), so its odd words equal its even
  // words and the odd products need no shift of b; the even products' high words move down in the
  // same instruction that merges them (one shuffle, not a shift and a blend).
  static R mulhi(R a, R b) {
    const R even = _mm512_mul_epu32(a, b);
    const R odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), b);
    return _mm512_mask_shuffle_epi32(odd, 0x5555, even, _MM_PERM_DDBB);
  }
  // a·b·2^{-32} mod p, as ntt::mul_mont lane by lane (a·b < p·2^32 → [0, 2p)).
  static R mont(R a, R b, R p, R pneg) {
    const R te = _mm512_mul_epu32(a, b);
    const R to = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32));
    const R ue = _mm512_add_epi64(te, _mm512_mul_epu32(_mm512_mul_epu32(te, pneg), p));
    const R uo = _mm512_add_epi64(to, _mm512_mul_epu32(_mm512_mul_epu32(to, pneg), p));
    return _mm512_mask_shuffle_epi32(uo, 0x5555, ue, _MM_PERM_DDBB);  // the high words, as in mulhi
  }
  // cnt ≤ 16 int64 with |x| < p < 2^30 → x mod p: the low 32 bits are x as int32; + p where < 0.
  // A full row (cnt = 16, the hot case) takes plain loads: on this AMD host masked loads kept the
  // hardware prefetcher from streaming, and the fill of u and h at N = 2^16 took 2.3 ms against
  // 0.8 ms (measured in the convolution). Partial rows are masked: nothing beyond the row is read.
  static __m512i load_i64(const std::int64_t* s, __mmask8 m, bool full) {
    return full ? _mm512_loadu_si512(s) : _mm512_maskz_loadu_epi64(m, s);
  }
  static __mmask8 mask_lo(unsigned cnt) { return cnt >= 8 ? 0xFF : static_cast<__mmask8>((1u << cnt) - 1); }
  static __mmask8 mask_hi(unsigned cnt) {
    return cnt <= 8 ? 0 : cnt >= 16 ? 0xFF : static_cast<__mmask8>((1u << (cnt - 8)) - 1);
  }
  // The low words of the 16 int64 are gathered by one two-source permute (two narrowing moves and
  // an insert cost three).
  static R from_i64(const std::int64_t* s, unsigned cnt, std::uint32_t p) {
    const bool full = cnt == W;
    const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const R x = _mm512_permutex2var_epi32(load_i64(s, mask_lo(cnt), full), even, load_i64(s + 8, mask_hi(cnt), full));
    return _mm512_add_epi32(x, _mm512_and_si512(_mm512_srai_epi32(x, 31), set1(p)));
  }
  // Per-lane min, max and Σ|x| of int64 rows, two registers of 8 lanes each (masked loads: lanes
  // beyond cnt see 0 and are not reported).
  struct Acc {
    __m512i mn[2], mx[2], l1[2];
  };
  static Acc acc_init() {
    const __m512i lo = _mm512_set1_epi64(INT64_MIN), hi = _mm512_set1_epi64(INT64_MAX), z = _mm512_setzero_si512();
    return Acc{{hi, hi}, {lo, lo}, {z, z}};
  }
  static void acc_row(Acc& a, const std::int64_t* s, unsigned cnt) {
    const __mmask8 m[2] = {mask_lo(cnt), mask_hi(cnt)};
    for (int k = 0; k < 2; ++k) {
      const __m512i v = load_i64(s + 8 * k, m[k], cnt == W);
      a.mn[k] = _mm512_min_epi64(a.mn[k], v);
      a.mx[k] = _mm512_max_epi64(a.mx[k], v);
      a.l1[k] = _mm512_add_epi64(a.l1[k], _mm512_abs_epi64(v));  // |INT64_MIN| wraps: max then says ≥ p
    }
  }
  static void acc_out(const Acc& a, std::int64_t* mn, std::int64_t* mx, std::uint64_t* l1) {
    for (int k = 0; k < 2; ++k) {
      _mm512_storeu_si512(mn + 8 * k, a.mn[k]);
      _mm512_storeu_si512(mx + 8 * k, a.mx[k]);
      _mm512_storeu_si512(l1 + 8 * k, a.l1[k]);
    }
  }
  // Residues in [0, p) → signed int64 (x > (p−1)/2 ↦ x − p), cnt ≤ 16 lanes stored.
  static void to_i64(R x, std::uint32_t p, std::int64_t* d, unsigned cnt) {
    const __mmask16 big = _mm512_cmpgt_epu32_mask(x, set1((p - 1) / 2));
    const R s = _mm512_mask_sub_epi32(x, big, x, set1(p));
    const __m512i lo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(s));
    const __m512i hi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(s, 1));
    if (cnt == W) {  // plain stores for a full row, as in load_i64
      _mm512_storeu_si512(d, lo);
      _mm512_storeu_si512(d + 8, hi);
      return;
    }
    _mm512_mask_storeu_epi64(d, mask_lo(cnt), lo);
    _mm512_mask_storeu_epi64(d + 8, mask_hi(cnt), hi);
  }
};

#include "tensor/ntt_lanes_impl.h"

}  // namespace

const Kernels& kernels_avx512() {
  static const Kernels k{V::W, lanes_conv<V>, lanes_forward<V>, lanes_fill<V>, lanes_emit<V>, lanes_fold<V>};
  return k;
}

}  // namespace cz::ntt_lanes

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
