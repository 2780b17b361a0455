// Hyena of order k (model/hyena.h; Zoology Alg. 2-3): a hand-computed case, and Z, Q and Fp
// agreeing (Fp is the image of Z, Q of integer weights equals Z).
#include <doctest/doctest.h>

#include "model/hyena.h"
#include "tests/seed.h"

using namespace cz;

TEST_CASE("hyena order 1, N = 3, d = 1, by hand") {
  HyenaOperator op;
  op.N = 3, op.d = 1, op.order = 1;
  op.W = RatMatrix(1, 2);
  op.W(0, 0) = Rat(2), op.W(0, 1) = Rat(1);  // v = h_s0 ∗ 2u, p = h_s1 ∗ u
  op.hs = RatMatrix(3, 2);
  op.hs(0, 0) = Rat(1), op.hs(0, 1) = Rat(1), op.hs(1, 1) = Rat(1);  // p[i] = u[i] + u[i-1]
  op.h = {RatMatrix(3, 1)};
  op.h[0](0, 0) = Rat(1), op.h[0](2, 0) = Rat(-1);  // (h ∗ v)[i] = v[i] - v[i-2]
  validate(op);
  Matrix<Int> u(3, 1);
  u(0, 0) = Int(1), u(1, 0) = Int(2), u(2, 0) = Int(3);
  // v = (2, 4, 6); h ∗ v = (2, 4, 4); p = (1, 3, 5); y = (2, 12, 20).
  const auto y = hyena_eval(RingZ{}, op, u);
  CHECK(y(0, 0) == Int(2));
  CHECK(y(1, 0) == Int(12));
  CHECK(y(2, 0) == Int(20));
  op.h[0](2, 0) = Rat(0);  // a mutant filter: y[2] changes
  CHECK(hyena_eval(RingZ{}, op, u)(2, 0) == Int(30));
  op.W = RatMatrix(1, 3);
  CHECK_THROWS_AS(validate(op), std::invalid_argument);
}

TEST_CASE("hyena: Z, Q and Fp evaluations agree on seeded operators") {
  INFO("seed " << test::seed());
  auto g = test::rng(2820);
  RingFp F(1000003);
  for (int it = 0; it < 20; ++it) {
    const std::size_t N = 1 + g() % 6, d = 1 + g() % 3, k = 1 + g() % 4;
    const HyenaOperator op = random_hyena(N, d, k, g(), 3);
    Matrix<Int> u(N, d);
    for (auto& x : u.data()) x = Int(static_cast<std::int64_t>(g() % 7) - 3);
    const auto yz = hyena_eval(RingZ{}, op, u);
    const auto yq = hyena_eval(RingQ{}, op, map_matrix(u, [](const Int& x) { return Rat(x); }));
    const auto yf = hyena_eval(F, op, map_matrix(u, [&](const Int& x) { return F.from_Int(x); }));
    CHECK(map_matrix(yz, [](const Int& x) { return Rat(x); }) == yq);
    CHECK(map_matrix(yz, [&](const Int& x) { return F.from_Int(x); }) == yf);
  }
}
