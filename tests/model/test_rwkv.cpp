// RWKV-4 time mixing (model/rwkv.h): the WKV recurrence equals the double sum over Z, Q and Fp; a
// hand-computed token shift and bonus; the ratio on the line is x/(x+1) and no polynomial of
// degree <= 64 fits it, while the same check finds the numerator's degree (it can fail).
#include <doctest/doctest.h>

#include "model/rwkv.h"
#include "tests/seed.h"

using namespace cz;

TEST_CASE("rwkv: token shift, bonus and decay by hand") {
  RwkvOperator op = random_rwkv(2, 1, 1, 2, true);
  op.mu = {Rat(Int(1), Int(4))};
  op.WV = RatMatrix(1, 1, Rat(1));
  op.decay = {Rat(Int(1), Int(2))};
  op.bonus = {Rat(2)};
  Matrix<Rat> u(2, 2);  // [E | x]
  u(0, 0) = Rat(3), u(1, 0) = Rat(5), u(0, 1) = Rat(4), u(1, 1) = Rat(8);
  const Rat v0 = Rat(1), v1 = Rat(2) + Rat(3);  // v = μ·x[t] + (1−μ)·x[t−1]: 4/4, 8/4 + 3·4/4
  const Matrix<Rat> y = rwkv_eval(RingQ{}, op, u);
  CHECK(y(0, 0) == Rat(2) * Rat(3) * v0);                  // β·E0·v0
  CHECK(y(0, 1) == Rat(6));                                // β·E0
  CHECK(y(1, 0) == Rat(3) * v0 + Rat(2) * Rat(5) * v1);    // λ^0·E0·v0 + β·E1·v1
  CHECK(y(1, 1) == Rat(3) + Rat(10));
  CHECK(rwkv_eval_direct(RingQ{}, op, u) == y);
  CHECK(rwkv_ratio(op, u)(1, 0) == Rat(53) / Rat(13));
  u(0, 0) = u(1, 0) = Rat(0);
  CHECK_THROWS_AS(rwkv_ratio(op, u), std::domain_error);
}

TEST_CASE("rwkv: the recurrence equals the double sum over Z, Q and Fp") {
  INFO("seed " << test::seed());
  auto g = test::rng(2841);
  RingFp F(1000003);
  for (int it = 0; it < 20; ++it) {
    const std::size_t N = 1 + g() % 7, d = 1 + g() % 3;
    Matrix<Int> u(N, 2 * d);
    for (auto& x : u.data()) x = Int(static_cast<std::int64_t>(g() % 7) - 3);
    const RwkvOperator zop = random_rwkv(N, d, g(), 3, false);
    CHECK(rwkv_integral(zop));
    CHECK(rwkv_eval(RingZ{}, zop, u) == rwkv_eval_direct(RingZ{}, zop, u));
    const RwkvOperator qop = random_rwkv(N, d, g(), 3, true);
    const auto uq = map_matrix(u, [](const Int& x) { return Rat(x); });
    CHECK(rwkv_eval(RingQ{}, qop, uq) == rwkv_eval_direct(RingQ{}, qop, uq));
    const auto uf = map_matrix(u, [&](const Int& x) { return F.from_Int(x); });
    CHECK(rwkv_eval(F, qop, uf) == rwkv_eval_direct(F, qop, uf));
  }
}

TEST_CASE("rwkv: the WKV ratio is not a polynomial, the numerator is (divided differences)") {
  std::vector<Rat> xs;
  for (int i = 1; i <= 66; ++i) xs.emplace_back(i);
  const auto nd = rwkv_line_values(Rat(Int(1), Int(2)), xs);
  std::vector<Rat> ratio, num, den, cubic;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    CHECK(nd[i].first == xs[i]);            // num = x
    CHECK(nd[i].second == xs[i] + Rat(1));  // den = x + 1
    ratio.push_back(nd[i].first / nd[i].second);
    num.push_back(nd[i].first);
    den.push_back(nd[i].second);
    cubic.push_back(xs[i] * xs[i] * xs[i] - Rat(2) * xs[i]);
  }
  CHECK_FALSE(polynomial_fit_degree(xs, ratio, 64).has_value());
  CHECK(polynomial_fit_degree(xs, num, 64) == std::optional<std::size_t>(1));
  CHECK(polynomial_fit_degree(xs, den, 64) == std::optional<std::size_t>(1));
  CHECK(polynomial_fit_degree(xs, cubic, 64) == std::optional<std::size_t>(3));
  // A "ratio" that is secretly a polynomial (den replaced by a constant) is found.
  std::vector<Rat> fake;
  for (std::size_t i = 0; i < xs.size(); ++i) fake.push_back(nd[i].first / Rat(2));
  CHECK(polynomial_fit_degree(xs, fake, 64) == std::optional<std::size_t>(1));
  CHECK_THROWS_AS(polynomial_fit_degree(xs, ratio, 65), std::invalid_argument);
}
