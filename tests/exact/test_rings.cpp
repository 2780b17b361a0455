// Int, Rat and the rings against independent routes: Boost cpp_int for Z, plain reduction for Fp.
#include <doctest/doctest.h>

#include <boost/multiprecision/cpp_int.hpp>

#include "exact/rings.h"
#include "tests/seed.h"

using namespace cz;
using boost::multiprecision::cpp_int;

namespace {
Int big(std::mt19937_64& g, int words) {
  Int x(0);
  for (int w = 0; w < words; ++w) x = x * Int(std::int64_t(1) << 31) * Int(2) + Int(static_cast<std::int64_t>(g() >> 33));
  return (g() & 1) ? -x : x;
}
cpp_int to_cpp(const Int& x) { return cpp_int(x.str()); }
}  // namespace

TEST_CASE("Int arithmetic matches Boost cpp_int on seeded random operands") {
  INFO("seed " << test::seed());
  auto g = test::rng(1);
  for (int it = 0; it < 2000; ++it) {
    Int a = big(g, 1 + static_cast<int>(g() % 4)), b = big(g, 1 + static_cast<int>(g() % 4));
    cpp_int A = to_cpp(a), B = to_cpp(b);
    CHECK(to_cpp(a + b) == A + B);
    CHECK(to_cpp(a - b) == A - B);
    CHECK(to_cpp(a * b) == A * B);
    Int c = a;
    c.addmul(a, b);
    CHECK(to_cpp(c) == A + A * B);
    CHECK(((a < b) == (A < B)));
    CHECK(a.fits_int64() == (A >= INT64_MIN && A <= INT64_MAX));
  }
}

TEST_CASE("Int parses and prints decimal, rejects garbage") {
  CHECK(Int::parse("-123456789012345678901234567890")->str() == "-123456789012345678901234567890");
  CHECK(Int::parse("+7")->str() == "7");
  CHECK_FALSE(Int::parse("12a"));
  CHECK_FALSE(Int::parse(""));
  CHECK_FALSE(Int::parse("-"));
  CHECK_FALSE(Int::parse("1.5"));
}

TEST_CASE("Rat stays canonical and parses p/q") {
  Rat a(Int(6), Int(-4));
  CHECK(a.str() == "-3/2");
  CHECK((a + Rat(Int(3), Int(2))).str() == "0");
  CHECK((a * Rat(-2)).str() == "3");
  CHECK(Rat::parse("10/4")->str() == "5/2");
  CHECK_FALSE(Rat::parse("1/0"));
  CHECK_FALSE(Rat::parse("x/2"));
  CHECK_THROWS_AS(Rat(Int(1), Int(0)), std::domain_error);
  CHECK_THROWS_AS(Rat(1) / Rat(0), std::domain_error);
}

TEST_CASE("Fp agrees with Int arithmetic reduced mod p") {
  INFO("seed " << test::seed());
  auto g = test::rng(2);
  for (std::uint64_t p : {2ULL, 3ULL, 1000003ULL, 4611686018427387847ULL}) {  // last: a prime below 2^62
    RingFp F(p);
    for (int it = 0; it < 500; ++it) {
      Int a = big(g, 3), b = big(g, 3);
      auto fa = F.from_Int(a), fb = F.from_Int(b);
      CHECK(F.add(fa, fb) == F.from_Int(a + b));
      CHECK(F.sub(fa, fb) == F.from_Int(a - b));
      CHECK(F.mul(fa, fb) == F.from_Int(a * b));
      if (fb) CHECK(F.mul(F.inv(fb), fb) == 1);
    }
    if (p == 2) CHECK_THROWS_AS(F.from_rat(Rat(Int(1), Int(2))), std::domain_error);
    else CHECK(F.mul(F.from_rat(Rat(Int(1), Int(2))), 2) == 1);
  }
  CHECK_THROWS_AS(RingFp(4), std::invalid_argument);
  CHECK_THROWS_AS(RingFp(1ULL << 62), std::invalid_argument);
  CHECK_THROWS_AS(RingFp(5).from_rat(Rat(Int(1), Int(5))), std::domain_error);
}

TEST_CASE("checked int64 ring throws Overflow instead of wrapping") {
  RingI64 R;
  CHECK_THROWS_AS(R.mul(INT64_MAX / 2 + 1, 2), Overflow);
  CHECK_THROWS_AS(R.add(INT64_MAX, 1), Overflow);
  CHECK_THROWS_AS(R.neg(INT64_MIN), Overflow);
  CHECK_THROWS_AS(R.from_Int(Int::parse("9223372036854775808").value()), Overflow);
  CHECK(R.mul(-3037000499LL, 3037000499LL) == -9223372030926249001LL);
}
