// FLINT-backed convolution (the fallback of tensor/conv.h beyond the NTT; Q and int64 route
// through conv_fast, which tries the NTT first). Each channel is one polynomial
// product: poly(h)·poly(u) mod X^n for causal, the full product folded mod X^n - 1 for cyclic,
// and the causal product of the reversed input, reversed back, for anticausal
// ((h*u)[i] = sum_k h[k] u[i+k] is the causal convolution of h with rev(u), read at n-1-i).
#include <flint/fmpz_poly.h>
#include <flint/nmod_poly.h>

#include "tensor/conv.h"

namespace cz {
namespace {

fmpz* F(Int& x) { return static_cast<fmpz*>(x.raw()); }
const fmpz* F(const Int& x) { return static_cast<const fmpz*>(x.raw()); }

// Row index into u for the input of mode m (anticausal reads u reversed).
std::size_t in_row(ConvMode m, std::size_t i, std::size_t n) {
  return m == ConvMode::Anticausal ? n - 1 - i : i;
}

}  // namespace

Matrix<Int> conv_flint(const RingZ&, const Matrix<Int>& h, const Matrix<Int>& u, ConvMode mode) {
  const std::size_t n = u.rows(), d = u.cols();
  Matrix<Int> y(n, d);
  fmpz_poly_t ph, pu, pr;
  fmpz_poly_init(ph);
  fmpz_poly_init(pu);
  fmpz_poly_init(pr);
  Int c;
  for (std::size_t j = 0; j < d; ++j) {
    fmpz_poly_zero(ph);
    fmpz_poly_zero(pu);
    for (std::size_t i = 0; i < n; ++i) {
      fmpz_poly_set_coeff_fmpz(ph, static_cast<slong>(i), F(h(i, j)));
      fmpz_poly_set_coeff_fmpz(pu, static_cast<slong>(i), F(u(in_row(mode, i, n), j)));
    }
    if (mode == ConvMode::Cyclic) fmpz_poly_mul(pr, ph, pu);
    else fmpz_poly_mullow(pr, ph, pu, static_cast<slong>(n));
    for (std::size_t i = 0; i < n; ++i) {
      fmpz_poly_get_coeff_fmpz(F(c), pr, static_cast<slong>(i));
      if (mode == ConvMode::Cyclic) {
        Int hi;
        fmpz_poly_get_coeff_fmpz(F(hi), pr, static_cast<slong>(i + n));
        c += hi;
      }
      y(in_row(mode, i, n), j) = c;
    }
  }
  fmpz_poly_clear(ph);
  fmpz_poly_clear(pu);
  fmpz_poly_clear(pr);
  return y;
}

Matrix<std::uint64_t> conv_flint(const RingFp& ring, const Matrix<std::uint64_t>& h,
                                 const Matrix<std::uint64_t>& u, ConvMode mode) {
  const std::size_t n = u.rows(), d = u.cols();
  Matrix<std::uint64_t> y(n, d, 0);
  nmod_poly_t ph, pu, pr;
  nmod_poly_init(ph, ring.prime());
  nmod_poly_init(pu, ring.prime());
  nmod_poly_init(pr, ring.prime());
  for (std::size_t j = 0; j < d; ++j) {
    nmod_poly_zero(ph);
    nmod_poly_zero(pu);
    for (std::size_t i = 0; i < n; ++i) {
      nmod_poly_set_coeff_ui(ph, static_cast<slong>(i), h(i, j));
      nmod_poly_set_coeff_ui(pu, static_cast<slong>(i), u(in_row(mode, i, n), j));
    }
    if (mode == ConvMode::Cyclic) nmod_poly_mul(pr, ph, pu);
    else nmod_poly_mullow(pr, ph, pu, static_cast<slong>(n));
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t c = nmod_poly_get_coeff_ui(pr, static_cast<slong>(i));
      if (mode == ConvMode::Cyclic) c = ring.add(c, nmod_poly_get_coeff_ui(pr, static_cast<slong>(i + n)));
      y(in_row(mode, i, n), j) = c;
    }
  }
  nmod_poly_clear(ph);
  nmod_poly_clear(pu);
  nmod_poly_clear(pr);
  return y;
}

}  // namespace cz
