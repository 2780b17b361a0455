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

struct Ssm {  // one channel's SSM; all vectors of the state size m
  std::vector<Rat> lambda;  // diagonal SSM only (empty for the shift SSM)
  std::vector<Rat> B, C;
  Rat D;
};

enum class H3Form { Published, ShiftV };
const char* h3_form_name(H3Form f);  // "published" | "shift_v"

struct H3Operator {
  std::size_t N = 0, d = 0, m = 0;  // sequence length, width, SSM state size
  H3Form form = H3Form::Published;
  RatMatrix WQ, WK, WV;             // d × d
  std::vector<Ssm> shift, diag;     // d each
};

void validate(const H3Operator& op);  // std::invalid_argument on a wrong shape
H3Operator random_h3(std::size_t N, std::size_t d, std::size_t m, std::uint64_t seed, std::int64_t range,
                     H3Form form = H3Form::Published);

// The kernels h[t] = C·A^t·B + D·[t = 0], t < N, per channel (N × d each), exactly over Q.
RatMatrix h3_kernel(const H3Operator& op, bool diagonal);
// H3 as Hyena of order 2 (model/hyena.h): W = [W_K | W_V | W_Q] (ShiftV: [W_V | W_K | W_Q]), h_s = δ0,
// h^1 = h_shift, h^2 = h_diag.
HyenaOperator h3_as_hyena(const H3Operator& op);

template <Ring R>
Matrix<typename R::Elem> h3_eval(const R& r, const H3Operator& op, const Matrix<typename R::Elem>& u) {
  using E = typename R::Elem;
  if (u.rows() != op.N || u.cols() != op.d) throw std::invalid_argument("h3: input is not N×d");
  const std::size_t N = op.N, d = op.d, m = op.m;
  auto proj = [&](const RatMatrix& W) {
    Matrix<E> y(N, d, r.zero());
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t c = 0; c < d; ++c)
        for (std::size_t j = 0; j < d; ++j) r.addmul(y(i, c), u(i, j), r.from_rat(W(j, c)));
    return y;
  };
  // One SSM per channel, run as its recurrence over t = 0..N−1 (state starts at 0).
  auto ssm = [&](const std::vector<Ssm>& f, const Matrix<E>& x, bool diagonal) {
    Matrix<E> y(N, d, r.zero());
    for (std::size_t c = 0; c < d; ++c) {
      std::vector<E> s(m, r.zero());
      for (std::size_t t = 0; t < N; ++t) {
        std::vector<E> next(m, r.zero());
        for (std::size_t i = 0; i < m; ++i) {
          const E prev = diagonal ? r.mul(r.from_rat(f[c].lambda[i]), s[i]) : (i ? s[i - 1] : r.zero());
          next[i] = r.add(prev, r.mul(r.from_rat(f[c].B[i]), x(t, c)));
        }
        s = std::move(next);
        E out = r.mul(r.from_rat(f[c].D), x(t, c));
        for (std::size_t i = 0; i < m; ++i) r.addmul(out, r.from_rat(f[c].C[i]), s[i]);
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
