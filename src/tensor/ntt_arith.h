// Word-size prime-field arithmetic and the scalar number-theoretic transform (NTT), written as
// plain functions over pointers with no std containers so that a CUDA build (gpu/) compiles the
// very same code: CZ_HD (util/hd.h) expands to `__host__ __device__` under nvcc and to `inline` otherwise.
//
// Field: p < 2^30, p = c·2^m + 1. Elements are uint32. p < 2^30 is what makes Harvey's lazy
// butterflies fit one 32-bit word (values live in [0, 4p) ⊂ [0, 2^32)), and 32-bit lanes are what
// make the AVX2 kernels (ntt.cpp) 8 butterflies wide.
//
// Multiplication by a fixed w (twiddles, the prepared filter) is Shoup's: with
// w' = floor(w·2^32/p), for any a < 2^32, q = floor(a·w'/2^32) and r = a·w − q·p (mod 2^32)
// satisfy 0 ≤ r < 2p and r ≡ a·w (mod p) (Harvey, "Faster arithmetic for number-theoretic
// transforms", J. Symb. Comp. 2014, Lemma 2; needs p < 2^31).
//
// Twiddle layout: for every half-size h = 1, 2, ..., L/2 of a radix-2 stage, w[h + j] =
// ω_{2h}^j (j < h), where ω_{2h} = ω^{2^m/(2h)} for one fixed primitive 2^m-th root ω. The
// entries for stage h do not depend on L, and each stage reads its twiddles contiguously.
//
// Convolution recipe (no bit reversal anywhere): forward = decimation in frequency
// (Gentleman–Sande butterflies, natural order in, bit-reversed out), pointwise product in
// bit-reversed order, inverse = decimation in time (Cooley–Tukey butterflies with ω^{-1},
// bit-reversed in, natural out). The inverse leaves a factor L that the caller folds into the
// filter's transform (multiply it by L^{-1} once).
#pragma once
#include <cstddef>
#include <cstdint>

#include "util/hd.h"  // CZ_HD: __host__ __device__ under nvcc (gpu/modmodel_kernel.h runs these), inline otherwise

namespace cz::ntt {

// x mod 2m → [0, m) when x < 2m (one conditional subtraction).
CZ_HD std::uint32_t red_once(std::uint32_t x, std::uint32_t m) { return x >= m ? x - m : x; }

CZ_HD std::uint32_t mulmod(std::uint32_t a, std::uint32_t b, std::uint32_t p) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(a) * b % p);
}

CZ_HD std::uint32_t powmod(std::uint32_t a, std::uint64_t e, std::uint32_t p) {
  std::uint32_t r = 1 % p;
  a %= p;
  while (e) {
    if (e & 1) r = mulmod(r, a, p);
    a = mulmod(a, a, p);
    e >>= 1;
  }
  return r;
}

// Shoup companion of w < p: floor(w·2^32 / p).
CZ_HD std::uint32_t shoup_pre(std::uint32_t w, std::uint32_t p) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(w) << 32) / p);
}

// a·w mod p, result in [0, 2p), for any a < 2^32 (see the header comment).
CZ_HD std::uint32_t mul_shoup(std::uint32_t a, std::uint32_t w, std::uint32_t wpre, std::uint32_t p) {
  const std::uint32_t q = static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * wpre) >> 32);
  return a * w - q * p;  // exact mod 2^32, and the true value lies in [0, 2p)
}

// One forward (DIF) stage of half-size h over a[0, len): inputs and outputs in [0, 2p).
// upper_zero: a[s + h + j] is taken as 0 without being read (the zero padding of a product's
// input occupies the upper half of the first stage, so it is never written either).
CZ_HD void ntt_fwd_stage(std::uint32_t* a, std::size_t len, std::size_t h, const std::uint32_t* w,
                                const std::uint32_t* wpre, std::uint32_t p, bool upper_zero = false) {
  const std::uint32_t p2 = 2 * p;
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; ++j) {
      const std::uint32_t x = a[s + j], y = upper_zero ? 0 : a[s + j + h];
      a[s + j] = red_once(x + y, p2);                              // < 4p < 2^32
      a[s + j + h] = mul_shoup(x - y + p2, w[h + j], wpre[h + j], p);  // x − y + 2p ∈ (0, 4p)
    }
}

