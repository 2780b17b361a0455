// conv(ring, h, u, mode): the convolution used by every evaluator. For long sequences it goes
// through the multi-modular NTT (tensor/ntt.h: k word primes, k from a certified bound on
// |output|, CRT lift) over Z, int64 and Fp (Q after clearing denominators), and through FLINT
// polynomial multiplication where the bound needs more primes than the NTT has (fmpz_poly_mullow
// over Z, nmod_poly_mullow over Fp); for short sequences and sparse filters through conv_naive.
// Results are identical on every route: tests/tensor compares them on seeded random inputs.
#pragma once
#include "tensor/conv_naive.h"

namespace cz {

// Per-channel polynomial products through FLINT, all three modes (defined in conv_flint.cpp so
// FLINT stays out of headers): the fallback beyond the NTT, and an independent route for tests.
Matrix<Int> conv_flint(const RingZ&, const Matrix<Int>& h, const Matrix<Int>& u, ConvMode mode);
Matrix<std::uint64_t> conv_flint(const RingFp& ring, const Matrix<std::uint64_t>& h,
                                 const Matrix<std::uint64_t>& u, ConvMode mode);

// Sequences at most this long use conv_naive (the transforms' overhead dominates below it).
inline constexpr std::size_t kConvNaiveMaxN = 48;

// Fast path: NTT when the certified bound allows, else FLINT (conv_fast.cpp).
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
