// Batched equivalence (checked int64 lanes) and random simulation (--samples), each against the
// one-at-a-time exact path (equivalent_on_01_scalar) as the independent route.
#include <doctest/doctest.h>

#include "circuits/aig.h"
#include "circuits/bit_infer.h"
#include "circuits/equiv.h"
#include "circuits/eval.h"
#include "circuits/eval_batch.h"
#include "circuits/eval_bitslice.h"
#include "circuits/gadgets_bits.h"
#include "tests/seed.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

// A random arithmetic circuit from a seed. mutate >= 0 changes gate `mutate` (add ↔ mul, or a
// constant +1); zero_term adds x0·x0 − x0 (0 on 0/1 inputs, not 0 as a polynomial) to output 0;
// big uses constants near 2^62 (lanes overflow); rational uses constants k/3.
Circuit gen(std::uint64_t seed, std::size_t inputs, std::size_t gates, int mutate = -1, bool zero_term = false,
            bool big = false, bool rational = false) {
  std::mt19937_64 rng(seed);
  Builder b;
  std::vector<Wire> w;
  for (std::size_t i = 0; i < inputs; ++i) w.push_back(b.input("x" + std::to_string(i)));
  for (std::size_t k = 0; k < gates; ++k) {
    const std::size_t r = rng() % 10;
    // Operands lean to recent gates so that outputs depend on many of them.
    Wire x = w[w.size() - 1 - rng() % std::min<std::size_t>(w.size(), 12)], y = w[rng() % w.size()];
    const bool flip = static_cast<int>(k) == mutate;
    std::int64_t cst = static_cast<std::int64_t>(rng() % 7) - 3 + (flip ? 1 : 0);
    if (big && rng() % 3 == 0) cst = (std::int64_t{1} << 62) - static_cast<std::int64_t>(rng() % 5);
    if (r < 4) w.push_back(flip ? b.mul(x, y) : b.add(x, y));
    else if (r < 7) w.push_back(flip ? b.add(x, y) : b.mul(x, y));
    else if (r < 9) w.push_back(b.scale(rational && rng() % 2 ? Rat(Int(cst), Int(3)) : Rat(cst), x));
    else w.push_back(b.add_const(x, Rat(cst)));
  }
  for (std::size_t o = 0; o < 3; ++o) {
    Wire y = w[w.size() - 1 - o];
    if (o == 0 && zero_term) y = b.add(y, b.sub(b.mul(w[0], w[0]), w[0]));
    b.output("y" + std::to_string(o), y);
  }
  return std::move(b).finish();
}

void same(const EquivResult& x, const EquivResult& y) {
  CHECK(x.equivalent == y.equivalent);
  CHECK(x.instances == y.instances);
  REQUIRE(x.counterexample.has_value() == y.counterexample.has_value());
  if (!x.counterexample) return;
  CHECK(x.counterexample->instance == y.counterexample->instance);
  CHECK(x.counterexample->inputs == y.counterexample->inputs);
  CHECK(x.counterexample->output == y.counterexample->output);
  CHECK(x.counterexample->want == y.counterexample->want);
  CHECK(x.counterexample->got == y.counterexample->got);
}

}  // namespace

TEST_CASE("batched int64 equivalence matches the scalar path on random pairs (equivalent and mutated)") {
  auto rng = test::rng(41);
  INFO("seed " << test::seed());
  int differing = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const std::uint64_t s = rng();
    const std::size_t n = 3 + trial % 9, gates = 40 + rng() % 80;
    INFO("trial " << trial);
    Circuit a = gen(s, n, gates);
    Circuit b = trial % 3 == 0 ? gen(s, n, gates, -1, true) : gen(s, n, gates, static_cast<int>(rng() % gates));
    auto ref = equivalent_on_01_scalar(a, b, 1);
    for (unsigned t : {1u, 3u}) {
      auto got = equivalent_on_01_int64(a, b, t);
      CHECK(got.method == "batched-int64");
      same(got, ref);
      same(equivalent_on_01(a, b, t), ref);  // whichever path it picks
    }
    differing += !ref.equivalent;
    if (trial % 3 == 0) CHECK(ref.equivalent);  // x0·x0 − x0 vanishes on 0/1 inputs
  }
  CHECK(differing > 2);  // the mutations do bite (some land in dead or cancelling gates)
}

