// Every gadget, exhaustively on all 0/1 inputs up to a small width, against a plain C++ function.
#include <doctest/doctest.h>

#include <cmath>

#include "circuits/aig.h"
#include "circuits/gadgets_arith.h"
#include "circuits/gadgets_compare.h"
#include "circuits/stats.h"
#include "tests/circuits/helpers.h"
#include "tests/seed.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

// The AIG (BitDefs only) must agree with the arithmetic evaluation on every 0/1 input.
void check_bitdefs_agree(const Circuit& c) {
  Aig a = to_aig(c);
  const std::size_t n = c.num_inputs();
  for (std::uint64_t m = 0; m < (std::uint64_t{1} << n); ++m) {
    auto x = test::bits_of(m, n);
    std::vector<std::uint64_t> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint64_t>(x[i]);
    auto want = eval_integer(c, x);
    auto got = a.eval64(in);
    for (std::size_t o = 0; o < want.size(); ++o) REQUIRE(Int(static_cast<std::int64_t>(got[o] & 1)) == want[o]);
  }
}

template <class F>
Circuit word_circuit(std::size_t d, F build) {
  Builder b;
  auto x = g::input_bits(b, "x", d), y = g::input_bits(b, "y", d);
  build(b, x, y);
  return std::move(b).finish();
}

}  // namespace

TEST_CASE("bit gadgets: NOT AND OR XOR XNOR MUX on all inputs") {
  Builder b;
  Wire x = b.input("x", Type::Bit), y = b.input("y", Type::Bit), s = b.input("s", Type::Bit);
  b.output("not", g::not_(b, x));
  b.output("and", g::and_(b, x, y));
  b.output("or", g::or_(b, x, y));
  b.output("xor", g::xor_(b, x, y));
  b.output("xnor", g::xnor_(b, x, y));
  b.output("mux", g::mux(b, s, x, y));
  Circuit c = std::move(b).finish();
  CHECK(c.all_outputs_bit());
  long long bad = test::first_failure(c, [](const auto& in, const auto& out) {
    bool X = in[0], Y = in[1], S = in[2];
    std::vector<bool> want = {!X, X && Y, X || Y, X != Y, X == Y, S ? X : Y};
    for (std::size_t k = 0; k < want.size(); ++k)
      if (out[k] != Int(want[k] ? 1 : 0)) return false;
    return true;
  });
  CHECK(bad == -1);
  check_bitdefs_agree(c);
}

TEST_CASE("bit gadgets fold Boolean constants") {
  Builder b;
  Wire x = b.input("x", Type::Bit);
  CHECK(g::or_(b, x, b.one()) == b.one());
  CHECK(g::and_(b, x, b.zero()) == b.zero());
  CHECK(g::xor_(b, x, b.zero()) == x);
  CHECK(g::mux(b, b.one(), x, b.zero()) == x);
  CHECK(g::mux(b, x, b.one(), b.zero()) == x);
  CHECK(g::and_all(b, {}) == b.one());
}

TEST_CASE("trees: and_all / or_all / xor_all over up to 9 bits") {
  for (std::size_t n = 1; n <= 9; ++n) {
    Builder b;
    std::vector<Wire> xs;
    for (std::size_t i = 0; i < n; ++i) xs.push_back(b.input("x" + std::to_string(i), Type::Bit));
    b.output("and", g::and_all(b, xs));
    b.output("or", g::or_all(b, xs));
    b.output("xor", g::xor_all(b, xs));
    Circuit c = std::move(b).finish();
    long long bad = test::first_failure(c, [&](const auto& in, const auto& out) {
      std::int64_t a = 1, o = 0, x = 0;
      for (auto v : in) { a &= v; o |= v; x ^= v; }
      return out[0] == Int(a) && out[1] == Int(o) && out[2] == Int(x);
    });
    CHECK(bad == -1);
    auto st = compute_stats(c);
    CHECK(st.depth <= 4 * static_cast<std::size_t>(std::ceil(std::log2(static_cast<double>(n)))) + 4);
  }
}

