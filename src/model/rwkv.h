// RWKV-4 time mixing (Peng et al. 2023, "RWKV: Reinventing RNNs"; Zoology §H.2 Alg. 4–5 as
// recalled in spec §3 [M]) with the WKV ratio kept exact as a (numerator, denominator) pair.
// Per channel c < d, with decay λ_c = e^{−w_c} and bonus β_c = e^{u_c} given as rationals:
//   token shift  xv[t] = μ_c·x[t] + (1 − μ_c)·x[t−1]   (x[−1] = 0),   v = xv·W_V  (W_V: d × d)
//   num[t] = Σ_{i<t} λ^{t−1−i}·E[i]·v[i] + β·E[t]·v[t],   den[t] = Σ_{i<t} λ^{t−1−i}·E[i] + β·E[t]
//   wkv[t] = num[t] / den[t]
// E = exp(k) is SUPPLIED AS AN INPUT FEATURE (k = W_K·(token-shifted x) in RWKV; exp is not a
// polynomial, so no BaseConv computes it from x): the operator's input is u = [E | x] ∈ Q^{N×2d}
// (columns 0..d−1 are E, d..2d−1 are x) and its polynomial output is [num | den] ∈ Q^{N×2d}.
// The receptance gate σ(r) ⊙ wkv and the output projection act after the division and are left
// out (σ is not polynomial either; they would be applied to the ratio, not to num and den).
// The ratio itself is not a BaseConv output: rwkv_ratio_line() evaluates it on a line where it is
// x/(x+1), and no_polynomial_fit() proves exactly that no polynomial of degree ≤ D agrees with it
// on D + 2 points (spec §14.3 [R]; an L-layer BaseConv is a polynomial of degree ≤ 2^L, row 5).
// rwkv_eval is RWKV's own recurrence (the v4 kernel's a, b states written exactly, no max
// tracking: that only guards floating-point exp), the independent reference of sim/rwkv;
// rwkv_eval_direct is the double sum above (tests check the two agree).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "exact/ring_scalar.h"
#include "exact/rings.h"
#include "model/model.h"

