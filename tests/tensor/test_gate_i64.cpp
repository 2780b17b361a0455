// baseconv_gate_i64 (tensor/gate_i64.h): equal to the exact formula over Z whenever it answers,
// answering exactly when the certified bound holds: at the bound's edge one more unit of any
// operand makes it decline (and a declined call leaves the caller to the checked path).
#include <doctest/doctest.h>

#include "tensor/gate_i64.h"
#include "exact/integer.h"
#include "tests/seed.h"

using namespace cz;

namespace {
Matrix<std::int64_t> rnd(std::mt19937_64& g, std::size_t n, std::size_t d, std::int64_t lim) {
  Matrix<std::int64_t> m(n, d);
  for (auto& x : m.data()) x = static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(2 * lim + 1)) - lim;
  return m;
}
// (x·W + b1) ⊙ (c + b2) over Z.
Matrix<Int> formula(const Matrix<std::int64_t>& x, const Matrix<std::int64_t>& W, const Matrix<std::int64_t>& b1,
                    const Matrix<std::int64_t>& b2, const Matrix<std::int64_t>& c) {
  Matrix<Int> y(x.rows(), W.cols());
  for (std::size_t i = 0; i < x.rows(); ++i)
    for (std::size_t j = 0; j < W.cols(); ++j) {
      Int a(b1(i, j));
      for (std::size_t k = 0; k < x.cols(); ++k) a.addmul(Int(x(i, k)), Int(W(k, j)));
      y(i, j) = a * (Int(c(i, j)) + Int(b2(i, j)));
    }
  return y;
}
Matrix<Int> widen(const Matrix<std::int64_t>& m) { return map_matrix(m, [](std::int64_t v) { return Int(v); }); }
}  // namespace

TEST_CASE("baseconv_gate_i64 equals the formula over Z on random inputs of every size class") {
  INFO("seed " << test::seed());
  auto g = test::rng(31);
  for (int it = 0; it < 200; ++it) {
    const std::size_t n = 1 + g() % 40, d = 1 + g() % 20, e = 1 + g() % 20;
    static const std::int64_t kLim[] = {1, 9, 1000, std::int64_t{1} << 20, std::int64_t{1} << 31, INT64_MAX / 2};
    const std::int64_t lx = kLim[g() % 6], lw = kLim[g() % 6], lc = kLim[g() % 6];
    auto x = rnd(g, n, d, lx), W = rnd(g, d, e, lw), b1 = rnd(g, n, e, lw), b2 = rnd(g, n, e, lc), c = rnd(g, n, e, lc);
    const Matrix<Int> want = formula(x, W, b1, b2, c);
    Matrix<std::int64_t> y = c;
    INFO("n=" << n << " d=" << d << " e=" << e << " limits " << lx << "," << lw << "," << lc);
    if (baseconv_gate_i64(x, W, b1, b2, y)) {
      CHECK(widen(y) == want);
    } else {  // declined: the bound is beyond int64 (the values themselves may or may not fit)
      CHECK((lx > 1000 || lw > 1000 || lc > 1000));
    }
  }
}

TEST_CASE("baseconv_gate_i64 at the bound's edge: A·G = 2^63 − 1 runs, one more unit declines") {
  // n = d = e = 1: A = |b1| + |x|·|W|, G = |c| + |b2|. 2^63 − 1 = 7^2 · 73 · 127 · 337 · 92737 · 649657.
  const std::int64_t G = 7 * 7 * 73 * 127, A = std::int64_t{337} * 92737 * 649657;  // A·G = 2^63 − 1
  for (int sign : {1, -1}) {
    Matrix<std::int64_t> x(1, 1, sign * (A - 1)), W(1, 1, 1), b1(1, 1, sign), b2(1, 1, sign * 7), c(1, 1, sign * (G - 7));
    Matrix<std::int64_t> y = c;
    REQUIRE(baseconv_gate_i64(x, W, b1, b2, y));
    CHECK(widen(y) == formula(x, W, b1, b2, c));
    CHECK(y(0, 0) == INT64_MAX);  // (±A)·(±G)
    for (int which = 0; which < 4; ++which) {  // one more unit in any operand: 2^63 − 1 + G or + A ≥ 2^63
      Matrix<std::int64_t> x2 = x, b12 = b1, b22 = b2, c2 = c;
      (which == 0 ? x2 : which == 1 ? b12 : which == 2 ? b22 : c2)(0, 0) += sign;
      Matrix<std::int64_t> y2 = c2;
      CHECK_FALSE(baseconv_gate_i64(x2, W, b12, b22, y2));
    }
  }
}
