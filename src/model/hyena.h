// Hyena of order k as an exact operator (Zoology §H.2, Alg. 2 `Projection(u, h)` and Alg. 3
// `Hyena(u, h, h_s)`; spec §3 [V for Hyena's prose], §14.3). With u ∈ R^{N×d}:
//   Projection: x = h_s ∗ (u·W), W ∈ R^{d×(k+1)d}, h_s ∈ R^{N×(k+1)d} a short filter per channel
//               (taps at any rows are allowed; "short" is the usual case, not a requirement);
//               split x = [v | p^1 | … | p^k] into N×d blocks, in this column order.
//   Recurrence: z^0 = v,  z^ℓ = p^ℓ ⊙ (h^ℓ ∗ z^{ℓ−1})  (ℓ = 1..k),  output y = z^k.
// ∗ is the causal convolution along rows per channel (spec §1): (h ∗ z)[i] = Σ_{t≤i} h[t]·z[i−t].
// The long filters h^ℓ ∈ R^{N×d} are given explicitly (a trained implicit filter materialised at
// length N). Remark H.5: Hyena's L counts recursion steps, so this operator has L = k.
// Evaluation is written here from these definitions alone (no BaseConv code), so that it can be
// the independent reference of the BaseConv simulation (constructions/sim/hyena.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "exact/ring_scalar.h"
#include "exact/rings.h"
#include "model/model.h"

namespace cz {

// S: the scalar type of the weights (Rat; RingScalar<R> for weights that are symbols, exact/ring_scalar.h).
template <class S>
struct HyenaOperatorT {
  std::size_t N = 0, d = 0, order = 0;  // order k >= 1
  Matrix<S> W;                          // d × (k+1)d
  Matrix<S> hs;                         // N × (k+1)d
  std::vector<Matrix<S>> h;             // k filters, N × d each; h[ℓ−1] is h^ℓ
};
using HyenaOperator = HyenaOperatorT<Rat>;

// Throws std::invalid_argument naming the first field of the wrong shape.
template <class S>
void validate_shape(const HyenaOperatorT<S>& op) {
  auto shape = [](const Matrix<S>& m, std::size_t r, std::size_t c, const std::string& name) {
    if (m.rows() != r || m.cols() != c)
      throw std::invalid_argument("hyena: " + name + " is " + std::to_string(m.rows()) + "×" + std::to_string(m.cols()) + ", want " +
                                  std::to_string(r) + "×" + std::to_string(c));
  };
  if (op.N == 0 || op.d == 0 || op.order == 0) throw std::invalid_argument("hyena: N, d and the order must be positive");
  const std::size_t C = (op.order + 1) * op.d;
  shape(op.W, op.d, C, "W");
  shape(op.hs, op.N, C, "h_s");
  if (op.h.size() != op.order) throw std::invalid_argument("hyena: want one long filter per order");
  for (std::size_t l = 0; l < op.order; ++l) shape(op.h[l], op.N, op.d, "h^" + std::to_string(l + 1));
}
inline void validate(const HyenaOperator& op) { validate_shape(op); }

// Seeded integer weights in [-range, range]; the short filter has taps at rows < short_taps only.
HyenaOperator random_hyena(std::size_t N, std::size_t d, std::size_t order, std::uint64_t seed, std::int64_t range,
                           std::size_t short_taps = 3);

// Parameters as stored: W, h_s and the k long filters.
inline std::size_t hyena_params(const HyenaOperator& op) { return op.d * (op.order + 1) * op.d + op.N * (op.order + 1) * op.d + op.order * op.N * op.d; }

template <Ring R, class S>
Matrix<typename R::Elem> hyena_eval(const R& r, const HyenaOperatorT<S>& op, const Matrix<typename R::Elem>& u) {
  using E = typename R::Elem;
  if (u.rows() != op.N || u.cols() != op.d) throw std::invalid_argument("hyena: input is not N×d");
  const std::size_t N = op.N, d = op.d, C = (op.order + 1) * d;
  auto causal = [&](const Matrix<E>& h, std::size_t hc, const Matrix<E>& z, std::size_t zc, std::size_t i) {
    E s = r.zero();
    for (std::size_t t = 0; t <= i; ++t) r.addmul(s, h(t, hc), z(i - t, zc));
    return s;
  };
  auto ring_of = [&](const Matrix<S>& m) { return map_matrix(m, [&](const S& q) { return lift(r, q); }); };
  const Matrix<E> W = ring_of(op.W), hs = ring_of(op.hs);
  Matrix<E> z(N, C, r.zero());  // u·W
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t c = 0; c < C; ++c)
      for (std::size_t j = 0; j < d; ++j) r.addmul(z(i, c), u(i, j), W(j, c));
  Matrix<E> x(N, C, r.zero());  // h_s ∗ z
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t c = 0; c < C; ++c) x(i, c) = causal(hs, c, z, c, i);
  Matrix<E> cur(N, d, r.zero());  // z^0 = v
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) cur(i, j) = x(i, j);
  for (std::size_t l = 1; l <= op.order; ++l) {
    const Matrix<E> h = ring_of(op.h[l - 1]);
    Matrix<E> next(N, d, r.zero());
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < d; ++j) next(i, j) = r.mul(x(i, l * d + j), causal(h, j, cur, j, i));
    cur = std::move(next);
  }
  return cur;
}

}  // namespace cz
