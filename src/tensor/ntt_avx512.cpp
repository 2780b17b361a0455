// AVX-512 NTT kernels (16 lanes of 32 bits; F, BW, DQ, VL), the same lazy butterflies and pass
// structure as ntt_avx2.cpp: large stages two at a time, the stages within an 8 KiB block per
// block, and the last four stages (h = 8, 4, 2, 1) in registers, on 32 entries split into the
// first and second elements of each butterfly by one two-source permutation per register.
// GCC 12 warns inside its own _mm512_undefined_epi32 (used by the intrinsics' headers) that a
// deliberately undefined value "may be used uninitialized" (GCC PR 105593); the values here are
// all defined.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "tensor/ntt_arith.h"
#include "tensor/ntt_kernels.h"

namespace cz::ntt_kernels {

bool cpu_has_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

#define CZ_TGT __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))
#define CZ_AVX512 CZ_TGT inline
namespace {

CZ_AVX512 __m512i ld(const std::uint32_t* p) { return _mm512_loadu_si512(p); }
CZ_AVX512 void st(std::uint32_t* p, __m512i v) { _mm512_storeu_si512(p, v); }
CZ_AVX512 __m512i v_red(__m512i x, __m512i m) { return _mm512_min_epu32(x, _mm512_sub_epi32(x, m)); }
CZ_AVX512 __m512i v_mulhi(__m512i a, __m512i b) {
  const __m512i even = _mm512_srli_epi64(_mm512_mul_epu32(a, b), 32);
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32));
  return _mm512_mask_blend_epi32(0xAAAA, even, odd);
}
CZ_AVX512 __m512i v_shoup(__m512i a, __m512i w, __m512i wp, __m512i p) {
  const __m512i q = v_mulhi(a, wp);
  return _mm512_sub_epi32(_mm512_mullo_epi32(a, w), _mm512_mullo_epi32(q, p));
}
CZ_AVX512 __m512i v_mont(__m512i a, __m512i b, __m512i p, __m512i pneg) {
  const __m512i te = _mm512_mul_epu32(a, b);
  const __m512i to = _mm512_mul_epu32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32));
  const __m512i ue = _mm512_add_epi64(te, _mm512_mul_epu32(_mm512_mul_epu32(te, pneg), p));
  const __m512i uo = _mm512_add_epi64(to, _mm512_mul_epu32(_mm512_mul_epu32(to, pneg), p));
  return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(ue, 32), uo);
}

struct VP {
  __m512i p, p2;
};
CZ_AVX512 VP vp(std::uint32_t p) { return {_mm512_set1_epi32(static_cast<int>(p)), _mm512_set1_epi32(static_cast<int>(2 * p))}; }

CZ_AVX512 void bf_fwd(__m512i& x, __m512i& y, __m512i w, __m512i wp, const VP& c) {
  const __m512i s = v_red(_mm512_add_epi32(x, y), c.p2);
  y = v_shoup(_mm512_add_epi32(_mm512_sub_epi32(x, y), c.p2), w, wp, c.p);
  x = s;
}
CZ_AVX512 void bf_inv(__m512i& x, __m512i& y, __m512i w, __m512i wp, const VP& c) {
  const __m512i r = v_red(x, c.p2);
  const __m512i t = v_shoup(y, w, wp, c.p);
  x = _mm512_add_epi32(r, t);
  y = _mm512_add_epi32(_mm512_sub_epi32(r, t), c.p2);
}

struct Tw {
  const std::uint32_t *w, *wp;
  CZ_AVX512 __m512i W(std::size_t i) const { return ld(w + i); }
  CZ_AVX512 __m512i P(std::size_t i) const { return ld(wp + i); }
};

