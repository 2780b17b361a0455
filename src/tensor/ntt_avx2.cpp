// AVX2 NTT kernels (8 lanes of 32 bits), the lazy butterflies of ntt_arith.h: large stages two at
// a time (radix 2², one pass over the array per two stages: at L = 2^17 a channel is 512 KiB and
// leaves L1, so passes, not multiplies, are what the large stages cost), the stages within a
// 8 KiB block per block, and the last three stages in registers.
#include <immintrin.h>

#include "tensor/ntt_arith.h"
#include "tensor/ntt_kernels.h"

namespace cz::ntt_kernels {

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

#define CZ_AVX2 __attribute__((target("avx2"))) inline
namespace {

CZ_AVX2 __m256i ld(const std::uint32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
CZ_AVX2 void st(std::uint32_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
// x < 2m → x mod m: min(x, x − m) as unsigned picks x − m exactly when x ≥ m.
CZ_AVX2 __m256i v_red(__m256i x, __m256i m) { return _mm256_min_epu32(x, _mm256_sub_epi32(x, m)); }
CZ_AVX2 __m256i v_mulhi(__m256i a, __m256i b) {
  const __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(a, b), 32);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
  return _mm256_blend_epi32(even, odd, 0xAA);
}
CZ_AVX2 __m256i v_shoup(__m256i a, __m256i w, __m256i wp, __m256i p) {
  const __m256i q = v_mulhi(a, wp);
  return _mm256_sub_epi32(_mm256_mullo_epi32(a, w), _mm256_mullo_epi32(q, p));
}
CZ_AVX2 __m256i v_mont(__m256i a, __m256i b, __m256i p, __m256i pneg) {
  const __m256i te = _mm256_mul_epu32(a, b);
  const __m256i to = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
  const __m256i ue = _mm256_add_epi64(te, _mm256_mul_epu32(_mm256_mul_epu32(te, pneg), p));
  const __m256i uo = _mm256_add_epi64(to, _mm256_mul_epu32(_mm256_mul_epu32(to, pneg), p));
  return _mm256_blend_epi32(_mm256_srli_epi64(ue, 32), uo, 0xAA);
}

struct VP {
  __m256i p, p2;
};
CZ_AVX2 VP vp(std::uint32_t p) { return {_mm256_set1_epi32(static_cast<int>(p)), _mm256_set1_epi32(static_cast<int>(2 * p))}; }

// Gentleman–Sande (forward) and Cooley–Tukey (inverse) butterflies, as in ntt_fwd_stage / ntt_inv_stage.
CZ_AVX2 void bf_fwd(__m256i& x, __m256i& y, __m256i w, __m256i wp, const VP& c) {
  const __m256i s = v_red(_mm256_add_epi32(x, y), c.p2);
  y = v_shoup(_mm256_add_epi32(_mm256_sub_epi32(x, y), c.p2), w, wp, c.p);
  x = s;
}
CZ_AVX2 void bf_inv(__m256i& x, __m256i& y, __m256i w, __m256i wp, const VP& c) {
  const __m256i r = v_red(x, c.p2);
  const __m256i t = v_shoup(y, w, wp, c.p);
  x = _mm256_add_epi32(r, t);
  y = _mm256_add_epi32(_mm256_sub_epi32(r, t), c.p2);
}

struct Tw {
  const std::uint32_t *w, *wp;
  CZ_AVX2 __m256i W(std::size_t i) const { return ld(w + i); }
  CZ_AVX2 __m256i P(std::size_t i) const { return ld(wp + i); }
};

// Forward stage h (h ≥ 8); uz: the upper input of every butterfly is zero (unread).
CZ_AVX2 void fwd_stage(std::uint32_t* a, std::size_t len, std::size_t h, const Tw& t, const VP& c, bool uz) {
  const __m256i zero = _mm256_setzero_si256();
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; j += 8) {
      __m256i x = ld(a + s + j), y = uz ? zero : ld(a + s + j + h);
      bf_fwd(x, y, t.W(h + j), t.P(h + j), c);
      st(a + s + j, x);
      st(a + s + j + h, y);
    }
}
// Forward stages h and h/2 in one pass (h/2 ≥ 8): quartets (j, j+q, j+h, j+h+q), q = h/2.
CZ_AVX2 void fwd_pass2(std::uint32_t* a, std::size_t len, std::size_t h, const Tw& t, const VP& c, bool uz) {
  const std::size_t q = h / 2;
  const __m256i zero = _mm256_setzero_si256();
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < q; j += 8) {
      std::uint32_t* b = a + s + j;
      __m256i x0 = ld(b), x1 = ld(b + q), x2 = uz ? zero : ld(b + h), x3 = uz ? zero : ld(b + h + q);
      bf_fwd(x0, x2, t.W(h + j), t.P(h + j), c);
      bf_fwd(x1, x3, t.W(h + q + j), t.P(h + q + j), c);
      const __m256i w = t.W(q + j), wp = t.P(q + j);
      bf_fwd(x0, x1, w, wp, c);
      bf_fwd(x2, x3, w, wp, c);
      st(b, x0), st(b + q, x1), st(b + h, x2), st(b + h + q, x3);
    }
}
// Stages h = hi, hi/2, ..., lo (lo ≥ 8) over a[0, len), two at a time where two remain.
CZ_AVX2 void fwd_range(std::uint32_t* a, std::size_t len, std::size_t hi, std::size_t lo, const Tw& t, const VP& c,
                       bool uz) {
  for (std::size_t h = hi; h >= lo; uz = false) {
    if (h / 2 >= lo) {
      fwd_pass2(a, len, h, t, c, uz);
      h >>= 2;
    } else {
      fwd_stage(a, len, h, t, c, uz);
      h >>= 1;
    }
  }
}

// Inverse stage h (h ≥ 8); lo: only the lower outputs are stored (the truncated last stage).
CZ_AVX2 void inv_stage(std::uint32_t* a, std::size_t len, std::size_t h, const Tw& t, const VP& c, bool lo) {
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; j += 8) {
      __m256i x = ld(a + s + j), y = ld(a + s + j + h);
      bf_inv(x, y, t.W(h + j), t.P(h + j), c);
      st(a + s + j, x);
      if (!lo) st(a + s + j + h, y);
    }
}
// Inverse stages h and 2h in one pass (h ≥ 8); lo: stage 2h is the truncated last one.
CZ_AVX2 void inv_pass2(std::uint32_t* a, std::size_t len, std::size_t h, const Tw& t, const VP& c, bool lo) {
  for (std::size_t s = 0; s < len; s += 4 * h)
    for (std::size_t j = 0; j < h; j += 8) {
      std::uint32_t* b = a + s + j;
      __m256i x0 = ld(b), x1 = ld(b + h), x2 = ld(b + 2 * h), x3 = ld(b + 3 * h);
      const __m256i w = t.W(h + j), wp = t.P(h + j);
      bf_inv(x0, x1, w, wp, c);
      bf_inv(x2, x3, w, wp, c);
      bf_inv(x0, x2, t.W(2 * h + j), t.P(2 * h + j), c);
      bf_inv(x1, x3, t.W(3 * h + j), t.P(3 * h + j), c);
      st(b, x0), st(b + h, x1);
      if (!lo) st(b + 2 * h, x2), st(b + 3 * h, x3);
    }
}
// Stages h = lo, 2lo, ..., hi over a[0, len); trunc: the stage of half-size len/2 keeps the lower half only.
CZ_AVX2 void inv_range(std::uint32_t* a, std::size_t len, std::size_t lo, std::size_t hi, const Tw& t, const VP& c,
                       bool trunc) {
  for (std::size_t h = lo; h <= hi;) {
    if (2 * h <= hi) {
      inv_pass2(a, len, h, t, c, trunc && 4 * h == len);
      h <<= 2;
    } else {
      inv_stage(a, len, h, t, c, trunc && 2 * h == len);
      h <<= 1;
    }
  }
}

