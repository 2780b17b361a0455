// conv(ring, h, u, mode): the convolution used by every evaluator. For long sequences it goes
// through FLINT polynomial multiplication (fmpz_poly_mullow over Z, nmod_poly_mullow over Fp,
// Z after clearing denominators over Q, and Z with a checked narrowing back for int64); for
// short ones, and for sparse filters, through conv_naive. Results are identical either way:
// tests/tensor compares them on seeded random inputs.
#pragma once
#include "tensor/conv_naive.h"

namespace cz {

// Per-channel polynomial products through FLINT (declared here, defined in conv_flint.cpp so
// FLINT stays out of headers). They compute the causal product mod X^n; the other modes are
// derived by conv_fast below.
Matrix<Int> conv_flint_causal(const Matrix<Int>& h, const Matrix<Int>& u, std::size_t full_len);
Matrix<std::uint64_t> conv_flint_causal(const RingFp& ring, const Matrix<std::uint64_t>& h,
                                        const Matrix<std::uint64_t>& u, std::size_t full_len);

// Sequences at most this long use conv_naive (FLINT's call overhead dominates below it).
inline constexpr std::size_t kConvNaiveMaxN = 48;

// Fast path. `full_len` products of length 2n-1 are requested for the cyclic fold.
Matrix<Int> conv_fast(const RingZ&, const Matrix<Int>& h, const Matrix<Int>& u, ConvMode mode);
Matrix<Rat> conv_fast(const RingQ&, const Matrix<Rat>& h, const Matrix<Rat>& u, ConvMode mode);
Matrix<std::uint64_t> conv_fast(const RingFp& ring, const Matrix<std::uint64_t>& h,
                                const Matrix<std::uint64_t>& u, ConvMode mode);
Matrix<std::int64_t> conv_fast(const RingI64&, const Matrix<std::int64_t>& h,
                               const Matrix<std::int64_t>& u, ConvMode mode);

// Counts nonzero taps; a filter with few taps is cheaper through conv_naive.
template <Ring R>
std::size_t nonzero_taps(const R& ring, const Matrix<typename R::Elem>& h) {
  std::size_t c = 0;
  for (const auto& x : h.data()) c += !ring.is_zero(x);
  return c;
}

template <Ring R>
Matrix<typename R::Elem> conv(const R& ring, const Matrix<typename R::Elem>& h,
                              const Matrix<typename R::Elem>& u, ConvMode mode) {
  const std::size_t n = u.rows(), d = u.cols();
  // Sparse filters (shifts, identity) cost n per tap naively; dense ones go to FLINT.
  if (n <= kConvNaiveMaxN || nonzero_taps(ring, h) <= 4 * d) return conv_naive(ring, h, u, mode);
  return conv_fast(ring, h, u, mode);
}

}  // namespace cz
