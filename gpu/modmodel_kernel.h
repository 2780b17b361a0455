// Kernel bodies of the modular model evaluation (issue 12): one instance, one prime p, through the
// layers of a ModModel (gpu/modmodel.h), every value a residue in [0, p). Each layer is a ring map
// (JRT Def G.1 BaseConv y = (u·W + b1) ⊙ (h * u + b2); Def G.16 causal linear attention), so the
// residues are those of the exact integer evaluation; a certified bound B with P = Π p > 2B makes
// them determine it (CRT). The convolution is the NTT of src/tensor/ntt_arith.h, the SAME text as
// the CPU's scalar transform. CZ_HD: the GPU runs these bodies, the CPU twin runs the same text.
// Light header: .cu files include it (no FLINT, no std containers).
#pragma once
#include <cstdint>

#include "gpu/hd.h"
#include "tensor/ntt_arith.h"

namespace cz::gpu {

inline constexpr int kModMaxPrimes = 8;   // P up to ~2^239: far beyond any bound a construction needs
inline constexpr int kModMaxLayers = 8;
enum : std::int32_t { kModBaseConv = 0, kModLinAttn = 1 };
enum : std::int32_t { kModCausal = 0, kModCyclic = 1, kModAnticausal = 2 };  // tensor/conv_mode.h

// One layer's residues for one prime, as word offsets into the arena (row-major matrices).
struct ModLayerOff {
  std::int32_t kind = kModBaseConv, f = 0;          // f: attention feature width
  std::uint64_t W = 0, b1 = 0, b2 = 0, hhat = 0;    // BaseConv: d'×d', N'×d', N'×d', d'×L (transformed h)
  std::uint64_t hnz = 0;                            // BaseConv: d' words, 1 where channel j's filter is not 0
  std::uint64_t Wq = 0, Wk = 0, Wv = 0;             // attention: d'×f, d'×f, d'×d'
};

// Everything a kernel needs, by value; `arena` points at the host or the device copy of the words.
struct ModModelView {
  const std::uint32_t* arena = nullptr;
  std::int32_t N = 0, d = 0, Np = 0, dp = 0, conv = kModCausal, log_len = 0, primes = 0, layers = 0, fmax = 1;
  std::uint64_t scratch_words = 0;                   // per (instance, prime): see mod_scratch
  std::uint32_t p[kModMaxPrimes] = {}, pneg[kModMaxPrimes] = {};
  std::uint32_t garner[kModMaxPrimes][kModMaxPrimes] = {};  // [j][i] = p_j^{-1} mod p_i (j < i)
  std::uint64_t w[kModMaxPrimes] = {}, wpre[kModMaxPrimes] = {}, iw[kModMaxPrimes] = {}, iwpre[kModMaxPrimes] = {};
  ModLayerOff layer[kModMaxLayers][kModMaxPrimes] = {};
};

// Per (instance, prime) scratch: x (N'×d', the activation), a (N'×d'), c (d' NTT buffers of L
// words; channel j's convolution ends in c[j·L, j·L + N')), q, k (N'×fmax), s (d'×fmax).
struct ModScratch {
  std::uint32_t *x, *a, *c, *q, *k, *s;
};
CZ_HD std::uint64_t mod_scratch_words(std::int32_t Np, std::int32_t dp, std::int32_t log_len, std::int32_t fmax) {
  const std::uint64_t nd = std::uint64_t(Np) * dp, L = std::uint64_t{1} << log_len;
  return 2 * nd + std::uint64_t(dp) * L + 2 * std::uint64_t(Np) * fmax + std::uint64_t(dp) * fmax;
}
CZ_HD ModScratch mod_scratch(const ModModelView& v, std::uint32_t* base) {
  const std::uint64_t nd = std::uint64_t(v.Np) * v.dp, L = std::uint64_t{1} << v.log_len;
  ModScratch s;
  s.x = base;
  s.a = s.x + nd;
  s.c = s.a + nd;
  s.q = s.c + std::uint64_t(v.dp) * L;
  s.k = s.q + std::uint64_t(v.Np) * v.fmax;
  s.s = s.k + std::uint64_t(v.Np) * v.fmax;
  return s;
}

CZ_HD std::uint32_t mod_add(std::uint32_t a, std::uint32_t b, std::uint32_t p) { return ntt::red_once(a + b, p); }
CZ_HD std::uint32_t mod_of(std::int64_t x, std::uint32_t p) {
  const std::int64_t r = x % static_cast<std::int64_t>(p);
  return static_cast<std::uint32_t>(r < 0 ? r + p : r);
}

// Lazy reduction: residues are < 2^30, so a product is < 2^60 and an accumulator below p takes
// 15 products before it could pass 2^64 (2^30 + 15·2^60 < 2^64); one `%` per 15 terms.
inline constexpr std::int32_t kModLazyTerms = 15;

// (x·W)[i][j] (+ bias[i][j] when bias): x is rows×in_w, W is in_w×out_w. Zero activations are
// skipped (encoded tokens and masks are sparse).
CZ_HD std::uint32_t mod_matmul_entry(const std::uint32_t* x, std::int32_t in_w, const std::uint32_t* W, std::int32_t out_w,
                                     const std::uint32_t* bias, std::int32_t i, std::int32_t j, std::uint32_t p) {
  std::uint64_t acc = bias ? bias[std::uint64_t(i) * out_w + j] : 0;
  const std::uint32_t* xi = x + std::uint64_t(i) * in_w;
  std::int32_t pending = 0;
  for (std::int32_t k = 0; k < in_w; ++k) {
    if (xi[k] == 0) continue;
    acc += static_cast<std::uint64_t>(xi[k]) * W[std::uint64_t(k) * out_w + j];
    if (++pending == kModLazyTerms) {
      acc %= p;
      pending = 0;
    }
  }
  return static_cast<std::uint32_t>(acc % p);
}

// Channel j of h * x + b2 (tensor/conv_mode.h), left in buf[0, N'): the column goes in (reversed
// for anticausal: Σ_k h[k] u[i+k] = (h * rev u)[N'−1−i]), the NTT product with the prepared
// transform (ntt.h NttTable: ĥ·L^{-1}·2^32, so the Montgomery product and the inverse's factor L
// cancel), and cyclic folds the linear product mod X^N' − 1 unless L = N'.
CZ_HD void mod_conv_channel(const ModModelView& v, const ModLayerOff& o, std::int32_t q, const std::uint32_t* x,
                            std::uint32_t* buf, std::int32_t j) {
  const std::uint32_t p = v.p[q];
  const std::uint64_t L = std::uint64_t{1} << v.log_len, n = std::uint64_t(v.Np);
  const bool anti = v.conv == kModAnticausal;
  const std::uint32_t* A = v.arena;
  const std::uint32_t* b2 = A + o.b2;
  std::uint32_t any = A[o.hnz + j];
  if (any) {
    any = 0;
    for (std::uint64_t i = 0; i < n; ++i) any |= (buf[i] = x[(anti ? n - 1 - i : i) * v.dp + j]);
  }
  if (!any) {  // a zero filter or a zero column: h * x = 0 (most channels of sparse constructions)
    for (std::uint64_t i = 0; i < n; ++i) buf[i] = b2[i * v.dp + j];
    return;
  }
  const bool half = 2 * n <= L;  // the upper half is zero padding: not read by the first stage
  for (std::uint64_t i = n; i < (half ? L / 2 : L); ++i) buf[i] = 0;
  ntt::ntt_forward_scalar(buf, static_cast<unsigned>(v.log_len), A + v.w[q], A + v.wpre[q], p, half);
  ntt::pointwise_mont_scalar(buf, A + o.hhat + std::uint64_t(j) * L, L, p, v.pneg[q]);
  const bool fold = v.conv == kModCyclic && L != n;
  ntt::ntt_inverse_scalar(buf, static_cast<unsigned>(v.log_len), A + v.iw[q], A + v.iwpre[q], p, fold ? 2 * n - 1 : n);
  if (fold)
    for (std::uint64_t i = 0; i + 1 < n; ++i) buf[i] = mod_add(buf[i], buf[i + n], p);
  if (anti)
    for (std::uint64_t i = 0; i < n / 2; ++i) {
      const std::uint32_t t = buf[i];
      buf[i] = buf[n - 1 - i];
      buf[n - 1 - i] = t;
    }
  for (std::uint64_t i = 0; i < n; ++i) buf[i] = mod_add(buf[i], b2[i * v.dp + j], p);
}

// Gating: x[i][j] = a[i][j] · (h * x + b2)[i][j].
CZ_HD void mod_gate_entry(const ModModelView& v, std::int32_t q, ModScratch s, std::int32_t i, std::int32_t j) {
  const std::uint64_t L = std::uint64_t{1} << v.log_len;
  const std::uint64_t e = std::uint64_t(i) * v.dp + j;
  s.x[e] = ntt::mulmod(s.a[e], s.c[std::uint64_t(j) * L + i], v.p[q]);
}

// Causal linear attention, output column b (JRT Def G.16, recurrent view: S = Σ_{r<=i} K[r]^T V[r]):
// q, k hold Q = x·Wq, K = x·Wk (N'×f), a holds V = x·Wv; writes z[·][b] into x.
CZ_HD void mod_attn_column(const ModModelView& v, const ModLayerOff& o, std::int32_t q, ModScratch s, std::int32_t b) {
  const std::uint32_t p = v.p[q];
  std::uint32_t* S = s.s + std::uint64_t(b) * v.fmax;
  for (std::int32_t a = 0; a < o.f; ++a) S[a] = 0;
  for (std::int32_t i = 0; i < v.Np; ++i) {
    const std::uint32_t vb = s.a[std::uint64_t(i) * v.dp + b];
    const std::uint32_t* Ki = s.k + std::uint64_t(i) * v.fmax;
    const std::uint32_t* Qi = s.q + std::uint64_t(i) * v.fmax;
    std::uint64_t z = 0;
    std::int32_t pending = 0;
    for (std::int32_t a = 0; a < o.f; ++a) {
      if (vb != 0 && Ki[a] != 0) S[a] = mod_add(S[a], ntt::mulmod(Ki[a], vb, p), p);
      z += static_cast<std::uint64_t>(Qi[a]) * S[a];
      if (++pending == kModLazyTerms) {
        z %= p;
        pending = 0;
      }
    }
    s.x[std::uint64_t(i) * v.dp + b] = static_cast<std::uint32_t>(z % p);
  }
}

// The whole model on s.x (the embedded input, already written), one prime, serially: the twin's
// loop. The device runs the same bodies with one thread per entry / channel / column.
CZ_HD void mod_eval(const ModModelView& v, std::int32_t q, ModScratch s) {
  const std::uint32_t p = v.p[q];
  const std::uint32_t* A = v.arena;
  const std::uint64_t L = std::uint64_t{1} << v.log_len;
  for (std::int32_t l = 0; l < v.layers; ++l) {
    const ModLayerOff& o = v.layer[l][q];
    if (o.kind == kModBaseConv) {
      for (std::int32_t i = 0; i < v.Np; ++i)
        for (std::int32_t j = 0; j < v.dp; ++j)
          s.a[std::uint64_t(i) * v.dp + j] = mod_matmul_entry(s.x, v.dp, A + o.W, v.dp, A + o.b1, i, j, p);
      for (std::int32_t j = 0; j < v.dp; ++j) mod_conv_channel(v, o, q, s.x, s.c + std::uint64_t(j) * L, j);
      for (std::int32_t i = 0; i < v.Np; ++i)
        for (std::int32_t j = 0; j < v.dp; ++j) mod_gate_entry(v, q, s, i, j);
    } else {
      for (std::int32_t i = 0; i < v.Np; ++i) {
        for (std::int32_t a = 0; a < o.f; ++a) {
          s.q[std::uint64_t(i) * v.fmax + a] = mod_matmul_entry(s.x, v.dp, A + o.Wq, o.f, nullptr, i, a, p);
          s.k[std::uint64_t(i) * v.fmax + a] = mod_matmul_entry(s.x, v.dp, A + o.Wk, o.f, nullptr, i, a, p);
        }
        for (std::int32_t b = 0; b < v.dp; ++b)
          s.a[std::uint64_t(i) * v.dp + b] = mod_matmul_entry(s.x, v.dp, A + o.Wv, v.dp, nullptr, i, b, p);
      }
      for (std::int32_t b = 0; b < v.dp; ++b) mod_attn_column(v, o, q, s, b);
    }
  }
}

// Garner's mixed-radix digits of one entry's residues r[0..primes): y ≡ Σ_i dig[i]·Π_{j<i} p_j
// (mod P), each dig[i] < p_i; the host lifts them to an integer (gpu/modmodel.h mod_lift).
CZ_HD void mod_garner(const ModModelView& v, const std::uint32_t* r, std::uint32_t* dig) {
  for (std::int32_t i = 0; i < v.primes; ++i) {
    const std::uint32_t pi = v.p[i];
    std::uint32_t x = r[i];
    for (std::int32_t j = 0; j < i; ++j) x = ntt::mulmod(mod_add(x, pi - dig[j] % pi, pi), v.garner[j][i], pi);
    dig[i] = x;
  }
}

// A deterministic pseudo-random input entry in [−bound, bound] (tests and benchmarks: the twin and
// the device generate the same inputs from (seed, instance, i, j); splitmix64).
CZ_HD std::int64_t mod_random_entry(std::uint64_t seed, std::uint64_t inst, std::int32_t i, std::int32_t j, std::int64_t bound) {
  std::uint64_t z = seed ^ (inst * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t(i) << 32) ^ std::uint64_t(j) * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<std::int64_t>(z % (2 * static_cast<std::uint64_t>(bound) + 1)) - bound;
}

}  // namespace cz::gpu