// Stages h = 4, 2, 1 on 16 entries held in two registers A = a[0..8), B = a[8..16).
// Split into X (first of each pair) and Y (second), butterfly, merge back:
//   h=4: X = [A.lo, B.lo], Y = [A.hi, B.hi]            (permute2x128 0x20 / 0x31, self-inverse)
//   h=2: X = unpacklo_epi64(A, B), Y = unpackhi_epi64   (merge: the same unpacks of X', Y')
//   h=1: X = even entries, Y = odd (shuffle_ps 2020/3131; merge: unpacklo/hi_epi32 of X', Y')
struct Small {
  __m256i w4, wp4, w2, wp2, w1, wp1;
};
CZ_AVX2 __m256i rep4(const std::uint32_t* t) {
  return _mm256_setr_epi32(int(t[4]), int(t[5]), int(t[6]), int(t[7]), int(t[4]), int(t[5]), int(t[6]), int(t[7]));
}
CZ_AVX2 __m256i rep2(const std::uint32_t* t) {
  return _mm256_setr_epi32(int(t[2]), int(t[3]), int(t[2]), int(t[3]), int(t[2]), int(t[3]), int(t[2]), int(t[3]));
}
CZ_AVX2 Small small_tw(const Tw& t) {
  return {rep4(t.w), rep4(t.wp), rep2(t.w), rep2(t.wp), _mm256_set1_epi32(int(t.w[1])), _mm256_set1_epi32(int(t.wp[1]))};
}
CZ_AVX2 void split4(__m256i A, __m256i B, __m256i& X, __m256i& Y) {
  X = _mm256_permute2x128_si256(A, B, 0x20);
  Y = _mm256_permute2x128_si256(A, B, 0x31);
}
CZ_AVX2 void split2(__m256i A, __m256i B, __m256i& X, __m256i& Y) {
  X = _mm256_unpacklo_epi64(A, B);
  Y = _mm256_unpackhi_epi64(A, B);
}
CZ_AVX2 void split1(__m256i A, __m256i B, __m256i& X, __m256i& Y) {
  X = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(A), _mm256_castsi256_ps(B), 0x88));  // 2,0,2,0
  Y = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(A), _mm256_castsi256_ps(B), 0xDD));  // 3,1,3,1
}
CZ_AVX2 void merge1(__m256i X, __m256i Y, __m256i& A, __m256i& B) {
  A = _mm256_unpacklo_epi32(X, Y);
  B = _mm256_unpackhi_epi32(X, Y);
}