CZ_AVX512 void fwd_stage(std::uint32_t* a, std::size_t len, std::size_t h, const Tw& t, const VP& c, bool uz) {
  const __m512i zero = _mm512_setzero_si512();
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; j += 16) {
      __m512i x = ld(a + s + j), y = uz ? zero : ld(a + s + j + h);
      bf_fwd(x, y, t.W(h + j), t.P(h + j), c);
      st(a + s + j, x);
      st(a + s + j + h, y);
    }
}
CZ_AVX512 void fwd_pass2(std::uint32_t* a, std::size_t len, std::size_t h, const Tw& t, const VP& c, bool uz) {
  const std::size_t q = h / 2;
  const __m512i zero = _mm512_setzero_si512();
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < q; j += 16) {
      std::uint32_t* b = a + s + j;
      __m512i x0 = ld(b), x1 = ld(b + q), x2 = uz ? zero : ld(b + h), x3 = uz ? zero : ld(b + h + q);
      bf_fwd(x0, x2, t.W(h + j), t.P(h + j), c);
      bf_fwd(x1, x3, t.W(h + q + j), t.P(h + q + j), c);
      const __m512i w = t.W(q + j), wp = t.P(q + j);
      bf_fwd(x0, x1, w, wp, c);
      bf_fwd(x2, x3, w, wp, c);
      st(b, x0), st(b + q, x1), st(b + h, x2), st(b + h + q, x3);
    }
}
CZ_AVX512 void fwd_range(std::uint32_t* a, std::size_t len, std::size_t hi, std::size_t lo, const Tw& t, const VP& c,
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

CZ_AVX512 void inv_stage(std::uint32_t* a, std::size_t len, std::size_t h, const Tw& t, const VP& c, bool lo) {
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; j += 16) {
      __m512i x = ld(a + s + j), y = ld(a + s + j + h);
      bf_inv(x, y, t.W(h + j), t.P(h + j), c);
      st(a + s + j, x);
      if (!lo) st(a + s + j + h, y);
    }
}
CZ_AVX512 void inv_pass2(std::uint32_t* a, std::size_t len, std::size_t h, const Tw& t, const VP& c, bool lo) {
  for (std::size_t s = 0; s < len; s += 4 * h)
    for (std::size_t j = 0; j < h; j += 16) {
      std::uint32_t* b = a + s + j;
      __m512i x0 = ld(b), x1 = ld(b + h), x2 = ld(b + 2 * h), x3 = ld(b + 3 * h);
      const __m512i w = t.W(h + j), wp = t.P(h + j);
      bf_inv(x0, x1, w, wp, c);
      bf_inv(x2, x3, w, wp, c);
      bf_inv(x0, x2, t.W(2 * h + j), t.P(2 * h + j), c);
      bf_inv(x1, x3, t.W(3 * h + j), t.P(3 * h + j), c);
      st(b, x0), st(b + h, x1);
      if (!lo) st(b + 2 * h, x2), st(b + 3 * h, x3);
    }
}
CZ_AVX512 void inv_range(std::uint32_t* a, std::size_t len, std::size_t lo, std::size_t hi, const Tw& t, const VP& c,
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

// Stages h = 8, 4, 2, 1 on 32 entries: A = a[0..16), B = a[16..32). For stage h, lane l of X
// holds position (l / h)·2h + l % h (the first element of a butterfly) and lane l of Y that
// position + h; split[h] gathers them from (A, B), merge[h] puts them back, and lane l's
// twiddle is w[h + l % h].
struct Small {
  __m512i split_x[4], split_y[4], merge_a[4], merge_b[4], w[4], wp[4];  // index s ↔ h = 8 >> s
};
CZ_AVX512 Small small_tw(const Tw& t) {
  Small sm;
  for (int s = 0; s < 4; ++s) {
    const unsigned h = 8u >> s;
    alignas(64) std::uint32_t sx[16], sy[16], ma[16], mb[16], w[16], wp[16];
    for (unsigned l = 0; l < 16; ++l) {
      sx[l] = (l / h) * 2 * h + l % h;
      sy[l] = sx[l] + h;
      w[l] = t.w[h + l % h];
      wp[l] = t.wp[h + l % h];
    }
    for (unsigned pos = 0; pos < 32; ++pos) {
      const unsigned blk = pos / (2 * h), off = pos % (2 * h);
      const unsigned idx = off < h ? blk * h + off : 16 + blk * h + off - h;  // X lane, or 16 + Y lane
      (pos < 16 ? ma[pos] : mb[pos - 16]) = idx;
    }
    sm.split_x[s] = _mm512_load_si512(sx);
    sm.split_y[s] = _mm512_load_si512(sy);
    sm.merge_a[s] = _mm512_load_si512(ma);
    sm.merge_b[s] = _mm512_load_si512(mb);
    sm.w[s] = _mm512_load_si512(w);
    sm.wp[s] = _mm512_load_si512(wp);
  }
  return sm;
}

CZ_AVX512 void fwd_tail32(std::uint32_t* a, std::size_t len, const Small& t, const VP& c) {
  for (std::size_t s = 0; s < len; s += 32) {
    __m512i A = ld(a + s), B = ld(a + s + 16);
    for (int k = 0; k < 4; ++k) {
      __m512i X = _mm512_permutex2var_epi32(A, t.split_x[k], B), Y = _mm512_permutex2var_epi32(A, t.split_y[k], B);
      bf_fwd(X, Y, t.w[k], t.wp[k], c);
      A = _mm512_permutex2var_epi32(X, t.merge_a[k], Y);
      B = _mm512_permutex2var_epi32(X, t.merge_b[k], Y);
    }
    st(a + s, A);
    st(a + s + 16, B);
  }
}
CZ_AVX512 void inv_head32(std::uint32_t* a, std::size_t len, const Small& t, const VP& c) {
  for (std::size_t s = 0; s < len; s += 32) {
    __m512i A = ld(a + s), B = ld(a + s + 16);
    for (int k = 4; k-- > 0;) {
      __m512i X = _mm512_permutex2var_epi32(A, t.split_x[k], B), Y = _mm512_permutex2var_epi32(A, t.split_y[k], B);
      bf_inv(X, Y, t.w[k], t.wp[k], c);
      A = _mm512_permutex2var_epi32(X, t.merge_a[k], Y);
      B = _mm512_permutex2var_epi32(X, t.merge_b[k], Y);
    }
    st(a + s, A);
    st(a + s + 16, B);
  }
}

}  // namespace

