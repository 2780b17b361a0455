// Exact convolution by number-theoretic transforms: k word-size NTT primes and a CRT lift, with k
// chosen from a certified bound on |output|, so a modular result is lifted to an integer only
// where the bound proves the lift exact. The arithmetic lives in ntt_arith.h (host/device clean);
// this header adds the prime table, cached twiddle tables, ISA dispatch (AVX-512, AVX2 or scalar) and the
// convolution API over int64 / Z / Fp. conv.h calls it from conv_fast; model/eval.h keeps one
// NttFilter per BaseConv layer so a filter is transformed once and reused over every input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exact/integer.h"
#include "tensor/conv_mode.h"
#include "tensor/matrix.h"
#include "tensor/ntt_arith.h"

namespace cz {

// ---- primes and tables ----------------------------------------------------------------------

// The CRT primes: the kNttMaxPrimes = 12 primes p = c·2^22 + 1 in (2^29, 2^30), largest first
// (M_12 = their product ≈ 2^354; Garner needs each above 2^29, see conv_ntt.cpp),
// so every transform length up to 2^22 (products of length 2N − 1 for N ≤ 2^21) is supported.
inline constexpr unsigned kNttMaxPrimes = 12;
inline constexpr unsigned kNttMaxLog = 22;
const std::uint32_t* ntt_primes();  // kNttMaxPrimes entries

// Twiddles for one prime and length 2^log_len (see ntt_arith.h for the layout), built on first
// use and cached for the life of the process (thread-safe). Throws std::invalid_argument unless
// p < 2^30 is prime with 2^log_len dividing p − 1.
struct NttTable {
  std::uint32_t p;
  unsigned log_len;
  std::vector<std::uint32_t> w, wpre, iw, iwpre;
  std::uint32_t pneg;       // −p^{-1} mod 2^32 (Montgomery)
  std::uint32_t filt_scale, filt_scale_pre;  // L^{-1}·2^32 mod p and its Shoup companion: a filter's
                                             // transform times this makes the Montgomery product exact
};
const NttTable& ntt_table(std::uint32_t p, unsigned log_len);
// Whether p (any prime below 2^30, e.g. a model's own) supports a transform of length 2^log_len.
bool ntt_friendly(std::uint64_t p, unsigned log_len);

// ---- ISA dispatch -----------------------------------------------------------------------------

enum class NttIsa { Scalar, Avx2, Avx512 };  // ordered: each needs the CPU features of the ones before
NttIsa ntt_isa();              // what the transforms use now (the best supported by default)
void ntt_set_isa(NttIsa isa);  // tests force each; a request the CPU lacks falls back to the best it has
std::string to_string(NttIsa isa);

// In-place transforms through the current ISA (see ntt_arith.h for ranges and ordering).
// half_zero: the input is a[0, L/2) followed by L/2 zeros, and a[L/2, L) is neither read nor
// needs filling (a product's zero padding: saves the fill and half the first stage's loads).
void ntt_forward(std::uint32_t* a, const NttTable& t, bool half_zero = false);
void ntt_inverse(std::uint32_t* a, const NttTable& t);
// Only a[0, n_out) is wanted (and defined) afterwards; n_out ≤ L/2 drops half the last stage.
void ntt_inverse(std::uint32_t* a, const NttTable& t, std::size_t n_out);
void ntt_pointwise(std::uint32_t* a, const std::uint32_t* b, std::size_t len, std::uint32_t p);  // Montgomery
// a[i] ← a[i]·w mod p (Shoup, wpre = shoup_pre(w)); a[i] < 2^32 in, [0, 2p) out.
void ntt_mul_const(std::uint32_t* a, std::size_t len, std::uint32_t w, std::uint32_t wpre, std::uint32_t p);

// Mutation switch, for tests only (test_ntt.cpp shows its tests catch each mutant): 0 off;
// 1 drops one CRT prime from every channel that needs two or more (a too-small k); 2 forward
// transforms with one wrong twiddle; 3 the same in the 62-bit transforms (ntt64.h).
namespace detail {
void ntt_set_mutant(int m);
int ntt_mutant();
// Tests and benchmarks: which int64 convolutions of W/2 or more channels take the lane-batched
// kernels (tensor/ntt_lanes.h). Auto: on AVX-512 only; Always: on every ISA (the plain lane set
// where there is no AVX-512); Never: the per-channel kernels everywhere.
enum class LanePolicy { Auto, Always, Never };
void ntt_set_lane_policy(LanePolicy p);
LanePolicy ntt_lane_policy();
}  // namespace detail

// ---- the plan: certified bound and number of primes -------------------------------------------

// For every mode, output entry y_i = Σ_k h[k]·u[s(i,k)] uses each filter tap at most once, so
// per channel j:  |y_ij| ≤ B_j = max_i |u_ij| · Σ_k |h_kj|   (certified, exact integer).
// With k primes and M = p_0···p_{k−1} (odd), a residue x = y mod M determines y ∈ [−B, B]
// exactly iff 2B < M (then y = x if x ≤ (M−1)/2, else x − M). Channel j gets the least such k_j.
struct NttConvPlan {
  std::size_t n = 0, d = 0;
  ConvMode mode = ConvMode::Causal;
  unsigned log_len = 0;             // transform length L = 2^log_len
  std::vector<Int> bound;           // B_j per channel
  std::vector<unsigned> primes;     // k_j per channel (0 where B_j = 0: the output is 0)
  unsigned k = 0;                   // max_j k_j
  std::size_t bound_bits = 0;       // bits of max_j B_j
  bool ntt = false;                 // false: the bound (or the length) is beyond the NTT; use FLINT
  std::uint64_t field = 0;          // ≠ 0: computed directly in F_field (one transform per channel, no
                                    // lift; bound unused): conv_ntt_fp for an NTT-friendly prime
  std::string str() const;          // one line for reports
};

// Length of the transform a mode needs: 2N − 1 rounded up to a power of two (N for cyclic when N
// is a power of two: the transform is then the cyclic convolution itself).
unsigned ntt_log_len(std::size_t n, ConvMode mode);

NttConvPlan plan_conv_ntt(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u, ConvMode mode);
NttConvPlan plan_conv_ntt(const Matrix<Int>& h, const Matrix<Int>& u, ConvMode mode);

// ---- convolution ------------------------------------------------------------------------------

// A filter prepared for the NTT path: per prime, per channel, its transform times L^{-1}·2^32, computed on first use of that prime and then shared (thread-safe) by every
// later call: a BaseConv layer transforms its filter once for all inputs it ever sees.
class NttFilter {
 public:
  // h: n×d integer filter (int64 entries), for inputs of n rows in `mode`.
  NttFilter(const Matrix<std::int64_t>& h, ConvMode mode);
  ~NttFilter();
  NttFilter(const NttFilter&) = delete;
  NttFilter& operator=(const NttFilter&) = delete;

