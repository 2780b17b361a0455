// RetNet multi-head retention as an exact operator (Sun et al. 2023, "Retentive Network"; Zoology
// §H.2 Alg. 6 as recalled in spec §3 [M]): with u ∈ R^{N×d}, H heads, key width dk, value width dv,
//   Q = u·W_Q, K = u·W_K (d × H·dk),  V = u·W_V (d × H·dv),  head h uses columns [h·dk, (h+1)·dk)
//   of Q, K and [h·dv, (h+1)·dv) of V, and its own decay γ_h ∈ Q:
//   o_h[n] = Σ_{m≤n} γ_h^{n−m} ⟨q_n^h, k_m^h⟩ v_m^h,     y = [o_0 | … | o_{H−1}]·W_O  (W_O: H·dv × d).
// RetNet's rotation (xPos without its length-extrapolation scale): q_n and k_m are rotated by
// position before the inner product, pair by pair of their dk coordinates (2i, 2i+1), as
// torchscale's theta_shift does: x'[2i] = cos(nθ)·x[2i] − sin(nθ)·x[2i+1], x'[2i+1] = sin(nθ)·x[2i]
// + cos(nθ)·x[2i+1], so ⟨q'_n, k'_m⟩ depends on n − m only. It is exact where (cos θ, sin θ) is a
// rational point of the unit circle (e.g. (3/5, 4/5)): then cos(nθ), sin(nθ) are rational for
// every n (powers of the 2×2 rotation). `rotation` holds one (cos θ, sin θ) per head and pair
// (H × dk/2); empty = no rotation (θ = 0), the retention of Zoology's gated-convolution form.
// RetNet's GroupNorm and swish gate are not polynomial and are left out (the retention itself is
// what Zoology writes as a gated convolution); xPos's scale ζ^n is not modelled either. γ is rational (RetNet: γ_h = 1 − 2^{−5−h}), so the
// operator is over Q; over Z only when every γ_h and weight is integral (RingZ::from_rat throws
// otherwise); over Fp when p divides no denominator.
// Two evaluations, both written from the definition alone (no BaseConv, no convolution code):
//   retnet_eval         the recurrent form S_n = γ·S_{n−1} + k_nᵀ v_n (dk × dv), o_n = q_n·S_n, the
//                       independent reference of the BaseConv simulation (constructions/sim/retnet.cpp);
//   retnet_eval_direct  the double sum above, term by term (tests check the two agree).
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "exact/ring_scalar.h"
#include "exact/rings.h"
#include "model/model.h"