TEST_CASE("batched int64 equivalence redoes overflowing lanes exactly in Z") {
  // c·(x0 + ... + x7) with c = 2^62 − 1 overflows on every instance with two or more ones.
  const Rat c(Int((std::int64_t{1} << 62) - 1));
  auto build = [&](int variant) {
    Builder b;
    std::vector<Wire> x;
    for (int i = 0; i < 8; ++i) x.push_back(b.input("x" + std::to_string(i)));
    Wire o;
    if (variant == 0) {
      Wire s = x[0];
      for (int i = 1; i < 8; ++i) s = b.add(s, x[i]);
      o = b.scale(c, s);
    } else {
      o = b.scale(c, x[0]);
      for (int i = 1; i < 8; ++i) o = b.add(o, b.scale(c, x[i]));
      if (variant == 2) o = b.add(o, b.mul(b.mul(x[3], x[5]), x[6]));  // differs from instance 104 on (overflowing)
    }
    b.output("o", o);
    b.output("p", b.mul(o, o));  // ~2^126: always redone in Z when nonzero
    return std::move(b).finish();
  };
  Circuit c0 = build(0), c1 = build(1), c2 = build(2);
  auto ok = equivalent_on_01_int64(c0, c1, 2);
  CHECK(ok.method == "batched-int64");
  same(ok, equivalent_on_01(c0, c1, 2));
  same(ok, equivalent_on_01_scalar(c0, c1, 2));
  CHECK(ok.equivalent);
  same(equivalent_on_01_int64(c0, c2, 1), equivalent_on_01(c0, c2, 2));
  auto bad = equivalent_on_01_int64(c0, c2, 3);
  same(bad, equivalent_on_01_scalar(c0, c2, 1));
  REQUIRE(!bad.equivalent);
  CHECK(bad.counterexample->instance == 104);
  CHECK(bad.counterexample->output == "o");
  CHECK(bad.counterexample->want == "13835058055282163709");  // 3·(2^62 − 1), beyond int64
  CHECK(bad.counterexample->got == "13835058055282163710");
}

TEST_CASE("batched equivalence: random pairs with constants near 2^62 and rational constants") {
  auto rng = test::rng(43);
  INFO("seed " << test::seed());
  for (int trial = 0; trial < 12; ++trial) {
    const std::uint64_t s = rng();
    const std::size_t n = 4 + trial % 6, gates = 30 + rng() % 40;
    const bool rational = trial % 2;
    INFO("trial " << trial << " rational " << rational);
    Circuit a = gen(s, n, gates, -1, false, true, rational);
    Circuit b = trial % 4 < 2 ? gen(s, n, gates, -1, true, true, rational)
                              : gen(s, n, gates, static_cast<int>(rng() % gates), false, true, rational);
    auto ref = equivalent_on_01_scalar(a, b, 1);
    same(equivalent_on_01(a, b, 2), ref);
    if (a.integral_constants() && b.integral_constants()) same(equivalent_on_01_int64(a, b, 2), ref);
  }
}

TEST_CASE("sampling: bit-sliced 0/1 samples find a planted difference, deterministic for a seed") {
  // 40 Bit inputs: a = XOR of all, b = the same but with (x3 AND x17 AND x30) flipping it.
  auto build = [](bool planted) {
    Builder b;
    std::vector<Wire> x;
    for (int i = 0; i < 40; ++i) x.push_back(b.input("x" + std::to_string(i), Type::Bit));
    Wire o = g::xor_all(b, x);
    if (planted) o = g::xor_(b, o, g::and_(b, g::and_(b, x[3], x[17]), x[30]));
    b.output("o", o);
    b.output("k", g::or_(b, x[0], x[39]));
    return std::move(b).finish();
  };
  Circuit a = build(false), a2 = build(false), c = build(true);
  auto ok = sample_equivalent(a, a2, 5000, 7, 2);
  CHECK(ok.equivalent);
  CHECK(ok.method == "sampled-bit-sliced");
  CHECK(ok.samples == 5000);
  auto r1 = sample_equivalent(a, c, 5000, 7, 1), r3 = sample_equivalent(a, c, 5000, 7, 3);
  REQUIRE(!r1.equivalent);
  same(r1, r3);
  const auto& cx = *r1.counterexample;
  REQUIRE(cx.inputs.size() == 40);
  CHECK(cx.inputs[3] + cx.inputs[17] + cx.inputs[30] == 3);
  CHECK(cx.output == "o");
  CHECK(cx.instance < 200);  // probability 1/8 per sample
  // A different seed draws other samples.
  auto other = sample_equivalent(a, c, 5000, 8, 1);
  REQUIRE(!other.equivalent);
  CHECK(other.counterexample->inputs != cx.inputs);
}