CZ_AVX2 void fwd_tail16(std::uint32_t* a, std::size_t len, const Small& t, const VP& c) {
  for (std::size_t s = 0; s < len; s += 16) {
    __m256i A = ld(a + s), B = ld(a + s + 8), X, Y;
    split4(A, B, X, Y);
    bf_fwd(X, Y, t.w4, t.wp4, c);
    split4(X, Y, A, B);
    split2(A, B, X, Y);
    bf_fwd(X, Y, t.w2, t.wp2, c);
    split2(X, Y, A, B);
    split1(A, B, X, Y);
    bf_fwd(X, Y, t.w1, t.wp1, c);
    merge1(X, Y, A, B);
    st(a + s, A);
    st(a + s + 8, B);
  }
}
CZ_AVX2 void inv_head16(std::uint32_t* a, std::size_t len, const Small& t, const VP& c) {
  for (std::size_t s = 0; s < len; s += 16) {
    __m256i A = ld(a + s), B = ld(a + s + 8), X, Y;
    split1(A, B, X, Y);
    bf_inv(X, Y, t.w1, t.wp1, c);
    merge1(X, Y, A, B);
    split2(A, B, X, Y);
    bf_inv(X, Y, t.w2, t.wp2, c);
    split2(X, Y, A, B);
    split4(A, B, X, Y);
    bf_inv(X, Y, t.w4, t.wp4, c);
    split4(X, Y, A, B);
    st(a + s, A);
    st(a + s + 8, B);
  }
}

}  // namespace

__attribute__((target("avx2"))) void forward_avx2(std::uint32_t* a, const NttTable& t, bool half_zero) {
  const std::size_t L = std::size_t{1} << t.log_len;
  const VP c = vp(t.p);
  const Tw tw{t.w.data(), t.wpre.data()};
  const std::size_t blk = L < kBlock ? L : kBlock;
  if (L > blk) fwd_range(a, L, L / 2, blk, tw, c, half_zero), half_zero = false;
  const Small sm = small_tw(tw);
  for (std::size_t b = 0; b < L; b += blk) {
    fwd_range(a + b, blk, blk / 2, 8, tw, c, half_zero);
    fwd_tail16(a + b, blk, sm, c);
  }
}

__attribute__((target("avx2"))) void inverse_avx2(std::uint32_t* a, const NttTable& t, std::size_t n_out) {
  const std::size_t L = std::size_t{1} << t.log_len;
  const VP c = vp(t.p);
  const Tw tw{t.iw.data(), t.iwpre.data()};
  const std::size_t blk = L < kBlock ? L : kBlock;
  const bool trunc = 2 * n_out <= L;
  const Small sm = small_tw(tw);
  for (std::size_t b = 0; b < L; b += blk) {
    inv_head16(a + b, blk, sm, c);
    inv_range(a + b, blk, 8, blk / 2, tw, c, trunc && blk == L);
  }
  if (L > blk) inv_range(a, L, blk, L / 2, tw, c, trunc);
  std::size_t i = 0;
  for (; i + 8 <= n_out; i += 8) st(a + i, v_red(v_red(ld(a + i), c.p2), c.p));
  for (; i < n_out; ++i) a[i] = ntt::red_once(ntt::red_once(a[i], 2 * t.p), t.p);
}

__attribute__((target("avx2"))) void pointwise_avx2(std::uint32_t* a, const std::uint32_t* b, std::size_t len,
                                                    std::uint32_t p, std::uint32_t pneg) {
  const __m256i vpp = _mm256_set1_epi32(static_cast<int>(p)), vn = _mm256_set1_epi32(static_cast<int>(pneg));
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) st(a + i, v_mont(ld(a + i), ld(b + i), vpp, vn));
  for (; i < len; ++i) a[i] = ntt::mul_mont(a[i], b[i], p, pneg);
}

__attribute__((target("avx2"))) void mul_const_avx2(std::uint32_t* a, std::size_t len, std::uint32_t w,
                                                    std::uint32_t wpre, std::uint32_t p) {
  const __m256i vw = _mm256_set1_epi32(static_cast<int>(w)), vwp = _mm256_set1_epi32(static_cast<int>(wpre)),
                vpp = _mm256_set1_epi32(static_cast<int>(p));
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) st(a + i, v_shoup(ld(a + i), vw, vwp, vpp));
  for (; i < len; ++i) a[i] = ntt::mul_shoup(a[i], w, wpre, p);
}

}  // namespace cz::ntt_kernels
