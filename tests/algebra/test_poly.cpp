// The polynomial ring (exact/poly.h): ring laws on small polynomials, zero normal form, evaluation,
// and the bound twin's counts bounding the real ones.
#include <doctest/doctest.h>

#include "exact/poly.h"

using namespace cz;

TEST_CASE("poly ring: arithmetic, zero and evaluation") {
  RingPolyQ r(3);
  const PolyQ x = r.var(0), y = r.var(1), z = r.var(2);
  const PolyQ a = r.add(r.mul(x, y), r.from_rat(Rat(Int(1), Int(2))));  // xy + 1/2
  const PolyQ b = r.sub(a, r.mul(y, x));
  CHECK(b.is_constant());
  CHECK(r.to_rat(b) == Rat(Int(1), Int(2)));
  CHECK(r.is_zero(r.sub(a, a)));
  CHECK(r.sub(a, a).terms() == 0);
  PolyQ acc;
  r.addmul(acc, x, z);
  r.addmul(acc, r.neg(z), x);
  CHECK(acc.is_zero());
  const PolyQ s = r.mul(r.add(x, y), r.add(x, y));
  CHECK(s.terms() == 3);
  CHECK(s.degree() == 2);
  CHECK(s.evaluate({Rat(2), Rat(-5), Rat(7)}) == Rat(9));
  CHECK(r.equal(r.mul(r.from_int(3), x), r.add(x, r.add(x, x))));
  CHECK_FALSE(r.equal(x, y));
  CHECK_THROWS_AS(r.to_rat(x), std::domain_error);
  PolyQ c = s;  // copies are deep
  r.addmul(c, x, x);
  CHECK(s.terms() == 3);
  CHECK(c.terms() == 3);
  CHECK(c.evaluate({Rat(1), Rat(1), Rat(0)}) == Rat(5));
}

TEST_CASE("poly ring: the bound twin bounds terms and degree") {
  RingPolyQ r(4);
  RingBound b(4);
  PolyQ p;
  PolyBound q;
  for (std::size_t i = 0; i < 4; ++i) {
    r.addmul(p, r.var(i), r.var((i + 1) % 4));
    b.addmul(q, b.var(i), b.var((i + 1) % 4));
  }
  const PolyQ p2 = r.mul(p, p);
  const PolyBound q2 = b.mul(q, q);
  CHECK(q2.deg == p2.degree());
  CHECK(q2.terms >= static_cast<double>(p2.terms()));
  CHECK(q2.terms <= 16);  // 4 terms squared: 16 (below C(8, 4) = 70 monomials of degree <= 4)
}