namespace cz {

// S: the weights' scalar type (Rat; RingScalar<R> for weights that are symbols, exact/ring_scalar.h).
template <class S>
struct RwkvOperatorT {
  std::size_t N = 0, d = 0;
  std::vector<S> mu;            // token-shift mix for v, per channel
  Matrix<S> WV;                 // d × d
  std::vector<S> decay, bonus;  // λ_c = e^{−w_c}, β_c = e^{u_c}, per channel
};
using RwkvOperator = RwkvOperatorT<Rat>;

template <class S>
void validate_shape(const RwkvOperatorT<S>& op) {  // std::invalid_argument naming the first bad field
  if (op.N == 0 || op.d == 0) throw std::invalid_argument("rwkv: N and d must be positive");
  if (op.WV.rows() != op.d || op.WV.cols() != op.d) throw std::invalid_argument("rwkv: W_V is not d×d");
  if (op.mu.size() != op.d) throw std::invalid_argument("rwkv: want one token-shift μ per channel");
  if (op.decay.size() != op.d) throw std::invalid_argument("rwkv: want one decay λ per channel");
  if (op.bonus.size() != op.d) throw std::invalid_argument("rwkv: want one bonus β per channel");
}
inline void validate(const RwkvOperator& op) { validate_shape(op); }
// Seeded: W_V nonzero integers in [-range, range]; rational = true gives RWKV-like μ ∈ {1/4, 1/2, 3/4},
// λ ∈ {1, 1/2, 1/3}, β ∈ {1/2, 1, 3/2, 2} (a Q operator), false integers in [-2, 2] (Z-exact).
RwkvOperator random_rwkv(std::size_t N, std::size_t d, std::uint64_t seed, std::int64_t range, bool rational);
bool rwkv_integral(const RwkvOperator& op);
inline std::size_t rwkv_params(const RwkvOperator& op) { return op.d * op.d + 3 * op.d; }

namespace rwkv_detail {
template <Ring R, class S>
Matrix<typename R::Elem> values(const R& r, const RwkvOperatorT<S>& op, const Matrix<typename R::Elem>& u) {
  using E = typename R::Elem;
  if (u.rows() != op.N || u.cols() != 2 * op.d) throw std::invalid_argument("rwkv: input is not N×2d ([E | x])");
  const std::size_t N = op.N, d = op.d;
  Matrix<E> xv(N, d, r.zero()), v(N, d, r.zero());
  for (std::size_t t = 0; t < N; ++t)
    for (std::size_t c = 0; c < d; ++c) {
      const E m = lift(r, op.mu[c]);
      xv(t, c) = r.mul(m, u(t, d + c));
      if (t) r.addmul(xv(t, c), r.sub(r.one(), m), u(t - 1, d + c));
    }
  for (std::size_t t = 0; t < N; ++t)
    for (std::size_t j = 0; j < d; ++j)
      for (std::size_t c = 0; c < d; ++c) r.addmul(v(t, c), xv(t, j), lift(r, op.WV(j, c)));
  return v;
}
}  // namespace rwkv_detail

// [num | den] by the recurrence: a_{t+1} = λ·a_t + E_t·v_t, b_{t+1} = λ·b_t + E_t (a_0 = b_0 = 0),
// num_t = a_t + β·E_t·v_t, den_t = b_t + β·E_t.
template <Ring R, class S>
Matrix<typename R::Elem> rwkv_eval(const R& r, const RwkvOperatorT<S>& op, const Matrix<typename R::Elem>& u) {
  using E = typename R::Elem;
  const Matrix<E> v = rwkv_detail::values(r, op, u);
  const std::size_t N = op.N, d = op.d;
  Matrix<E> y(N, 2 * d, r.zero());
  for (std::size_t c = 0; c < d; ++c) {
    const E lam = lift(r, op.decay[c]), beta = lift(r, op.bonus[c]);
    E a = r.zero(), b = r.zero();
    for (std::size_t t = 0; t < N; ++t) {
      const E e = u(t, c), ev = r.mul(e, v(t, c));
      y(t, c) = r.add(a, r.mul(beta, ev));
      y(t, d + c) = r.add(b, r.mul(beta, e));
      a = r.add(r.mul(lam, a), ev);
      b = r.add(r.mul(lam, b), e);
    }
  }
  return y;
}

template <Ring R, class S>
Matrix<typename R::Elem> rwkv_eval_direct(const R& r, const RwkvOperatorT<S>& op, const Matrix<typename R::Elem>& u) {
  using E = typename R::Elem;
  const Matrix<E> v = rwkv_detail::values(r, op, u);
  const std::size_t N = op.N, d = op.d;
  Matrix<E> y(N, 2 * d, r.zero());
  for (std::size_t c = 0; c < d; ++c)
    for (std::size_t t = 0; t < N; ++t) {
      const E beta = lift(r, op.bonus[c]);
      E num = r.mul(beta, r.mul(u(t, c), v(t, c))), den = r.mul(beta, u(t, c));
      for (std::size_t i = 0; i < t; ++i) {
        E w = r.one();  // λ^{t−1−i}
        for (std::size_t k = i + 1; k < t; ++k) w = r.mul(w, lift(r, op.decay[c]));
        r.addmul(num, w, r.mul(u(i, c), v(i, c)));
        r.addmul(den, w, u(i, c));
      }
      y(t, c) = num;
      y(t, d + c) = den;
    }
  return y;
}

// wkv = num / den over Q (N × d); throws std::domain_error where a denominator is 0.
Matrix<Rat> rwkv_ratio(const RwkvOperator& op, const Matrix<Rat>& u);

// The WKV ratio on a line: N = 2, d = 1, μ = 1, W_V = 1, β = 1 (λ any), input E = (x, 1),
// x-tokens (1, 0), so num[1] = x and den[1] = x + 1 by the operator's own evaluation; returns
// (num[1], den[1]) at each of the points.
std::vector<std::pair<Rat, Rat>> rwkv_line_values(const Rat& lambda, const std::vector<Rat>& xs);

// The operator's own [num | den] (N × 2d) on the line u(x) = u0 + x·u1 (u0, u1 ∈ Q^{N×2d}), one
// matrix per point x: the ratio check of sim/rwkv on lines drawn from a model's own weights and
// seeded inputs (issue 35), not only on the fixed line above.
std::vector<Matrix<Rat>> rwkv_on_line(const RwkvOperator& op, const Matrix<Rat>& u0, const Matrix<Rat>& u1, const std::vector<Rat>& xs);

// Divided differences f[x_0..x_k] for k = 0..n−1 (distinct xs). A polynomial of degree ≤ D has
// f[x_0..x_{D+1}] = 0, so a nonzero one proves that no polynomial of degree ≤ D agrees with f on
// {x_0..x_{D+1}}. Returns the smallest D ≤ max_degree whose (D+1)-th difference is 0 (f is then
// consistent with degree ≤ D on those points), or nullopt: no polynomial of degree ≤ max_degree
// agrees with f on the points x_0..x_{max_degree+1}. Needs max_degree + 2 points.
std::optional<std::size_t> polynomial_fit_degree(const std::vector<Rat>& xs, const std::vector<Rat>& ys, std::size_t max_degree);

}  // namespace cz
