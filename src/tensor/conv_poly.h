// conv() on symbols (exact/poly.h): tensor/conv.h sends long dense filters to conv_fast, which has
// overloads for the number rings only; over polynomials (and their bound twin) every convolution
// is the definition itself (conv_naive). Include this header before instantiating an evaluator
// over RingPolyQ, RingPolyFp or RingBound (found by argument-dependent lookup).
#pragma once
#include "exact/poly.h"
#include "exact/poly_fp.h"
#include "tensor/conv_naive.h"

namespace cz {

inline Matrix<PolyQ> conv_fast(const RingPolyQ& r, const Matrix<PolyQ>& h, const Matrix<PolyQ>& u, ConvMode mode) {
  return conv_naive(r, h, u, mode);
}
inline Matrix<PolyFp> conv_fast(const RingPolyFp& r, const Matrix<PolyFp>& h, const Matrix<PolyFp>& u, ConvMode mode) {
  return conv_naive(r, h, u, mode);
}
inline Matrix<PolyBound> conv_fast(const RingBound& r, const Matrix<PolyBound>& h, const Matrix<PolyBound>& u, ConvMode mode) {
  return conv_naive(r, h, u, mode);
}

}  // namespace cz
