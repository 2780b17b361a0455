// H3 (model/h3.h): the SSM kernels h[t] = C·A^t·B + D·[t = 0] against the recurrences (the operator
// run step by step equals its Hyena-of-order-2 form through the kernels), over Z, Q (rational λ)
// and Fp; a hand-computed shift SSM.
#include <doctest/doctest.h>

#include "model/h3.h"
#include "tests/seed.h"

using namespace cz;

TEST_CASE("h3: the shift SSM kernel is (C[0] + D, C[1], ..., C[m-1], 0, ...) for B = e_0") {
  H3Operator op = random_h3(5, 1, 3, 1, 2);
  op.shift[0].B = {Rat(1), Rat(0), Rat(0)};
  op.shift[0].C = {Rat(4), Rat(-1), Rat(2)};
  op.shift[0].D = Rat(3);
  const RatMatrix h = h3_kernel(op, false);
  CHECK(h(0, 0) == Rat(7));
  CHECK(h(1, 0) == Rat(-1));
  CHECK(h(2, 0) == Rat(2));
  CHECK(h(3, 0) == Rat(0));
  CHECK(h(4, 0) == Rat(0));
  op.diag[0].lambda = {Rat(2), Rat(-1), Rat(0)};
  op.diag[0].B = {Rat(1), Rat(1), Rat(5)};
  op.diag[0].C = {Rat(1), Rat(1), Rat(1)};
  op.diag[0].D = Rat(0);
  const RatMatrix g = h3_kernel(op, true);  // 2^t + (-1)^t + 5·[t = 0]
  CHECK(g(0, 0) == Rat(7));
  CHECK(g(1, 0) == Rat(1));
  CHECK(g(2, 0) == Rat(5));
  CHECK(g(3, 0) == Rat(7));
}

TEST_CASE("h3: the recurrences equal Hyena of order 2 through the kernels, over Z, Q and Fp") {
  INFO("seed " << test::seed());
  auto g = test::rng(2830);
  RingFp F(1000003);
  for (int it = 0; it < 20; ++it) {
    const std::size_t N = 1 + g() % 7, d = 1 + g() % 3, m = 1 + g() % 3;
    H3Operator op = random_h3(N, d, m, g(), 3);
    const HyenaOperator hy = h3_as_hyena(op);
    Matrix<Int> u(N, d);
    for (auto& x : u.data()) x = Int(static_cast<std::int64_t>(g() % 7) - 3);
    CHECK(h3_eval(RingZ{}, op, u) == hyena_eval(RingZ{}, hy, u));
    const auto uf = map_matrix(u, [&](const Int& x) { return F.from_Int(x); });
    CHECK(h3_eval(F, op, uf) == hyena_eval(F, hy, uf));
    // Rational decay over Q.
    op.diag[0].lambda[0] = Rat(Int(1), Int(2 + static_cast<std::int64_t>(g() % 3)));
    const auto uq = map_matrix(u, [](const Int& x) { return Rat(x); });
    CHECK(h3_eval(RingQ{}, op, uq) == hyena_eval(RingQ{}, h3_as_hyena(op), uq));
  }
}
