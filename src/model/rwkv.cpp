#include "model/rwkv.h"

#include <random>
#include <string>

namespace cz {

RwkvOperator random_rwkv(std::size_t N, std::size_t d, std::uint64_t seed, std::int64_t range, bool rational) {
  std::mt19937_64 g(seed * 0x9e3779b97f4a7c15ULL + 0x52574b56ULL);
  auto draw = [&](std::int64_t lim) { return static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(2 * lim + 1)) - lim; };
  RwkvOperator op;
  op.N = N, op.d = d;
  op.WV = RatMatrix(d, d);
  for (auto& x : op.WV.data()) {  // nonzero, so that no channel's value is silenced
    const std::int64_t v = static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(2 * range)) - range;
    x = Rat(v >= 0 ? v + 1 : v);
  }
  for (std::size_t c = 0; c < d; ++c) {
    if (rational) {
      op.mu.push_back(Rat(Int(1 + static_cast<std::int64_t>(g() % 3)), Int(4)));  // both token-shift taps nonzero
      op.decay.push_back(Rat(Int(1), Int(1 + static_cast<std::int64_t>(g() % 3))));
      op.bonus.push_back(Rat(Int(1 + static_cast<std::int64_t>(g() % 4)), Int(2)));
    } else {
      op.mu.push_back(Rat(draw(2)));
      op.decay.push_back(Rat(draw(2)));
      op.bonus.push_back(Rat(draw(2)));
    }
  }
  validate(op);
  return op;
}

bool rwkv_integral(const RwkvOperator& op) {
  for (const Rat& x : op.WV.data())
    if (!x.is_integer()) return false;
  for (const auto* v : {&op.mu, &op.decay, &op.bonus})
    for (const Rat& x : *v)
      if (!x.is_integer()) return false;
  return true;
}

Matrix<Rat> rwkv_ratio(const RwkvOperator& op, const Matrix<Rat>& u) {
  const Matrix<Rat> nd = rwkv_eval(RingQ{}, op, u);
  Matrix<Rat> w(op.N, op.d);
  for (std::size_t t = 0; t < op.N; ++t)
    for (std::size_t c = 0; c < op.d; ++c) {
      if (nd(t, op.d + c).is_zero())
        throw std::domain_error("rwkv: WKV denominator is 0 at row " + std::to_string(t) + ", channel " + std::to_string(c));
      w(t, c) = nd(t, c) / nd(t, op.d + c);
    }
  return w;
}

std::vector<std::pair<Rat, Rat>> rwkv_line_values(const Rat& lambda, const std::vector<Rat>& xs) {
  RwkvOperator op;
  op.N = 2, op.d = 1;
  op.mu = {Rat(1)};
  op.WV = RatMatrix(1, 1, Rat(1));
  op.decay = {lambda};
  op.bonus = {Rat(1)};
  std::vector<std::pair<Rat, Rat>> out;
  for (const Rat& x : xs) {
    Matrix<Rat> u(2, 2);
    u(0, 0) = x, u(1, 0) = Rat(1);  // E = (x, 1)
    u(0, 1) = Rat(1), u(1, 1) = Rat(0);  // x-tokens (1, 0): v = (1, 0)
    const Matrix<Rat> nd = rwkv_eval(RingQ{}, op, u);
    out.emplace_back(nd(1, 0), nd(1, 1));
  }
  return out;
}

std::vector<Matrix<Rat>> rwkv_on_line(const RwkvOperator& op, const Matrix<Rat>& u0, const Matrix<Rat>& u1, const std::vector<Rat>& xs) {
  std::vector<Matrix<Rat>> out;
  for (const Rat& x : xs) {
    Matrix<Rat> u = u0;
    for (std::size_t i = 0; i < u.rows(); ++i)
      for (std::size_t j = 0; j < u.cols(); ++j) u(i, j) += x * u1(i, j);
    out.push_back(rwkv_eval(RingQ{}, op, u));
  }
  return out;
}

std::optional<std::size_t> polynomial_fit_degree(const std::vector<Rat>& xs, const std::vector<Rat>& ys, std::size_t max_degree) {
  const std::size_t n = max_degree + 2;
  if (xs.size() < n || ys.size() < n) throw std::invalid_argument("polynomial_fit_degree: want max_degree + 2 points");
  // Newton's table in place: after pass k, col[i] = f[x_{i−k}..x_i]; col[k] is f[x_0..x_k].
  std::vector<Rat> col(ys.begin(), ys.begin() + static_cast<std::ptrdiff_t>(n));
  for (std::size_t k = 1; k < n; ++k) {
    for (std::size_t i = n - 1; i >= k; --i) {
      const Rat dx = xs[i] - xs[i - k];
      if (dx.is_zero()) throw std::invalid_argument("polynomial_fit_degree: points must be distinct");
      col[i] = (col[i] - col[i - 1]) / dx;
    }
    if (col[k].is_zero()) return k - 1;  // f[x_0..x_k] = 0: degree ≤ k − 1 fits these k + 1 points
  }
  return std::nullopt;
}

}  // namespace cz
