// Convolution over F_p directly in the field (no CRT lift) when p is NTT-friendly for the length:
// the 62-bit route (2^30 ≤ p < 2^62, tables of ntt64.h) that conv_ntt_fp (ntt.h) dispatches to,
// and NttFilterFp, a filter over F_p transformed once and reused over every input (the Fp twin of
// NttFilter: model/eval.h keeps one per BaseConv layer of a model over RingFp). NttFilterFp takes
// both direct routes: 32-bit words (ntt.h's tables and kernels) for p < 2^30, 64-bit above.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "tensor/conv_mode.h"
#include "tensor/matrix.h"
#include "tensor/ntt.h"

namespace cz {

// Which direct route a convolution of n rows in `mode` over F_p takes: 32 (p < 2^30, through
// ntt.h's word-size tables), 64 (2^30 ≤ p < 2^62, through ntt64.h), or 0 (none: p is not a prime
// with 2^ntt_log_len(n, mode) | p − 1, or p ≥ 2^62; conv_ntt_fp then lifts through Z).
unsigned ntt_fp_direct_bits(std::uint64_t p, std::size_t n, ConvMode mode);

// The 62-bit route alone: h*u mod p for h, u of equal shape (entries ≥ p are reduced first).
// std::nullopt unless ntt_fp_direct_bits(p, n, mode) == 64. plan_out says "direct in F_p".
std::optional<Matrix<std::uint64_t>> conv_ntt_fp64(std::uint64_t p, const Matrix<std::uint64_t>& h,
                                                   const Matrix<std::uint64_t>& u, ConvMode mode,
                                                   NttConvPlan* plan_out = nullptr);

class NttFilterFp {
 public:
  // h: n×d filter over F_p (entries ≥ p are reduced), for inputs of n rows in `mode`. Throws
  // std::invalid_argument unless 2 ≤ p < 2^62. The transform of h is computed on the first
  // apply() and then shared (thread-safe) by every later call.
  NttFilterFp(std::uint64_t p, const Matrix<std::uint64_t>& h, ConvMode mode);
  ~NttFilterFp();
  NttFilterFp(const NttFilterFp&) = delete;
  NttFilterFp& operator=(const NttFilterFp&) = delete;

  std::uint64_t prime() const;
  std::size_t rows() const;
  std::size_t cols() const;
  ConvMode mode() const;
  unsigned direct_bits() const;  // ntt_fp_direct_bits(p, rows, mode): 0 means apply() always answers nullopt

  // h*u mod p; std::nullopt when no direct route exists (the caller uses conv_fast). Throws
  // std::invalid_argument when u's shape differs from h's.
  std::optional<Matrix<std::uint64_t>> apply(const Matrix<std::uint64_t>& u, NttConvPlan* plan_out = nullptr) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace cz