TEST_CASE("d-bit equal, less_than, less_equal, min/max: exhaustive for d <= 5") {
  for (std::size_t d = 1; d <= 5; ++d) {
    Circuit c = word_circuit(d, [](Builder& b, const g::Bits& x, const g::Bits& y) {
      b.output("eq", g::equal(b, x, y));
      b.output("lt", g::less_than(b, x, y));
      b.output("le", g::less_equal(b, x, y));
      auto [lo, hi] = g::min_max(b, x, y);
      for (std::size_t k = 0; k < lo.size(); ++k) b.output("min" + std::to_string(k), lo[k]);
      for (std::size_t k = 0; k < hi.size(); ++k) b.output("max" + std::to_string(k), hi[k]);
    });
    CHECK(c.all_outputs_bit());
    long long bad = test::first_failure(c, [d](const auto& in, const auto& out) {
      std::uint64_t X = test::word(in, 0, d), Y = test::word(in, d, d);
      std::uint64_t lo = std::min(X, Y), hi = std::max(X, Y);
      if (out[0] != Int(X == Y) || out[1] != Int(X < Y) || out[2] != Int(X <= Y)) return false;
      for (std::size_t k = 0; k < d; ++k)
        if (out[3 + k] != Int(static_cast<std::int64_t>((lo >> k) & 1)) ||
            out[3 + d + k] != Int(static_cast<std::int64_t>((hi >> k) & 1)))
          return false;
      return true;
    });
    CHECK(bad == -1);
    check_bitdefs_agree(c);
  }
}

TEST_CASE("less_than is a parallel-prefix tree: size O(d), depth O(log d) (Zoology Lemma H.32)") {
  for (std::size_t d : {1, 2, 4, 8, 16, 32, 64, 128, 256}) {
    Circuit c = word_circuit(d, [](Builder& b, const g::Bits& x, const g::Bits& y) { b.output("lt", g::less_than(b, x, y)); });
    auto st = compute_stats(c, {false, false});
    const double lg = std::ceil(std::log2(static_cast<double>(d)));
    INFO("d=" << d << " size=" << st.size << " depth=" << st.depth);
    CHECK(st.size <= 16 * d);
    CHECK(st.depth <= 6 * lg + 6);
    if (d == 256) CHECK(st.depth < 100);  // a ripple would be > 2·256 deep
  }
}

TEST_CASE("a ripple comparator with a wrong bit order is caught (mutant)") {
  const std::size_t d = 3;
  Circuit c = word_circuit(d, [](Builder& b, const g::Bits& x, const g::Bits& y) {
    // Mutant: scans LSB first, so the least significant difference wins.
    Wire lt = b.zero(), eq = b.one();
    for (std::size_t k = 0; k < x.size(); ++k) {
      lt = g::or_(b, lt, g::and_(b, eq, g::and_(b, g::not_(b, x[k]), y[k])));
      eq = g::and_(b, eq, g::xnor_(b, x[k], y[k]));
    }
    b.output("lt", lt);
  });
  long long bad = test::first_failure(c, [d](const auto& in, const auto& out) {
    return out[0] == Int(test::word(in, 0, d) < test::word(in, d, d));
  });
  CHECK(bad >= 0);
}

TEST_CASE("compare_exchange carries a Field payload with its key") {
  const std::size_t d = 3;
  Builder b;
  g::Item x{g::input_bits(b, "x", d), {b.input("px")}}, y{g::input_bits(b, "y", d), {b.input("py")}};
  auto [lo, hi] = g::compare_exchange(b, x, y);
  b.output("plo", lo.payload[0]);
  b.output("phi", hi.payload[0]);
  Circuit c = std::move(b).finish();
  // inputs: x bits, y bits, px, py; evaluate with payloads 10 and 20 on every key pair
  for (std::uint64_t X = 0; X < 8; ++X)
    for (std::uint64_t Y = 0; Y < 8; ++Y) {
      std::vector<std::int64_t> in;
      for (std::size_t k = 0; k < d; ++k) in.push_back((X >> k) & 1);
      in.push_back(10);  // px sits after x's bits in input order? inputs are declared x, px, y, py
      for (std::size_t k = 0; k < d; ++k) in.push_back((Y >> k) & 1);
      in.push_back(20);
      auto out = eval_integer(c, in);
      CHECK(out[0] == Int(X < Y ? 10 : 20));
      CHECK(out[1] == Int(X < Y ? 20 : 10));
    }
}

