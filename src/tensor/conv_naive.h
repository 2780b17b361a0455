// The O(N^2) reference convolution, per channel along rows, written straight from the
// definitions in conv_mode.h. Zero filter taps are skipped, so sparse kernels such as X^s
// (shift) cost O(N·taps): this is also the fast path for the small N that verification uses.
#pragma once
#include <stdexcept>

#include "exact/rings.h"
#include "tensor/conv_mode.h"
#include "tensor/matrix.h"

namespace cz {

template <Ring R>
Matrix<typename R::Elem> conv_naive(const R& ring, const Matrix<typename R::Elem>& h,
                                    const Matrix<typename R::Elem>& u, ConvMode mode) {
  if (h.rows() != u.rows() || h.cols() != u.cols())
    throw std::invalid_argument("conv: filter and input shapes differ");
  const std::size_t n = u.rows(), d = u.cols();
  Matrix<typename R::Elem> y(n, d, ring.zero());
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t j = 0; j < d; ++j) {
      const auto& hk = h(k, j);
      if (ring.is_zero(hk)) continue;
      switch (mode) {
        case ConvMode::Causal:
          for (std::size_t i = k; i < n; ++i) ring.addmul(y(i, j), hk, u(i - k, j));
          break;
        case ConvMode::Cyclic:
          for (std::size_t i = 0; i < n; ++i) ring.addmul(y(i, j), hk, u((i + n - k) % n, j));
          break;
        case ConvMode::Anticausal:
          for (std::size_t i = 0; i + k < n; ++i) ring.addmul(y(i, j), hk, u(i + k, j));
          break;
      }
    }
  }
  return y;
}

}  // namespace cz