// One inverse (DIT) stage: inputs and outputs in [0, 4p). low_only (the last stage of a product
// whose wanted outputs all lie in the lower half): only a[s + j] is written.
CZ_HD void ntt_inv_stage(std::uint32_t* a, std::size_t len, std::size_t h, const std::uint32_t* w,
                                const std::uint32_t* wpre, std::uint32_t p, bool low_only = false) {
  const std::uint32_t p2 = 2 * p;
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; ++j) {
      const std::uint32_t x = red_once(a[s + j], p2);  // [0, 2p)
      const std::uint32_t t = mul_shoup(a[s + j + h], w[h + j], wpre[h + j], p);  // [0, 2p)
      a[s + j] = x + t;                                                             // [0, 4p)
      if (!low_only) a[s + j + h] = x - t + p2;                                     // (0, 4p)
    }
}

// Forward transform of length 2^log_len, in place; a[i] ∈ [0, 2p) in and out (bit-reversed out).
// half_zero: the input is a[0, len/2) followed by zeros, and a[len/2, len) is not read.
CZ_HD void ntt_forward_scalar(std::uint32_t* a, unsigned log_len, const std::uint32_t* w,
                                     const std::uint32_t* wpre, std::uint32_t p, bool half_zero = false) {
  const std::size_t len = std::size_t{1} << log_len;
  for (std::size_t h = len >> 1; h >= 1; h >>= 1, half_zero = false) ntt_fwd_stage(a, len, h, w, wpre, p, half_zero);
}

// Inverse transform (times L) of length 2^log_len, in place; a[i] ∈ [0, 4p) in, [0, p) out for
// i < n_out. n_out ≤ len/2: the last stage computes the lower half only (a[n_out, len) is then
// unspecified), which is all a linear product of length ≤ len/2 reads.
CZ_HD void ntt_inverse_scalar(std::uint32_t* a, unsigned log_len, const std::uint32_t* iw,
                                     const std::uint32_t* iwpre, std::uint32_t p, std::size_t n_out) {
  const std::size_t len = std::size_t{1} << log_len;
  for (std::size_t h = 1; h < len; h <<= 1) ntt_inv_stage(a, len, h, iw, iwpre, p, 2 * h == len && 2 * n_out <= len);
  for (std::size_t i = 0; i < n_out; ++i) a[i] = red_once(red_once(a[i], 2 * p), p);
}

// Montgomery product a·b·2^{-32} mod p with pneg = −p^{-1} mod 2^32: for a·b < p·2^32 the result
// lies in [0, 2p) (T + m·p < 2^33·p < 2^63, and (T + m·p)/2^32 < 2p). Used for the pointwise
// product, where b varies (a Shoup companion per entry would cost a division each); the factor
// 2^32 is folded into the prepared filter once.
CZ_HD std::uint32_t mul_mont(std::uint32_t a, std::uint32_t b, std::uint32_t p, std::uint32_t pneg) {
  const std::uint64_t T = static_cast<std::uint64_t>(a) * b;
  const std::uint32_t m = static_cast<std::uint32_t>(T) * pneg;
  return static_cast<std::uint32_t>((T + static_cast<std::uint64_t>(m) * p) >> 32);
}

// −p^{-1} mod 2^32 for odd p (Newton: each step doubles the correct low bits).
CZ_HD std::uint32_t mont_pneg(std::uint32_t p) {
  std::uint32_t x = p;  // correct to 3 bits (p·p ≡ 1 mod 8)
  for (int i = 0; i < 4; ++i) x *= 2 - p * x;
  return 0u - x;
}

// a[i] ← a[i]·b[i]·2^{-32} mod p; a[i] ∈ [0, 2p), b[i] ∈ [0, p) in (so a·b < 2p² < p·2^32),
// [0, 2p) out. (b ∈ [0, 2p) works too: a·b < 4p² < p·2^32 since p < 2^30.)
CZ_HD void pointwise_mont_scalar(std::uint32_t* a, const std::uint32_t* b, std::size_t len, std::uint32_t p,
                                        std::uint32_t pneg) {
  for (std::size_t i = 0; i < len; ++i) a[i] = mul_mont(a[i], b[i], p, pneg);
}

}  // namespace cz::ntt