TEST_CASE("prefix sums/products (Sklansky) and sum/product trees") {
  for (std::size_t n = 1; n <= 17; ++n) {
    Builder b;
    std::vector<Wire> xs;
    for (std::size_t i = 0; i < n; ++i) xs.push_back(b.input("x" + std::to_string(i)));
    auto ps = g::prefix_sums(b, xs), pp = g::prefix_products(b, xs);
    for (std::size_t i = 0; i < n; ++i) b.output("s" + std::to_string(i), ps[i]);
    for (std::size_t i = 0; i < n; ++i) b.output("p" + std::to_string(i), pp[i]);
    b.output("sum", g::sum(b, xs));
    b.output("prod", g::product(b, xs));
    Circuit c = std::move(b).finish();
    std::vector<std::int64_t> in;
    for (std::size_t i = 0; i < n; ++i) in.push_back(static_cast<std::int64_t>(i % 5) - 2 + (i == 3 ? 7 : 0));
    auto out = eval_integer(c, in);
    Int s(0), p(1);
    for (std::size_t i = 0; i < n; ++i) {
      s += Int(in[i]);
      p *= Int(in[i]);
      CHECK(out[i] == s);
      CHECK(out[n + i] == p);
    }
    CHECK(out[2 * n] == s);
    CHECK(out[2 * n + 1] == p);
    auto st = compute_stats(c, {false, false});
    CHECK(st.depth <= static_cast<std::size_t>(std::ceil(std::log2(static_cast<double>(n)))));
  }
}

TEST_CASE("prefix sums/products: exhaustive on every 0/1 vector up to n = 8") {
  for (std::size_t n = 1; n <= 8; ++n) {
    Builder b;
    std::vector<Wire> xs;
    for (std::size_t i = 0; i < n; ++i) xs.push_back(b.input("x" + std::to_string(i), Type::Bit));
    auto ps = g::prefix_sums(b, xs), pp = g::prefix_products(b, xs);
    for (std::size_t i = 0; i < n; ++i) b.output("s", ps[i]);
    for (std::size_t i = 0; i < n; ++i) b.output("p", pp[i]);
    Circuit c = std::move(b).finish();
    long long bad = test::first_failure(c, [n](const auto& in, const auto& out) {
      std::int64_t s = 0, p = 1;
      for (std::size_t i = 0; i < n; ++i) {
        s += in[i];
        p *= in[i];
        if (out[i] != Int(s) || out[n + i] != Int(p)) return false;
      }
      return true;
    });
    CHECK(bad == -1);
  }
}

TEST_CASE("bits_to_int and int_to_bits (over Q) round trip") {
  for (std::size_t d = 1; d <= 4; ++d) {
    Builder b;
    auto bits = g::input_bits(b, "x", d);
    Wire v = g::bits_to_int(b, bits);
    b.output("v", v);
    auto back = g::int_to_bits(b, v, d);
    for (std::size_t k = 0; k < d; ++k) b.output("b" + std::to_string(k), back[k]);
    Circuit c = std::move(b).finish();
    Evaluator<RingQ> ev(RingQ{}, c);
    for (std::uint64_t m = 0; m < (1u << d); ++m) {
      std::vector<Rat> in;
      for (std::size_t k = 0; k < d; ++k) in.push_back(Rat(static_cast<std::int64_t>((m >> k) & 1)));
      auto out = ev(in);
      CHECK(out[0] == Rat(static_cast<std::int64_t>(m)));
      for (std::size_t k = 0; k < d; ++k) CHECK(out[1 + k] == Rat(static_cast<std::int64_t>((m >> k) & 1)));
    }
    if (d >= 2) CHECK_THROWS_AS(Evaluator<RingZ>(RingZ{}, c), std::domain_error);  // rational constants
  }
}

TEST_CASE("random compositions of bit gadgets (with constants) always certify and agree with their BitDefs") {
  auto rng = test::rng(5);
  INFO("seed " << test::seed());
  for (int trial = 0; trial < 150; ++trial) {
    Builder b;
    std::vector<Wire> w = {b.zero(), b.one()};
    for (int i = 0; i < 5; ++i) w.push_back(b.input("x" + std::to_string(i), Type::Bit));
    for (int k = 0; k < 120; ++k) {
      const Wire x = w[rng() % w.size()], y = w[rng() % w.size()], z = w[rng() % w.size()];
      const g::Bits xy = {x, y}, zx = {z, x}, zy = {z, y};
      switch (rng() % 8) {
        case 0: w.push_back(g::not_(b, x)); break;
        case 1: w.push_back(g::and_(b, x, y)); break;
        case 2: w.push_back(g::or_(b, x, y)); break;
        case 3: w.push_back(g::xor_(b, x, y)); break;
        case 4: w.push_back(g::xnor_(b, x, y)); break;
        case 5: w.push_back(g::mux(b, x, y, z)); break;
        case 6: w.push_back(g::less_than(b, xy, zx)); break;
        default: w.push_back(g::min_max(b, xy, zy).second[1]); break;
      }
    }
    for (std::size_t k = w.size() - 8; k < w.size(); ++k) b.output("o" + std::to_string(k), w[k]);
    Circuit c = std::move(b).finish();
    REQUIRE(c.all_outputs_bit());
    check_bitdefs_agree(c);
  }
}