CZ_TGT void forward_avx512(std::uint32_t* a, const NttTable& t, bool half_zero) {
  const std::size_t L = std::size_t{1} << t.log_len;
  const VP c = vp(t.p);
  const Tw tw{t.w.data(), t.wpre.data()};
  const std::size_t blk = L < kBlock ? L : kBlock;
  if (L > blk) fwd_range(a, L, L / 2, blk, tw, c, half_zero), half_zero = false;
  const Small sm = small_tw(tw);
  for (std::size_t b = 0; b < L; b += blk) {
    fwd_range(a + b, blk, blk / 2, 16, tw, c, half_zero);
    fwd_tail32(a + b, blk, sm, c);
  }
}

CZ_TGT void inverse_avx512(std::uint32_t* a, const NttTable& t, std::size_t n_out) {
  const std::size_t L = std::size_t{1} << t.log_len;
  const VP c = vp(t.p);
  const Tw tw{t.iw.data(), t.iwpre.data()};
  const std::size_t blk = L < kBlock ? L : kBlock;
  const bool trunc = 2 * n_out <= L;
  const Small sm = small_tw(tw);
  for (std::size_t b = 0; b < L; b += blk) {
    inv_head32(a + b, blk, sm, c);
    inv_range(a + b, blk, 16, blk / 2, tw, c, trunc && blk == L);
  }
  if (L > blk) inv_range(a, L, blk, L / 2, tw, c, trunc);
  std::size_t i = 0;
  for (; i + 16 <= n_out; i += 16) st(a + i, v_red(v_red(ld(a + i), c.p2), c.p));
  for (; i < n_out; ++i) a[i] = ntt::red_once(ntt::red_once(a[i], 2 * t.p), t.p);
}

CZ_TGT void pointwise_avx512(std::uint32_t* a, const std::uint32_t* b, std::size_t len, std::uint32_t p,
                             std::uint32_t pneg) {
  const __m512i vpp = _mm512_set1_epi32(static_cast<int>(p)), vn = _mm512_set1_epi32(static_cast<int>(pneg));
  std::size_t i = 0;
  for (; i + 16 <= len; i += 16) st(a + i, v_mont(ld(a + i), ld(b + i), vpp, vn));
  for (; i < len; ++i) a[i] = ntt::mul_mont(a[i], b[i], p, pneg);
}

CZ_TGT void mul_const_avx512(std::uint32_t* a, std::size_t len, std::uint32_t w, std::uint32_t wpre, std::uint32_t p) {
  const __m512i vw = _mm512_set1_epi32(static_cast<int>(w)), vwp = _mm512_set1_epi32(static_cast<int>(wpre)),
                vpp = _mm512_set1_epi32(static_cast<int>(p));
  std::size_t i = 0;
  for (; i + 16 <= len; i += 16) st(a + i, v_shoup(ld(a + i), vw, vwp, vpp));
  for (; i < len; ++i) a[i] = ntt::mul_shoup(a[i], w, wpre, p);
}

}  // namespace cz::ntt_kernels