TEST_CASE("sampling over Fp: planted polynomial difference, Schwartz-Zippel bound, 0/1 agreement") {
  auto build = [](int variant) {
    Builder b;
    std::vector<Wire> x;
    for (int i = 0; i < 6; ++i) x.push_back(b.input("x" + std::to_string(i)));
    Wire o = b.mul(b.add(x[0], x[1]), b.add(x[2], b.scale(Rat(Int(1), Int(2)), x[3])));
    if (variant == 1) o = b.add(b.mul(x[0], x[2]), b.add(b.mul(x[1], x[2]), b.scale(Rat(Int(1), Int(2)), b.mul(b.add(x[0], x[1]), x[3]))));
    if (variant == 2) o = b.add(o, b.mul(b.mul(x[4], x[5]), x[1]));           // differs on 0/1 too
    if (variant == 3) o = b.add(o, b.sub(b.mul(x[4], x[4]), x[4]));           // differs only as a polynomial
    b.output("o", o);
    return std::move(b).finish();
  };
  Circuit c0 = build(0), c1 = build(1), c2 = build(2), c3 = build(3);
  auto ok = sample_equivalent(c0, c1, 100, 5, 2);
  CHECK(ok.equivalent);
  CHECK(ok.method == "sampled-Fp");
  CHECK(ok.prime > (std::uint64_t{1} << 60));
  CHECK(ok.prime < (std::uint64_t{1} << 61));
  CHECK(ok.degree == 2);
  CHECK(ok.error_per_sample < 1e-17);
  CHECK(ok.log10_error_bound < -1700);
  CHECK(sample_equivalent(c0, c1, 100, 5, 1).prime == ok.prime);  // deterministic for a seed

  auto d2 = sample_equivalent(c0, c2, 100, 5, 1);
  REQUIRE(!d2.equivalent);
  same(d2, sample_equivalent(c0, c2, 100, 5, 3));
  CHECK(d2.counterexample->instance == 0);  // a random field point hits a nonzero polynomial
  CHECK(d2.counterexample->field_inputs.size() == 6);
  {  // the reported point really separates them mod p
    RingFp fp(d2.prime);
    std::vector<std::uint64_t> pt = d2.counterexample->field_inputs;
    auto va = Evaluator<RingFp>(fp, c0)(pt), vb = Evaluator<RingFp>(fp, c2)(pt);
    CHECK(va != vb);
    CHECK(std::to_string(va[0]) == d2.counterexample->want);
  }
  REQUIRE(d2.agree_on_01.has_value());
  CHECK(!*d2.agree_on_01);
  REQUIRE(d2.counterexample_01.has_value());
  CHECK(d2.counterexample_01->instance == 2 + 16 + 32);

  auto d3 = sample_equivalent(c0, c3, 100, 5, 2);
  REQUIRE(!d3.equivalent);
  REQUIRE(d3.agree_on_01.has_value());
  CHECK(*d3.agree_on_01);
  CHECK(d3.note.find("agree on all 64 0/1 inputs") != std::string::npos);
  CHECK_THROWS_AS(sample_equivalent(c0, c1, 0, 5), std::invalid_argument);
}

TEST_CASE("bit-sliced AIG: complement flags on operands equal explicit NOT gates on random AIGs") {
  auto rng = test::rng(47);
  INFO("seed " << test::seed());
  for (int trial = 0; trial < 20; ++trial) {
    Aig a;
    a.num_inputs = 3 + static_cast<std::uint32_t>(trial % 10);
    const std::size_t A = 20 + rng() % 200;
    for (std::size_t k = 0; k < A; ++k) {
      const std::uint32_t vars = 1 + a.num_inputs + static_cast<std::uint32_t>(k);
      std::uint32_t x = static_cast<std::uint32_t>(2 * (1 + rng() % (vars - 1)) + rng() % 2);
      std::uint32_t y = static_cast<std::uint32_t>(2 * (1 + rng() % (vars - 1)) + rng() % 2);
      a.ands.emplace_back(std::max(x, y), std::min(x, y));
    }
    for (int o = 0; o < 6; ++o)
      a.outputs.push_back(static_cast<std::uint32_t>(2 * (1 + a.num_inputs + A - 1 - rng() % 20) + rng() % 2));
    a.outputs.push_back(3);  // a complemented input as an output
    Circuit c = from_aig(a);
    BitSliced fused(c, true), plain(c, false);
    CHECK(fused.program_size() < plain.program_size());
    CHECK(fused.program_size() <= a.num_inputs + A + a.outputs.size());
    const std::size_t n = a.num_inputs, O = a.outputs.size(), W = BitSliced::kWords;
    std::vector<std::uint64_t> in(n * W), of(O * W), op(O * W), wf, wp;
    for (auto& v : in) v = rng();
    fused.run_block(in.data(), of.data(), wf);
    plain.run_block(in.data(), op.data(), wp);
    CHECK(of == op);
    {  // several blocks per pass = one block at a time
      const std::size_t nb = 3;
      std::vector<std::uint64_t> in3(nb * n * W), out3(nb * O * W), one(O * W), w3;
      for (auto& v : in3) v = rng();
      fused.run_blocks(in3.data(), out3.data(), nb, w3);
      for (std::size_t j = 0; j < nb; ++j) {
        plain.run_block(in3.data() + j * n * W, one.data(), wp);
        CHECK(std::equal(one.begin(), one.end(), out3.begin() + static_cast<long>(j * O * W)));
      }
    }
    for (std::size_t w = 0; w < W; ++w) {
      std::vector<std::uint64_t> col(n);
      for (std::size_t i = 0; i < n; ++i) col[i] = in[i * W + w];
      auto ref = a.eval64(col);
      for (std::size_t o = 0; o < O; ++o) CHECK(of[o * W + w] == ref[o]);
    }
  }
}

