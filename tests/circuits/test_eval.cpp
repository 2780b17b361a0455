// Batched Fp and bit-sliced evaluation against the exact evaluator; equivalence checking.
#include <doctest/doctest.h>

#include "circuits/equiv.h"
#include "circuits/eval.h"
#include "circuits/eval_batch.h"
#include "circuits/eval_bitslice.h"
#include "circuits/gadgets_sort.h"
#include "tests/circuits/random_circuit.h"
#include "tests/seed.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

TEST_CASE("batched Fp equals the exact evaluator mod p, any thread count") {
  auto rng = test::rng(11);
  INFO("seed " << test::seed());
  for (int trial = 0; trial < 10; ++trial) {
    Circuit c = test::random_circuit(rng, 5, 200, 3);
    for (std::uint64_t p : {std::uint64_t{1000003}, std::uint64_t{4611686018427387847ULL}}) {
      RingFp fp(p);
      BatchFp batch(c, p);
      Evaluator<RingFp> ev(fp, c);
      const std::size_t instances = 300;  // not a multiple of the block
      std::vector<std::uint64_t> in(instances * 5);
      for (auto& x : in) x = rng() % p;
      auto out1 = batch.run(in, instances, 1), out3 = batch.run(in, instances, 3);
      CHECK(out1 == out3);
      for (std::size_t k = 0; k < instances; k += 37) {
        std::vector<std::uint64_t> x(in.begin() + static_cast<long>(k * 5), in.begin() + static_cast<long>(k * 5 + 5));
        auto want = ev(x);
        for (std::size_t o = 0; o < 3; ++o) CHECK(out1[k * 3 + o] == want[o]);
      }
      CHECK(batch.working_slots() <= batch.program_size());
    }
  }
}

TEST_CASE("bit-sliced evaluation equals the exact evaluator on every input of a sort circuit") {
  Builder b;
  std::vector<g::Item> items;
  for (int i = 0; i < 4; ++i) items.push_back({g::input_bits(b, "k" + std::to_string(i), 3), {}});
  auto out = g::odd_even_merge_sort(b, items);
  for (auto& it : out)
    for (Wire w : it.key) b.output("o", w);
  Circuit c = std::move(b).finish();
  BitSliced bs(c);
  const std::size_t n = c.num_inputs(), O = c.outputs().size(), W = BitSliced::kWords;
  std::vector<std::uint64_t> in(n * W), o(O * W), work;
  for (std::uint64_t base = 0; base < (1u << n); base += BitSliced::kInstances) {
    BitSliced::exhaustive_inputs(base, n, in.data());
    bs.run_block(in.data(), o.data(), work);
    for (std::uint64_t m = base; m < base + BitSliced::kInstances; m += 97) {
      std::vector<std::int64_t> x(n);
      for (std::size_t i = 0; i < n; ++i) x[i] = (m >> i) & 1;
      auto want = eval_integer(c, x);
      const std::size_t lane = m - base;
      for (std::size_t k = 0; k < O; ++k) REQUIRE(Int(static_cast<std::int64_t>((o[k * W + lane / 64] >> (lane % 64)) & 1)) == want[k]);
    }
  }
  CHECK(bs.working_slots() < bs.program_size());
}

TEST_CASE("bit-sliced evaluation refuses a circuit with a non-Bit output") {
  Builder b;
  Wire x = b.input("x", Type::Bit), y = b.input("y", Type::Bit);
  b.output("s", b.add(x, y));  // 0, 1 or 2: mod 2 would be wrong
  Circuit c = std::move(b).finish();
  CHECK_THROWS_AS(BitSliced{c}, std::invalid_argument);
}

TEST_CASE("equivalence: bit-sliced path finds the smallest counterexample") {
  auto build = [](bool mutant) {
    Builder b;
    auto x = g::input_bits(b, "x", 4), y = g::input_bits(b, "y", 4);
    Wire lt = g::less_than(b, x, y);
    if (mutant) lt = g::and_(b, lt, g::not_(b, x[3]));  // wrong whenever x_3 = 1 and x < y
    b.output("lt", lt);
    return std::move(b).finish();
  };
  Circuit a = build(false), a2 = build(false), m = build(true);
  auto ok = equivalent_on_01(a, a2, 2);
  CHECK(ok.equivalent);
  CHECK(ok.method == "bit-sliced");
  CHECK(ok.instances == 256);
  auto bad = equivalent_on_01(a, m, 3);
  REQUIRE(!bad.equivalent);
  REQUIRE(bad.counterexample);
  // smallest m with x_3 = 1 (bit 3) and x < y: x = 8, y = 9 -> m = 8 + 9·16 = 152
  CHECK(bad.counterexample->instance == 152);
  CHECK(bad.counterexample->want == "1");
  CHECK(bad.counterexample->got == "0");
  CHECK(equivalent_on_01(a, m, 1).counterexample->instance == 152);  // same for any thread count
}

TEST_CASE("equivalence: exact path on Field circuits") {
  auto build = [](int variant) {
    Builder b;
    Wire x = b.input("x"), y = b.input("y"), z = b.input("z");
    Wire o = variant == 0 ? b.add(b.mul(x, y), x) : b.mul(x, b.add_const(y, Rat(1)));
    if (variant == 2) o = b.add(o, b.mul(b.mul(x, y), z));  // differs only when x = y = z = 1
    b.output("o", o);
    return std::move(b).finish();
  };
  Circuit c0 = build(0), c1 = build(1), c2 = build(2);
  auto r = equivalent_on_01(c0, c1);
  CHECK(r.equivalent);
  CHECK(r.method == "batched-int64");
  auto r2 = equivalent_on_01(c0, c2);
  REQUIRE(!r2.equivalent);
  CHECK(r2.counterexample->instance == 7);
  CHECK(r2.counterexample->want == "2");
  CHECK(r2.counterexample->got == "3");
  std::mt19937_64 rng(1);
  Circuit small = test::random_circuit(rng, 2, 5, 1);
  CHECK_THROWS_AS(equivalent_on_01(c0, small), std::invalid_argument);
}