  std::size_t rows() const { return n_; }
  std::size_t cols() const { return d_; }
  ConvMode mode() const { return mode_; }
  NttConvPlan plan(const Matrix<std::int64_t>& u) const;

  // Exact h*u; std::nullopt when the plan needs more primes than kNttMaxPrimes (caller: FLINT).
  std::optional<Matrix<Int>> apply(const Matrix<std::int64_t>& u, NttConvPlan* plan_out = nullptr) const;
  // Same with int64 results: throws Overflow when an entry does not fit (RingI64's contract).
  std::optional<Matrix<std::int64_t>> apply_i64(const Matrix<std::int64_t>& u, NttConvPlan* plan_out = nullptr) const;
  // A batch of instances with the same filter (each transform of h is shared by all of them).
  std::vector<std::optional<Matrix<Int>>> apply_batch(const std::vector<Matrix<std::int64_t>>& us) const;

  struct Impl;

 private:
  std::size_t n_, d_;
  ConvMode mode_;
  std::unique_ptr<Impl> impl_;
};

// One-shot forms (the filter is transformed on the fly). std::nullopt: beyond the NTT, use FLINT.
std::optional<Matrix<Int>> conv_ntt(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u, ConvMode mode,
                                    NttConvPlan* plan_out = nullptr);
std::optional<Matrix<Int>> conv_ntt(const Matrix<Int>& h, const Matrix<Int>& u, ConvMode mode,
                                    NttConvPlan* plan_out = nullptr);
// int64 in and out; throws Overflow when a result entry does not fit int64.
std::optional<Matrix<std::int64_t>> conv_ntt_i64(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u,
                                                 ConvMode mode, NttConvPlan* plan_out = nullptr);
// Over Fp (entries in [0, p), p < 2^62 prime): directly in F_p when p is NTT-friendly for the
// length (32-bit words for p < 2^30, 64-bit ones up to 2^62: conv_ntt_fp64.h; plan_out->field = p),
// else through the Z path on the representatives and a final reduction mod p.
// std::nullopt: beyond the NTT, use FLINT.
std::optional<Matrix<std::uint64_t>> conv_ntt_fp(std::uint64_t p, const Matrix<std::uint64_t>& h,
                                                 const Matrix<std::uint64_t>& u, ConvMode mode,
                                                 NttConvPlan* plan_out = nullptr);

}  // namespace cz
