// Tables and transforms for the direct NTT over a 62-bit prime field (the arithmetic is in
// ntt_arith64.h, host/device clean): a deterministic 64-bit primality test, the NTT-friendliness
// check, twiddle tables built once per (p, log_len) and cached thread-safely, and the in-place
// transforms. conv_ntt_fp64.h builds the convolution over F_p on these.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tensor/ntt_arith64.h"

namespace cz {

// Deterministic for every n < 2^64: Miller–Rabin with the 7 bases of Jim Sinclair (2011), which
// together have no strong pseudoprime below 2^64 (see Feitsma & Galway's table of base-2
// pseudoprimes, and the list at miller-rabin.appspot.com).
bool is_prime64(std::uint64_t n);

// Whether p is a prime below 2^62 that supports a transform of length 2^log_len (2^log_len | p − 1).
bool ntt_friendly64(std::uint64_t p, unsigned log_len);

// Twiddles for one prime p < 2^62 and length 2^log_len (layout of ntt_arith.h / ntt_arith64.h).
struct NttTable64 {
  std::uint64_t p = 0;
  unsigned log_len = 0;
  std::vector<std::uint64_t> w, wpre, iw, iwpre;
  std::uint64_t pneg = 0;                         // −p^{-1} mod 2^64 (Montgomery)
  std::uint64_t filt_scale = 0, filt_scale_pre = 0;  // L^{-1}·2^64 mod p and its Shoup companion: a
                                                     // filter's residues times this make the Montgomery
                                                     // product and the unnormalised inverse exact
};
// Built on first use and cached for the life of the process (thread-safe). Throws
// std::invalid_argument unless ntt_friendly64(p, log_len).
const NttTable64& ntt_table64(std::uint64_t p, unsigned log_len);

// In-place transforms (scalar; ranges and ordering as in ntt_arith64.h): forward a[i] ∈ [0, 2p)
// in and out; inverse a[i] ∈ [0, 4p) in, [0, p) out for i < n_out (n_out ≤ L/2 drops half of the
// last stage). Test-only mutant 3 (detail::ntt_set_mutant, ntt.h): the forward transform uses one
// wrong twiddle.
void ntt64_forward(std::uint64_t* a, const NttTable64& t, bool half_zero = false);
void ntt64_inverse(std::uint64_t* a, const NttTable64& t, std::size_t n_out);
// a[i] ← a[i]·b[i]·2^{-64} mod p (Montgomery); a[i], b[i] ∈ [0, 2p) in, [0, 2p) out.
void ntt64_pointwise(std::uint64_t* a, const std::uint64_t* b, std::size_t len, const NttTable64& t);

}  // namespace cz
