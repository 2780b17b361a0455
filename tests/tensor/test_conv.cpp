// The FLINT convolution against the naive reference in every ring and mode, and the Z results
// against a third route (Boost cpp_int straight from the definition).
#include <doctest/doctest.h>

#include <boost/multiprecision/cpp_int.hpp>

#include "tensor/conv.h"
#include "tests/seed.h"

using namespace cz;
using boost::multiprecision::cpp_int;

namespace {
Matrix<Int> rand_int(std::mt19937_64& g, std::size_t n, std::size_t d, int bits) {
  Matrix<Int> m(n, d);
  for (auto& x : m.data()) {
    Int v(static_cast<std::int64_t>(g() >> (64 - bits)));
    if (bits > 40) v *= Int(static_cast<std::int64_t>(g() >> 20));  // beyond int64 products
    x = (g() & 1) ? -v : v;
  }
  return m;
}
constexpr ConvMode kModes[] = {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal};
}  // namespace

TEST_CASE("conv_fast equals conv_naive over Z, Q, Fp and int64 in all modes") {
  INFO("seed " << test::seed());
  auto g = test::rng(3);
  RingZ Z;
  RingQ Q;
  RingFp F(1000000007ULL);
  for (int it = 0; it < 60; ++it) {
    const std::size_t n = 1 + g() % 90, d = 1 + g() % 3;
    auto h = rand_int(g, n, d, it % 2 ? 60 : 8), u = rand_int(g, n, d, 8);
    for (ConvMode m : kModes) {
      INFO("n=" << n << " d=" << d << " mode=" << to_string(m));
      CHECK(conv_fast(Z, h, u, m) == conv_naive(Z, h, u, m));
      auto hf = map_matrix(h, [&](const Int& x) { return F.from_Int(x); });
      auto uf = map_matrix(u, [&](const Int& x) { return F.from_Int(x); });
      CHECK(conv_fast(F, hf, uf, m) == conv_naive(F, hf, uf, m));
      auto hq = map_matrix(h, [&](const Int& x) { return Rat(x, Int(1 + static_cast<std::int64_t>(g() % 7))); });
      auto uq = map_matrix(u, [&](const Int& x) { return Rat(x, Int(1 + static_cast<std::int64_t>(g() % 5))); });
      CHECK(conv_fast(Q, hq, uq, m) == conv_naive(Q, hq, uq, m));
    }
  }
}

TEST_CASE("int64 fast path detects overflow instead of wrapping") {
  Matrix<std::int64_t> h(64, 1, INT64_MAX / 4), u(64, 1, 8);
  CHECK_THROWS_AS(conv_fast(RingI64{}, h, u, ConvMode::Causal), Overflow);
  CHECK_THROWS_AS(conv_naive(RingI64{}, h, u, ConvMode::Causal), Overflow);
  Matrix<std::int64_t> hs(64, 1, 3), us(64, 1, -5);
  auto y = conv_fast(RingI64{}, hs, us, ConvMode::Cyclic);
  CHECK(y(10, 0) == 64 * -15);
}

TEST_CASE("Z convolution matches a cpp_int evaluation of the definitions") {
  INFO("seed " << test::seed());
  auto g = test::rng(4);
  for (int it = 0; it < 20; ++it) {
    const std::size_t n = 50 + g() % 40;
    auto h = rand_int(g, n, 1, 62), u = rand_int(g, n, 1, 62);
    for (ConvMode m : kModes) {
      auto y = conv(RingZ{}, h, u, m);
      for (std::size_t i = 0; i < n; ++i) {
        cpp_int want = 0;
        for (std::size_t k = 0; k < n; ++k) {
          std::size_t src;
          if (m == ConvMode::Causal) { if (k > i) continue; src = i - k; }
          else if (m == ConvMode::Cyclic) src = (i + n - k) % n;
          else { if (i + k >= n) continue; src = i + k; }
          want += cpp_int(h(k, 0).str()) * cpp_int(u(src, 0).str());
        }
        CHECK(cpp_int(y(i, 0).str()) == want);
      }
    }
  }
}