namespace {
// A random Boolean function written with Field gates only (what arithmetic Bristol carries):
// AND = xy, NOT = 1 − x, OR = x + y − xy, XOR = x + y − 2xy or (x − y)², MUX = z + s(y − z).
// mutate >= 0 swaps the op of step `mutate`.
Circuit arith_boolean(std::uint64_t seed, std::size_t n, std::size_t steps, int mutate = -1, bool alt_xor = false) {
  std::mt19937_64 rng(seed);
  Builder b;
  std::vector<Wire> w;
  for (std::size_t i = 0; i < n; ++i) w.push_back(b.input("x" + std::to_string(i)));
  for (std::size_t k = 0; k < steps; ++k) {
    Wire x = w[w.size() - 1 - rng() % std::min<std::size_t>(w.size(), 8)], y = w[rng() % w.size()], z = w[rng() % w.size()];
    std::size_t op = rng() % 5;
    if (static_cast<int>(k) == mutate) op = (op + 1) % 5;
    switch (op) {
      case 0: w.push_back(b.mul(x, y)); break;
      case 1: w.push_back(b.sub(b.one(), x)); break;
      case 2: w.push_back(b.sub(b.add(x, y), b.mul(x, y))); break;
      case 3: {
        Wire d = b.sub(x, y);
        w.push_back(alt_xor ? b.mul(d, d) : b.sub(b.add(x, y), b.scale(Rat(2), b.mul(x, y))));
        break;
      }
      default: w.push_back(b.add(z, b.mul(x, b.sub(y, z)))); break;
    }
  }
  for (std::size_t o = 0; o < 4; ++o) b.output("o" + std::to_string(o), w[w.size() - 1 - o]);
  return std::move(b).finish();
}
}  // namespace

TEST_CASE("Bit inference: arithmetic Boolean circuits go bit-sliced with the batched path's verdict") {
  // 16-18 inputs (inference is tried from 16 on); the batched int64 path is the reference here
  // (it is checked against the scalar path above), the scalar path on the first trials too.
  auto rng = test::rng(53);
  INFO("seed " << test::seed());
  int inferred = 0, differing = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const std::uint64_t s = rng();
    const std::size_t n = 16 + trial % 3, steps = 20 + rng() % 60;
    INFO("trial " << trial);
    Circuit a = arith_boolean(s, n, steps);
    Circuit b = trial % 2 ? arith_boolean(s, n, steps, -1, true) : arith_boolean(s, n, steps, static_cast<int>(rng() % steps));
    auto ref = equivalent_on_01_int64(a, b, 2);
    if (trial < 2) same(ref, equivalent_on_01_scalar(a, b, 2));
    for (unsigned t : {1u, 3u}) {
      auto got = equivalent_on_01(a, b, t);
      same(got, ref);
      inferred += got.method == "bit-sliced (Bit wires inferred)";
    }
    differing += !ref.equivalent;
    if (trial % 2) CHECK(ref.equivalent);
  }
  CHECK(inferred >= 16);  // inference is sound, not complete (a cut may need more than kMaxLeaves leaves)
  CHECK(differing > 1);
}

TEST_CASE("Bit inference is sound: the rebuilt circuit equals the original on every 0/1 input") {
  auto rng = test::rng(59);
  INFO("seed " << test::seed());
  for (int trial = 0; trial < 30; ++trial) {
    const std::uint64_t s = rng();
    INFO("trial " << trial);
    Circuit c = trial % 2 ? gen(s, 3 + trial % 7, 30 + rng() % 60, -1, trial % 4 == 1, false, trial % 3 == 0)
                          : arith_boolean(s, 3 + trial % 7, 20 + rng() % 40);
    Circuit d = infer_bits(c);
    CHECK(equivalent_on_01_scalar(c, d, 1).equivalent);
  }
  // x + y takes the value 2: never Bit; 2x − x² is x on 0/1: Bit.
  Builder b;
  Wire x = b.input("x"), y = b.input("y");
  b.output("s", b.add(x, y));
  b.output("t", b.sub(b.scale(Rat(2), x), b.mul(x, x)));
  Circuit c = std::move(b).finish();
  Circuit d = infer_bits(c);
  CHECK(!d.is_bit(d.outputs()[0].gate));
  CHECK(d.is_bit(d.outputs()[1].gate));
}