namespace cz {

// S: the weights' scalar type (Rat; RingScalar<R> for weights that are symbols, exact/ring_scalar.h).
template <class S>
struct RetNetOperatorT {
  std::size_t N = 0, d = 0, heads = 0, dk = 0, dv = 0;
  Matrix<S> WQ, WK, WV, WO;  // d×H·dk, d×H·dk, d×H·dv, H·dv×d
  std::vector<S> gamma;      // one decay per head
  // rotation[h][i] = (cos θ, sin θ) of head h's coordinate pair (2i, 2i+1); empty: no rotation.
  std::vector<std::vector<std::pair<S, S>>> rotation;
};
using RetNetOperator = RetNetOperatorT<Rat>;

// (cos nθ, sin nθ) for n = 0..N−1 from (cos θ, sin θ), by angle addition: polynomials in (c, s),
// so they are powers of the 2×2 matrix [[c, −s], [s, c]] for EVERY (c, s), on the circle or not.
template <class S>
std::vector<std::pair<S, S>> rotation_powers_of(const std::pair<S, S>& cs, std::size_t N) {
  std::vector<std::pair<S, S>> out;
  S c(Rat(1)), s(Rat(0));
  for (std::size_t n = 0; n < N; ++n) {
    out.emplace_back(c, s);
    const S c2 = c * cs.first - s * cs.second, s2 = s * cs.first + c * cs.second;  // angle addition
    c = c2, s = s2;
  }
  return out;
}
inline std::vector<std::pair<Rat, Rat>> rotation_powers(const std::pair<Rat, Rat>& cs, std::size_t N) { return rotation_powers_of(cs, N); }
// Whether any head has a pair with θ ≠ 0 (a symbolic sine is never 0: the rotated layout).
template <class S>
bool retnet_rotated(const RetNetOperatorT<S>& op) {
  for (const auto& head : op.rotation)
    for (const auto& [c, s] : head)
      if (!s.is_zero() || c != S(Rat(1))) return true;
  return false;
}

// Shapes only (std::invalid_argument naming the first bad field); validate() adds the unit circle.
template <class S>
void validate_shape(const RetNetOperatorT<S>& op) {
  auto shape = [](const Matrix<S>& m, std::size_t r, std::size_t c, const std::string& name) {
    if (m.rows() != r || m.cols() != c)
      throw std::invalid_argument("retnet: " + name + " is " + std::to_string(m.rows()) + "×" + std::to_string(m.cols()) + ", want " +
                                  std::to_string(r) + "×" + std::to_string(c));
  };
  if (op.N == 0 || op.d == 0 || op.heads == 0 || op.dk == 0 || op.dv == 0)
    throw std::invalid_argument("retnet: N, d, heads, dk and dv must be positive");
  shape(op.WQ, op.d, op.heads * op.dk, "W_Q");
  shape(op.WK, op.d, op.heads * op.dk, "W_K");
  shape(op.WV, op.d, op.heads * op.dv, "W_V");
  shape(op.WO, op.heads * op.dv, op.d, "W_O");
  if (op.gamma.size() != op.heads) throw std::invalid_argument("retnet: want one decay γ per head");
  if (op.rotation.empty()) return;
  if (op.dk % 2) throw std::invalid_argument("retnet: a rotation needs an even key width dk (pairs of coordinates)");
  if (op.rotation.size() != op.heads) throw std::invalid_argument("retnet: want one rotation per head");
  for (const auto& head : op.rotation)
    if (head.size() != op.dk / 2) throw std::invalid_argument("retnet: want one (cos θ, sin θ) per pair of key coordinates (dk/2)");
}

void validate(const RetNetOperator& op);  // std::invalid_argument naming the first bad field
// Seeded nonzero integer projections in [-range, range]; γ_h = 1 − 2^{−(gexp + h)} (RetNet's schedule with
// 5 replaced by gexp), or γ_h = 1 for every head when gexp = 0 (an integral, Z-exact operator).
// rotate = true: dk must be even; pair i of head h gets a Pythagorean point (a²−b², 2ab)/(a²+b²)
// drawn from small a > b > 0 (θ ≠ 0, rational cos and sin).
RetNetOperator random_retnet(std::size_t N, std::size_t d, std::size_t heads, std::size_t dk, std::size_t dv,
                             std::uint64_t seed, std::int64_t range, std::size_t gexp, bool rotate = false);
bool retnet_integral(const RetNetOperator& op);  // every weight, γ and rotation entry in Z
// Stored parameters: the four projections and the H decays.
inline std::size_t retnet_params(const RetNetOperator& op) {
  return 2 * op.d * op.heads * op.dk + 2 * op.d * op.heads * op.dv + op.heads;
}

namespace retnet_detail {
template <Ring R, class S>
Matrix<typename R::Elem> proj(const R& r, const Matrix<typename R::Elem>& u, const Matrix<S>& W) {
  Matrix<typename R::Elem> y(u.rows(), W.cols(), r.zero());
  for (std::size_t i = 0; i < u.rows(); ++i)
    for (std::size_t j = 0; j < u.cols(); ++j)
      for (std::size_t c = 0; c < W.cols(); ++c) r.addmul(y(i, c), u(i, j), lift(r, W(j, c)));
  return y;
}

// Q (or K) rotated in place by position: head h's pair (2i, 2i+1) of row n by nθ_{h,i}, the
// powers (cos nθ, sin nθ) made step by step in the ring (angle addition), not by the compiler's
// rotation_powers_of.
template <Ring R, class S>
void rotate(const R& r, const RetNetOperatorT<S>& op, Matrix<typename R::Elem>& X) {
  if (op.rotation.empty()) return;
  for (std::size_t h = 0; h < op.heads; ++h)
    for (std::size_t i = 0; i < op.dk / 2; ++i) {
      const auto c1 = lift(r, op.rotation[h][i].first), s1 = lift(r, op.rotation[h][i].second);
      auto c = r.one(), s = r.zero();  // cos nθ, sin nθ
      const std::size_t a = h * op.dk + 2 * i;
      for (std::size_t n = 0; n < op.N; ++n) {
        const auto x0 = X(n, a), x1 = X(n, a + 1);
        X(n, a) = r.sub(r.mul(c, x0), r.mul(s, x1));
        X(n, a + 1) = r.add(r.mul(s, x0), r.mul(c, x1));
        auto c2 = r.sub(r.mul(c, c1), r.mul(s, s1)), s2 = r.add(r.mul(s, c1), r.mul(c, s1));
        c = std::move(c2), s = std::move(s2);
      }
    }
}
}  // namespace retnet_detail

template <Ring R, class Sc>
Matrix<typename R::Elem> retnet_eval(const R& r, const RetNetOperatorT<Sc>& op, const Matrix<typename R::Elem>& u) {
  using E = typename R::Elem;
  if (u.rows() != op.N || u.cols() != op.d) throw std::invalid_argument("retnet: input is not N×d");
  const std::size_t N = op.N, H = op.heads, dk = op.dk, dv = op.dv;
  Matrix<E> Q = retnet_detail::proj(r, u, op.WQ), K = retnet_detail::proj(r, u, op.WK);
  const Matrix<E> V = retnet_detail::proj(r, u, op.WV);
  retnet_detail::rotate(r, op, Q);
  retnet_detail::rotate(r, op, K);
  Matrix<E> o(N, H * dv, r.zero());
  for (std::size_t h = 0; h < H; ++h) {
    const E g = lift(r, op.gamma[h]);
    Matrix<E> S(dk, dv, r.zero());  // state: Σ_{m≤n} γ^{n−m} k_mᵀ v_m
    for (std::size_t n = 0; n < N; ++n) {
      for (std::size_t a = 0; a < dk; ++a)
        for (std::size_t b = 0; b < dv; ++b) S(a, b) = r.add(r.mul(g, S(a, b)), r.mul(K(n, h * dk + a), V(n, h * dv + b)));
      for (std::size_t a = 0; a < dk; ++a)
        for (std::size_t b = 0; b < dv; ++b) r.addmul(o(n, h * dv + b), Q(n, h * dk + a), S(a, b));
    }
  }
  return retnet_detail::proj(r, o, op.WO);
}

template <Ring R, class Sc>
Matrix<typename R::Elem> retnet_eval_direct(const R& r, const RetNetOperatorT<Sc>& op, const Matrix<typename R::Elem>& u) {
  using E = typename R::Elem;
  if (u.rows() != op.N || u.cols() != op.d) throw std::invalid_argument("retnet: input is not N×d");
  const std::size_t N = op.N, H = op.heads, dk = op.dk, dv = op.dv;
  const Matrix<E> Q = retnet_detail::proj(r, u, op.WQ), K = retnet_detail::proj(r, u, op.WK), V = retnet_detail::proj(r, u, op.WV);
  Matrix<E> o(N, H * dv, r.zero());
  for (std::size_t h = 0; h < H; ++h)
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t m = 0; m <= n; ++m) {
        E w = r.one();  // γ^{n−m}
        for (std::size_t t = m; t < n; ++t) w = r.mul(w, lift(r, op.gamma[h]));
        E ip = r.zero();  // ⟨R(nθ)q_n, R(mθ)k_m⟩ = q_nᵀ R((m−n)θ) k_m per pair: one rotation by m − n
        for (std::size_t a = 0; a < dk; ++a) {
          if (op.rotation.empty()) {  // (validate: a rotated operator has dk even)
            r.addmul(ip, Q(n, h * dk + a), K(m, h * dk + a));
            continue;
          }
          if (a % 2) continue;
          // R(−(n−m)θ) = R(nθ)ᵀR(mθ): cos(n−m)θ, −sin(n−m)θ from the pair's powers.
          const auto pw = rotation_powers_of(op.rotation[h][a / 2], n - m + 1);
          const E c = lift(r, pw[n - m].first), s = lift(r, pw[n - m].second);
          const E q0 = Q(n, h * dk + a), q1 = Q(n, h * dk + a + 1), k0 = K(m, h * dk + a), k1 = K(m, h * dk + a + 1);
          // q·R(−δ)k with R(−δ) = [[c, s], [−s, c]]: q0(c k0 + s k1) + q1(−s k0 + c k1)
          r.addmul(ip, q0, r.add(r.mul(c, k0), r.mul(s, k1)));
          r.addmul(ip, q1, r.sub(r.mul(c, k1), r.mul(s, k0)));
        }
        const E c = r.mul(w, ip);
        for (std::size_t b = 0; b < dv; ++b) r.addmul(o(n, h * dv + b), c, V(m, h * dv + b));
      }
  return retnet_detail::proj(r, o, op.WO);
}

}  // namespace cz
