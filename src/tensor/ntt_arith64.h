// Prime-field arithmetic and the scalar NTT for primes p < 2^62 in 64-bit words: the twin of
// ntt_arith.h (p < 2^30, uint32) for a model's own large prime, so that a convolution over F_p
// needs no CRT lift at all (issue 11, "over Fp: directly"). Plain functions over pointers, no std
// containers: CZ_HD (util/hd.h) makes them __host__ __device__ under nvcc, inline otherwise.
//
// Field: p < 2^62 odd prime, p = c·2^m + 1. Elements are uint64. The lazy butterflies keep values
// in [0, 4p), so 4p < 2^64 is what bounds p (the same argument as ntt_arith.h one word up).
//
// Multiplication by a fixed w (twiddles, the filter scale) is Shoup's with the 64-bit companion
// w' = floor(w·2^64/p): for any a < 2^64, q = floor(a·w'/2^64) and r = a·w − q·p (mod 2^64)
// satisfy 0 ≤ r < 2p and r ≡ a·w (mod p) (Harvey, "Faster arithmetic for number-theoretic
// transforms", J. Symb. Comp. 2014, Lemma 2 with β = 2^64; needs p < 2^63).
//
// Multiplication of two varying values (the pointwise product) is Montgomery's (Montgomery,
// "Modular multiplication without trial division", Math. Comp. 1985) with R = 2^64 and
// pneg = −p^{-1} mod 2^64: for T = a·b < p·2^64, m = (T mod 2^64)·pneg mod 2^64 makes T + m·p
// divisible by 2^64, and (T + m·p)/2^64 < (p·2^64 + 2^64·p)/2^64 = 2p. The factor 2^{-64} is
// folded into the prepared filter once (its scale is L^{-1}·2^64 mod p).
//
// Twiddle layout and recipe: exactly ntt_arith.h's (w[h + j] = ω_{2h}^j for j < h; forward DIF,
// natural order in, bit-reversed out; pointwise in bit-reversed order; inverse DIT with ω^{-1},
// bit-reversed in, natural out, leaving a factor L that the filter's scale removes).
#pragma once
#include <cstddef>
#include <cstdint>

#include "util/hd.h"  // CZ_HD: __host__ __device__ under nvcc, inline otherwise

namespace cz::ntt64 {

// floor(a·b / 2^64).
CZ_HD std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// x mod 2m → [0, m) when x < 2m (one conditional subtraction).
CZ_HD std::uint64_t red_once(std::uint64_t x, std::uint64_t m) { return x >= m ? x - m : x; }

// a·b mod p for any a, b < 2^64 and p > 0 (tables, references: not a hot path).
CZ_HD std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
}

CZ_HD std::uint64_t powmod(std::uint64_t a, std::uint64_t e, std::uint64_t p) {
  std::uint64_t r = 1 % p;
  a %= p;
  while (e) {
    if (e & 1) r = mulmod(r, a, p);
    a = mulmod(a, a, p);
    e >>= 1;
  }
  return r;
}

// Shoup companion of w < p: floor(w·2^64 / p) (< 2^64 because w < p).
CZ_HD std::uint64_t shoup_pre(std::uint64_t w, std::uint64_t p) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(w) << 64) / p);
}

// a·w mod p, result in [0, 2p), for any a < 2^64 (Harvey 2014, Lemma 2; see the header comment).
CZ_HD std::uint64_t mul_shoup(std::uint64_t a, std::uint64_t w, std::uint64_t wpre, std::uint64_t p) {
  const std::uint64_t q = mulhi64(a, wpre);
  return a * w - q * p;  // exact mod 2^64, and the true value lies in [0, 2p)
}

// −p^{-1} mod 2^64 for odd p (Newton–Hensel: each step doubles the correct low bits, 3 → 96).
CZ_HD std::uint64_t mont_pneg(std::uint64_t p) {
  std::uint64_t x = p;  // correct to 3 bits (p·p ≡ 1 mod 8)
  for (int i = 0; i < 5; ++i) x *= 2 - p * x;
  return 0 - x;
}

