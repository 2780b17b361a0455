// RetNet retention (model/retnet.h): the recurrent form equals the definition's double sum over
// Z, Q (rational γ) and Fp; a hand-computed head; Z refuses a rational γ.
#include <doctest/doctest.h>

#include "model/retnet.h"
#include "tests/seed.h"

using namespace cz;

TEST_CASE("retnet: one head with q = k = v = u and γ = 1/2 by hand") {
  RetNetOperator op = random_retnet(2, 1, 1, 1, 1, 1, 2, 1);
  CHECK(op.gamma[0] == Rat(Int(1), Int(2)));
  op.WQ = op.WK = op.WV = op.WO = RatMatrix(1, 1, Rat(1));
  Matrix<Rat> u(2, 1);
  u(0, 0) = Rat(2), u(1, 0) = Rat(3);
  const Matrix<Rat> y = retnet_eval(RingQ{}, op, u);
  CHECK(y(0, 0) == Rat(8));   // a³
  CHECK(y(1, 0) == Rat(33));  // γ·b·a·a + b³ = 6 + 27
  CHECK(retnet_eval_direct(RingQ{}, op, u) == y);
  CHECK_THROWS_AS(retnet_eval(RingZ{}, op, map_matrix(u, [](const Rat& q) { return q.num(); })), std::domain_error);
}

TEST_CASE("retnet: the recurrence equals the double sum over Z, Q and Fp") {
  INFO("seed " << test::seed());
  auto g = test::rng(2840);
  RingFp F(1000003);
  for (int it = 0; it < 20; ++it) {
    const std::size_t N = 1 + g() % 6, d = 1 + g() % 3, H = 1 + g() % 2, dk = 1 + g() % 2, dv = 1 + g() % 3;
    Matrix<Int> u(N, d);
    for (auto& x : u.data()) x = Int(static_cast<std::int64_t>(g() % 7) - 3);
    const RetNetOperator zop = random_retnet(N, d, H, dk, dv, g(), 3, 0);  // γ = 1
    CHECK(retnet_integral(zop));
    CHECK(retnet_eval(RingZ{}, zop, u) == retnet_eval_direct(RingZ{}, zop, u));
    const RetNetOperator qop = random_retnet(N, d, H, dk, dv, g(), 3, 1 + g() % 4);
    CHECK_FALSE(retnet_integral(qop));
    const auto uq = map_matrix(u, [](const Int& x) { return Rat(x); });
    CHECK(retnet_eval(RingQ{}, qop, uq) == retnet_eval_direct(RingQ{}, qop, uq));
    const auto uf = map_matrix(u, [&](const Int& x) { return F.from_Int(x); });
    CHECK(retnet_eval(F, qop, uf) == retnet_eval_direct(F, qop, uf));
  }
  RetNetOperator bad = random_retnet(3, 2, 2, 1, 1, 1, 2, 1);
  bad.gamma.pop_back();
  CHECK_THROWS_AS(validate(bad), std::invalid_argument);
}

TEST_CASE("retnet rotation: a quarter turn by hand, and ⟨q'_n, k'_m⟩ depends on n − m only") {
  // One head, dk = 2, dv = 1, q = k = u, v = u[:, 0], γ = 1, (cos θ, sin θ) = (0, 1): q'_1 = (0, 1)
  // for u_1 = (1, 0), so o[1] = ⟨q'_1, k'_0⟩v_0 + ⟨q'_1, k'_1⟩v_1 = 0 + 1 (unrotated: 1 + 1).
  RetNetOperator op = random_retnet(2, 2, 1, 2, 1, 1, 2, 0);
  op.WQ = op.WK = RatMatrix(2, 2);
  op.WQ(0, 0) = op.WQ(1, 1) = op.WK(0, 0) = op.WK(1, 1) = Rat(1);
  op.WV = RatMatrix(2, 1);
  op.WV(0, 0) = Rat(1);
  op.WO = RatMatrix(1, 2);
  op.WO(0, 0) = Rat(1);
  Matrix<Rat> u(2, 2);
  u(0, 0) = u(1, 0) = Rat(1);
  CHECK(retnet_eval(RingQ{}, op, u)(1, 0) == Rat(2));
  op.rotation = {{{Rat(0), Rat(1)}}};
  validate(op);
  CHECK(retnet_eval(RingQ{}, op, u)(0, 0) == Rat(1));
  CHECK(retnet_eval(RingQ{}, op, u)(1, 0) == Rat(1));
  CHECK(retnet_eval_direct(RingQ{}, op, u) == retnet_eval(RingQ{}, op, u));
  // (3/5, 4/5): cos 2θ = −7/25, sin 2θ = 24/25, exactly.
  const auto pw = rotation_powers({Rat(Int(3), Int(5)), Rat(Int(4), Int(5))}, 3);
  CHECK(pw[2].first == Rat(Int(-7), Int(25)));
  CHECK(pw[2].second == Rat(Int(24), Int(25)));
  op.rotation = {{{Rat(Int(3), Int(5)), Rat(Int(1), Int(2))}}};
  CHECK_THROWS_AS(validate(op), std::invalid_argument);  // not on the unit circle
}

TEST_CASE("retnet rotation: the rotated recurrence equals the double sum with R((m−n)θ), over Q and Fp") {
  INFO("seed " << test::seed());
  auto g = test::rng(3502);
  RingFp F(1000003);
  int differ = 0;
  for (int it = 0; it < 20; ++it) {
    const std::size_t N = 1 + g() % 6, d = 1 + g() % 3, H = 1 + g() % 2, dk = 2 * (1 + g() % 2), dv = 1 + g() % 2;
    const std::uint64_t s = g();
    const RetNetOperator op = random_retnet(N, d, H, dk, dv, s, 3, 1 + g() % 3, true);
    Matrix<Rat> u(N, d);
    for (auto& x : u.data()) x = Rat(static_cast<std::int64_t>(g() % 7) - 3);
    CHECK(retnet_eval(RingQ{}, op, u) == retnet_eval_direct(RingQ{}, op, u));
    const auto uf = map_matrix(u, [&](const Rat& x) { return F.from_rat(x); });
    CHECK(retnet_eval(F, op, uf) == retnet_eval_direct(F, op, uf));
    RetNetOperator flat = op;
    flat.rotation.clear();
    differ += N > 1 && retnet_eval(RingQ{}, flat, u) != retnet_eval(RingQ{}, op, u);
  }
  CHECK(differ > 0);
}
