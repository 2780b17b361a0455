// Exact semantics of the BaseConv primitives (spec §5, "Exact semantics" column), written
// directly from their definitions over any ring, and never from a construction's weights.
// These are the reference side of every primitive's verification.
#pragma once
#include <functional>
#include <stdexcept>

#include "exact/rings.h"
#include "tensor/matrix.h"

namespace cz::sem {

template <Ring R, class E = typename R::Elem>
Matrix<E> identity(const R&, const Matrix<E>& u) { return u; }

// y[i] = u[i-s] for i >= s, else 0
template <Ring R, class E = typename R::Elem>
Matrix<E> shift_down(const R& r, const Matrix<E>& u, std::size_t s) {
  Matrix<E> y(u.rows(), u.cols(), r.zero());
  for (std::size_t i = s; i < u.rows(); ++i)
    for (std::size_t j = 0; j < u.cols(); ++j) y(i, j) = u(i - s, j);
  return y;
}

// y[i] = u[i+s] for i+s < N, else 0
template <Ring R, class E = typename R::Elem>
Matrix<E> shift_up(const R& r, const Matrix<E>& u, std::size_t s) {
  Matrix<E> y(u.rows(), u.cols(), r.zero());
  for (std::size_t i = 0; i + s < u.rows(); ++i)
    for (std::size_t j = 0; j < u.cols(); ++j) y(i, j) = u(i + s, j);
  return y;
}

// y[i] = sum_{k<=i} u[k]
template <Ring R, class E = typename R::Elem>
Matrix<E> cumsum(const R& r, const Matrix<E>& u) {
  Matrix<E> y(u.rows(), u.cols(), r.zero());
  for (std::size_t i = 0; i < u.rows(); ++i)
    for (std::size_t j = 0; j < u.cols(); ++j) y(i, j) = i ? r.add(y(i - 1, j), u(i, j)) : u(i, j);
  return y;
}

// u = [x | z] (d = 2k) -> [x + z | 0]
template <Ring R, class E = typename R::Elem>
Matrix<E> add_blocks(const R& r, const Matrix<E>& u) {
  const std::size_t k = u.cols() / 2;
  Matrix<E> y(u.rows(), u.cols(), r.zero());
  for (std::size_t i = 0; i < u.rows(); ++i)
    for (std::size_t j = 0; j < k; ++j) y(i, j) = r.add(u(i, j), u(i, k + j));
  return y;
}

// u = [x | z] (d = 2k) -> [x ⊙ z | 0]
template <Ring R, class E = typename R::Elem>
Matrix<E> hadamard_blocks(const R& r, const Matrix<E>& u) {
  const std::size_t k = u.cols() / 2;
  Matrix<E> y(u.rows(), u.cols(), r.zero());
  for (std::size_t i = 0; i < u.rows(); ++i)
    for (std::size_t j = 0; j < k; ++j) y(i, j) = r.mul(u(i, j), u(i, k + j));
  return y;
}

// remember(u, s, t, f): y[i] = f(u[s:t])[i-s] for s <= i < t, y[i] = u[i] otherwise
// (Based Def F.15 as cited by JRT Lemma G.20). f maps (t-s)×d to (t-s)×d.
template <Ring R, class E = typename R::Elem, class F>
Matrix<E> remember(const R& r, const Matrix<E>& u, std::size_t s, std::size_t t, F&& f) {
  (void)r;
  Matrix<E> piece(t - s, u.cols());
  for (std::size_t i = s; i < t; ++i)
    for (std::size_t j = 0; j < u.cols(); ++j) piece(i - s, j) = u(i, j);
  Matrix<E> fp = f(piece);
  Matrix<E> y = u;
  for (std::size_t i = s; i < t; ++i)
    for (std::size_t j = 0; j < u.cols(); ++j) y(i, j) = fp(i - s, j);
  return y;
}

}  // namespace cz::sem
