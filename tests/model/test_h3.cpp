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

namespace {
// The issue-35 example (ring Z, N = 2, d = 2, state m = 2): u = I, W_Q = W_K = I, W_V swaps the two
// channels; the shift SSM on both channels has B = [1,0], C = [0,1], D = 0 (h_shift = δ1), the
// diagonal SSM λ = [0,0], B = [1,0], C = [1,0], D = 0 (h_diag = δ0).
H3Operator issue35_example(H3Form form) {
  H3Operator op;
  op.N = 2, op.d = 2, op.m = 2, op.form = form;
  op.WQ = RatMatrix(2, 2), op.WK = RatMatrix(2, 2), op.WV = RatMatrix(2, 2);
  op.WQ(0, 0) = op.WQ(1, 1) = op.WK(0, 0) = op.WK(1, 1) = Rat(1);
  op.WV(0, 1) = op.WV(1, 0) = Rat(1);
  for (int c = 0; c < 2; ++c) {
    op.shift.push_back(Ssm{{}, {Rat(1), Rat(0)}, {Rat(0), Rat(1)}, Rat(0)});
    op.diag.push_back(Ssm{{Rat(0), Rat(0)}, {Rat(1), Rat(0)}, {Rat(1), Rat(0)}, Rat(0)});
  }
  validate(op);
  return op;
}

// y = Q ⊙ (h_diag ∗ ((h_shift ∗ K) ⊙ V)) written from the formula (kernels, then causal
// convolutions), not from h3_eval's recurrences.
Matrix<Int> published_by_formula(const H3Operator& op, const Matrix<Int>& u) {
  const std::size_t N = op.N, d = op.d;
  auto proj = [&](const RatMatrix& W) {
    Matrix<Int> y(N, d, Int(0));
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t c = 0; c < d; ++c)
        for (std::size_t j = 0; j < d; ++j) y(i, c) += u(i, j) * W(j, c).num();
    return y;
  };
  auto conv = [&](const RatMatrix& h, const Matrix<Int>& x) {
    Matrix<Int> y(N, d, Int(0));
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t c = 0; c < d; ++c)
        for (std::size_t t = 0; t <= i; ++t) y(i, c) += h(t, c).num() * x(i - t, c);
    return y;
  };
  const Matrix<Int> Q = proj(op.WQ), K = proj(op.WK), V = proj(op.WV);
  Matrix<Int> a = conv(h3_kernel(op, false), K);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t c = 0; c < d; ++c) a(i, c) *= V(i, c);
  Matrix<Int> y = conv(h3_kernel(op, true), a);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t c = 0; c < d; ++c) y(i, c) *= Q(i, c);
  return y;
}
}  // namespace

TEST_CASE("h3: the published form and the shift_v variant on the issue-35 example") {
  Matrix<Int> u(2, 2, Int(0));
  u(0, 0) = u(1, 1) = Int(1);
  const Matrix<Int> pub = h3_eval(RingZ{}, issue35_example(H3Form::Published), u);
  const Matrix<Int> old = h3_eval(RingZ{}, issue35_example(H3Form::ShiftV), u);
  Matrix<Int> zero(2, 2, Int(0)), want_old(2, 2, Int(0));
  want_old(1, 1) = Int(1);
  CHECK(pub == zero);  // Fu et al.: [[0,0],[0,0]]
  CHECK(old == want_old);  // the pre-12-03 reading: [[0,0],[0,1]]
  CHECK(published_by_formula(issue35_example(H3Form::Published), u) == zero);
  // Through Hyena of order 2 (the BaseConv simulation's route) the forms stay apart.
  CHECK(hyena_eval(RingZ{}, h3_as_hyena(issue35_example(H3Form::Published)), u) == zero);
  CHECK(hyena_eval(RingZ{}, h3_as_hyena(issue35_example(H3Form::ShiftV)), u) == want_old);
}

TEST_CASE("h3: the published form equals Q ⊙ (h_diag ∗ ((h_shift ∗ K) ⊙ V)) written from the formula") {
  INFO("seed " << test::seed());
  auto g = test::rng(3501);
  int differ = 0;
  for (int it = 0; it < 40; ++it) {
    const std::size_t N = 1 + g() % 6, d = 1 + g() % 3, m = 1 + g() % 3;
    const std::uint64_t s = g();
    const H3Operator op = random_h3(N, d, m, s, 3);
    Matrix<Int> u(N, d);
    for (auto& x : u.data()) x = Int(static_cast<std::int64_t>(g() % 7) - 3);
    CHECK(h3_eval(RingZ{}, op, u) == published_by_formula(op, u));
    CHECK(hyena_eval(RingZ{}, h3_as_hyena(random_h3(N, d, m, s, 3, H3Form::ShiftV)), u) ==
          h3_eval(RingZ{}, random_h3(N, d, m, s, 3, H3Form::ShiftV), u));
    if (d >= 2 && h3_eval(RingZ{}, random_h3(N, d, m, s, 3, H3Form::ShiftV), u) != h3_eval(RingZ{}, op, u)) ++differ;
  }
  CHECK(differ > 0);  // two operators, not one under two names
}
