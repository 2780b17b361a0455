// H3 as an exact operator, as published (Fu et al. 2023, "Hungry Hungry Hippos", §3.1; zoology's
// mixers/h3/h3.py applies ssm_k_kernel to k, multiplies by v, runs the diagonal SSM, multiplies by q;
// spec §3 [V, corrected 12-03]):
//   y = Q ⊙ (h_diag ∗ ((h_shift ∗ K) ⊙ V)),  Q = u·W_Q, K = u·W_K, V = u·W_V  (W_* ∈ R^{d×d}),
// and, as a named variant only (form ShiftV, "shift_v" in model-json), the reading this project
// used before 12-03, y = Q ⊙ (h_diag ∗ (K ⊙ (h_shift ∗ V))): a different operator at d ≥ 2 (the two
// agree at d = 1); kept so that files written before 12-03 keep their meaning with one key.
// with per-channel state-space filters given by their parameters (state size m):
//   shift SSM:    s_t = S·s_{t−1} + B·x_t,  y_t = C·s_t + D·x_t,  S the down-shift (s[i] ← s[i−1])
//   diagonal SSM: s_t = Λ·s_{t−1} + B·x_t,  y_t = C·s_t + D·x_t,  Λ = diag(λ_1..λ_m)
// Their kernels are h[t] = C·A^t·B + D·[t = 0] (A = S or Λ), so h_shift has taps only at t < m.
// h3_eval runs the recurrences themselves (no kernel, no convolution): it is the independent
// reference of the BaseConv simulation, which goes through the kernels (h3_kernels, then Hyena of
// order 2 with v = K, p^1 = V, p^2 = Q (ShiftV: v = V, p^1 = K) and no short filter;
// constructions/sim/h3.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "exact/rings.h"
#include "model/hyena.h"

namespace cz {

template <class S>
struct SsmT {  // one channel's SSM; all vectors of the state size m (S: the weights' scalar type)
  std::vector<S> lambda;  // diagonal SSM only (empty for the shift SSM)
  std::vector<S> B, C;
  S D;
};
using Ssm = SsmT<Rat>;

enum class H3Form { Published, ShiftV };
const char* h3_form_name(H3Form f);  // "published" | "shift_v"

template <class S>
struct H3OperatorT {
  std::size_t N = 0, d = 0, m = 0;  // sequence length, width, SSM state size
  H3Form form = H3Form::Published;
  Matrix<S> WQ, WK, WV;             // d × d
  std::vector<SsmT<S>> shift, diag; // d each
};
using H3Operator = H3OperatorT<Rat>;

template <class S>
void validate_shape(const H3OperatorT<S>& op) {  // std::invalid_argument on a wrong shape
  if (op.N == 0 || op.d == 0 || op.m == 0) throw std::invalid_argument("h3: N, d and the state size must be positive");
  for (const Matrix<S>* W : {&op.WQ, &op.WK, &op.WV})
    if (W->rows() != op.d || W->cols() != op.d) throw std::invalid_argument("h3: a projection is not d×d");
  for (bool diagonal : {false, true}) {
    const auto& f = diagonal ? op.diag : op.shift;
    if (f.size() != op.d) throw std::invalid_argument("h3: want one SSM per channel");
    for (const SsmT<S>& s : f)
      if (s.B.size() != op.m || s.C.size() != op.m || s.lambda.size() != (diagonal ? op.m : 0))
        throw std::invalid_argument("h3: an SSM's B, C (and λ for the diagonal SSM) must have the state size");
  }
}
inline void validate(const H3Operator& op) { validate_shape(op); }
H3Operator random_h3(std::size_t N, std::size_t d, std::size_t m, std::uint64_t seed, std::int64_t range,
                     H3Form form = H3Form::Published);

// The kernels h[t] = C·A^t·B + D·[t = 0], t < N, per channel (N × d each), exactly over Q.
// Templates over the weights' scalar type, instantiated in h3.cpp for Rat and for symbolic weights
// (RingScalar<RingPolyQ>, RingScalar<RingBound>): the one copy the model and the proof both run.
template <class S>
Matrix<S> h3_kernel(const H3OperatorT<S>& op, bool diagonal);
// H3 as Hyena of order 2 (model/hyena.h): W = [W_K | W_V | W_Q] (ShiftV: [W_V | W_K | W_Q]), h_s = δ0,
// h^1 = h_shift, h^2 = h_diag.
template <class S>
HyenaOperatorT<S> h3_as_hyena(const H3OperatorT<S>& op);

template <Ring R, class S>
Matrix<typename R::Elem> h3_eval(const R& r, const H3OperatorT<S>& op, const Matrix<typename R::Elem>& u) {
  using E = typename R::Elem;
  if (u.rows() != op.N || u.cols() != op.d) throw std::invalid_argument("h3: input is not N×d");
  const std::size_t N = op.N, d = op.d, m = op.m;
  auto proj = [&](const Matrix<S>& W) {
    Matrix<E> y(N, d, r.zero());
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t c = 0; c < d; ++c)
        for (std::size_t j = 0; j < d; ++j) r.addmul(y(i, c), u(i, j), lift(r, W(j, c)));
    return y;
  };
  // One SSM per channel, run as its recurrence over t = 0..N−1 (state starts at 0).
  auto ssm = [&](const std::vector<SsmT<S>>& f, const Matrix<E>& x, bool diagonal) {
    Matrix<E> y(N, d, r.zero());
    for (std::size_t c = 0; c < d; ++c) {
      std::vector<E> s(m, r.zero());
      for (std::size_t t = 0; t < N; ++t) {
        std::vector<E> next(m, r.zero());
        for (std::size_t i = 0; i < m; ++i) {
          const E prev = diagonal ? r.mul(lift(r, f[c].lambda[i]), s[i]) : (i ? s[i - 1] : r.zero());
          next[i] = r.add(prev, r.mul(lift(r, f[c].B[i]), x(t, c)));
        }
        s = std::move(next);
        E out = r.mul(lift(r, f[c].D), x(t, c));
        for (std::size_t i = 0; i < m; ++i) r.addmul(out, lift(r, f[c].C[i]), s[i]);
        y(t, c) = out;
      }
    }
    return y;
  };
  const Matrix<E> Q = proj(op.WQ), K = proj(op.WK), V = proj(op.WV);
  // Published: the shift SSM runs on K, then gates with V; ShiftV: on V, then gates with K.
  const bool published = op.form == H3Form::Published;
  Matrix<E> a = ssm(op.shift, published ? K : V, false);
  const Matrix<E>& gate = published ? V : K;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t c = 0; c < d; ++c) a(i, c) = r.mul(gate(i, c), a(i, c));
  Matrix<E> y = ssm(op.diag, a, true);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t c = 0; c < d; ++c) y(i, c) = r.mul(Q(i, c), y(i, c));
  return y;
}

}  // namespace cz