// Montgomery product a·b·2^{-64} mod p, result in [0, 2p), for a·b < p·2^64 (see the header
// comment). The low words of T and m·p sum to 0 mod 2^64, so the carry into the high word is
// exactly [T mod 2^64 ≠ 0]: no 128-bit addition is needed (and the GPU uses only __umul64hi).
CZ_HD std::uint64_t mul_mont(std::uint64_t a, std::uint64_t b, std::uint64_t p, std::uint64_t pneg) {
  const std::uint64_t lo = a * b, hi = mulhi64(a, b);
  const std::uint64_t m = lo * pneg;
  return hi + mulhi64(m, p) + (lo != 0);
}

// One forward (DIF) stage of half-size h over a[0, len): inputs and outputs in [0, 2p).
// upper_zero: a[s + h + j] is taken as 0 without being read (a product's zero padding).
CZ_HD void fwd_stage(std::uint64_t* a, std::size_t len, std::size_t h, const std::uint64_t* w,
                     const std::uint64_t* wpre, std::uint64_t p, bool upper_zero = false) {
  const std::uint64_t p2 = 2 * p;
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; ++j) {
      const std::uint64_t x = a[s + j], y = upper_zero ? 0 : a[s + j + h];
      a[s + j] = red_once(x + y, p2);                                  // x + y < 4p < 2^64
      a[s + j + h] = mul_shoup(x - y + p2, w[h + j], wpre[h + j], p);  // x − y + 2p ∈ (0, 4p)
    }
}

// One inverse (DIT) stage: inputs and outputs in [0, 4p). low_only: only a[s + j] is written
// (the last stage of a product whose wanted outputs all lie in the lower half).
CZ_HD void inv_stage(std::uint64_t* a, std::size_t len, std::size_t h, const std::uint64_t* w,
                     const std::uint64_t* wpre, std::uint64_t p, bool low_only = false) {
  const std::uint64_t p2 = 2 * p;
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; ++j) {
      const std::uint64_t x = red_once(a[s + j], p2);                          // [0, 2p)
      const std::uint64_t t = mul_shoup(a[s + j + h], w[h + j], wpre[h + j], p);  // [0, 2p): any input < 2^64
      a[s + j] = x + t;                                                          // [0, 4p)
      if (!low_only) a[s + j + h] = x - t + p2;                                  // (0, 4p)
    }
}

// Forward transform of length 2^log_len, in place; a[i] ∈ [0, 2p) in and out (bit-reversed out).
// half_zero: the input is a[0, len/2) followed by zeros, and a[len/2, len) is not read.
CZ_HD void forward_scalar(std::uint64_t* a, unsigned log_len, const std::uint64_t* w, const std::uint64_t* wpre,
                          std::uint64_t p, bool half_zero = false) {
  const std::size_t len = std::size_t{1} << log_len;
  for (std::size_t h = len >> 1; h >= 1; h >>= 1, half_zero = false) fwd_stage(a, len, h, w, wpre, p, half_zero);
}

// Inverse transform (times L) of length 2^log_len, in place; a[i] ∈ [0, 4p) in, [0, p) out for
// i < n_out. n_out ≤ len/2: the last stage computes the lower half only (a[n_out, len) is then
// unspecified), which is all a linear product of length ≤ len/2 reads.
CZ_HD void inverse_scalar(std::uint64_t* a, unsigned log_len, const std::uint64_t* iw, const std::uint64_t* iwpre,
                          std::uint64_t p, std::size_t n_out) {
  const std::size_t len = std::size_t{1} << log_len;
  for (std::size_t h = 1; h < len; h <<= 1) inv_stage(a, len, h, iw, iwpre, p, 2 * h == len && 2 * n_out <= len);
  for (std::size_t i = 0; i < n_out; ++i) a[i] = red_once(red_once(a[i], 2 * p), p);
}

// a[i] ← a[i]·b[i]·2^{-64} mod p; a[i], b[i] ∈ [0, 2p) in (a·b < 4p² < p·2^64 since 4p < 2^64),
// [0, 2p) out.
CZ_HD void pointwise_mont_scalar(std::uint64_t* a, const std::uint64_t* b, std::size_t len, std::uint64_t p,
                                 std::uint64_t pneg) {
  for (std::size_t i = 0; i < len; ++i) a[i] = mul_mont(a[i], b[i], p, pneg);
}

}  // namespace cz::ntt64
