#include <doctest/doctest.h>

#include <stdexcept>

#include "circuits/builder.h"
#include "circuits/eval.h"
#include "circuits/gadgets_bits.h"

using namespace cz;
using namespace cz::circuits;

TEST_CASE("builder: hash-consing shares identical gates, commutative operands canonical") {
  Builder b;
  Wire x = b.input("x"), y = b.input("y");
  Wire s1 = b.add(x, y), s2 = b.add(y, x);
  CHECK(s1 == s2);
  Wire p1 = b.mul(s1, x), p2 = b.mul(x, s2);
  CHECK(p1 == p2);
  std::size_t before = b.size();
  for (int k = 0; k < 100; ++k) b.mul(b.add(x, y), x);
  CHECK(b.size() == before);
  CHECK(b.constant(Rat(5)) == b.constant(Rat(Int(10), Int(2))));  // interned by value
}

TEST_CASE("builder: constant folding") {
  Builder b;
  Wire x = b.input("x");
  CHECK(b.add(x, b.zero()) == x);
  CHECK(b.mul(x, b.one()) == x);
  CHECK(b.mul(x, b.zero()) == b.zero());
  Wire c = b.add(b.constant(Rat(2)), b.constant(Rat(3)));
  REQUIRE(b.const_value(c));
  CHECK(*b.const_value(c) == Rat(5));
  // c1·(c2·x) -> (c1·c2)·x and (c1 + (c2 + x)) -> (c1+c2) + x: one gate each
  Wire sx = b.scale(Rat(3), b.scale(Rat(4), x));
  CHECK(sx == b.scale(Rat(12), x));
  Wire ax = b.add_const(b.add_const(x, Rat(1)), Rat(2));
  CHECK(ax == b.add_const(x, Rat(3)));
  CHECK(b.sub(x, x) != b.zero());  // the builder does not do general algebra (documented)
}

TEST_CASE("builder: gates are stored in 12 bytes and operands precede their gate") {
  CHECK(sizeof(PackedGate) == 12);
  Builder b;
  Wire x = b.input("x"), y = b.input("y");
  Wire z = b.mul(b.add(x, y), b.sub(x, y));
  b.output("z", z);
  Circuit c = std::move(b).finish();
  for (GateId i = 0; i < c.size(); ++i) {
    const Gate& g = c.gate(i);
    if (g.op == Op::Add || g.op == Op::Mul) {
      CHECK(g.a < i);
      CHECK(g.b < i);
      CHECK(g.a <= g.b);
    }
  }
  for (std::int64_t u = -3; u <= 3; ++u)
    for (std::int64_t v = -3; v <= 3; ++v) CHECK(eval_integer(c, {u, v})[0] == Int(u * u - v * v));
}

TEST_CASE("packed gate: the 30-bit BitDef index is refused past its limit, never wrapped into the op") {
  const GateId last = PackedGate::kMaxBitDefs - 1;  // 2^30 - 2, the largest index that fits
  PackedGate g = PackedGate::make(Op::Mul, 7, 9, last);
  CHECK(g.op() == Op::Mul);
  CHECK(g.is_bit());
  CHECK(g.aux() == last);
  const Gate d = g.decode();
  CHECK((d.op == Op::Mul && d.type == Type::Bit && d.a == 7 && d.b == 9 && d.aux == last));
  CHECK_THROWS_AS(PackedGate::make(Op::Add, 1, 2, PackedGate::kMaxBitDefs), std::length_error);
  CHECK_THROWS_AS(PackedGate::make(Op::Add, 1, 2, GateId{1} << 31), std::length_error);
  PackedGate f = PackedGate::make(Op::Add, 1, 2);  // a Field gate: no index, op intact
  CHECK_THROWS_AS(f.set_aux(PackedGate::kMaxBitDefs), std::length_error);
  CHECK(!f.is_bit());
  CHECK(f.op() == Op::Add);
  CHECK(f.aux() == kNoGate);
  CHECK(f.decode().type == Type::Field);
}

TEST_CASE("builder: certify_bit refuses a wrong Boolean claim (mutant)") {
  Builder b;
  Wire x = b.input("x", Type::Bit), y = b.input("y", Type::Bit), f = b.input("f");
  // x + y is not a bit (2 on 1,1): claiming OR must throw
  CHECK_THROWS_AS(b.certify_bit(b.add(x, y), {BoolOp::Or, x.id, y.id}), std::logic_error);
  // x·y is AND, not XOR
  CHECK_THROWS_AS(b.certify_bit(b.mul(x, y), {BoolOp::Xor, x.id, y.id}), std::logic_error);
  // a cone that reaches an input which is not an operand
  CHECK_THROWS_AS(b.certify_bit(b.mul(x, f), {BoolOp::Not, x.id}), std::logic_error);
  // Field operands are not Bit
  CHECK_THROWS_AS(gadgets::and_(b, x, f), std::logic_error);
  // the correct claim is accepted and types the wire
  Wire a = b.certify_bit(b.mul(x, y), {BoolOp::And, x.id, y.id});
  CHECK(b.is_bit(a));
  CHECK(b.is_bit(b.zero()));
  CHECK(b.is_bit(b.one()));
  CHECK(!b.is_bit(b.constant(Rat(2))));
}

TEST_CASE("builder: rational constants are certified exactly") {
  Builder b;
  Wire x = b.input("x", Type::Bit);
  Wire half = b.scale(Rat(Int(1), Int(2)), b.scale(Rat(2), x));  // folds to 1·x = x
  CHECK(half == x);
  Wire w = b.add(b.scale(Rat(Int(1), Int(3)), x), b.scale(Rat(Int(2), Int(3)), x));  // = x, not folded
  CHECK(b.certify_bit(w, {BoolOp::Xnor, x.id, b.one().id}) == w);
}

TEST_CASE("builder: max_gates cap throws TooManyGates") {
  Builder b;
  b.set_max_gates(10);
  Wire x = b.input("x");
  CHECK_THROWS_AS([&] { for (int k = 0; k < 20; ++k) x = b.mul(x, x); }(), TooManyGates);
}

TEST_CASE("evaluator: Z, Q, Fp and int64 overflow fallback agree") {
  Builder b;
  Wire x = b.input("x");
  Wire y = x;
  for (int k = 0; k < 7; ++k) y = b.mul(y, y);  // x^128
  b.output("y", b.add(y, b.scale(Rat(Int(1), Int(2)), b.scale(Rat(2), x))));
  Circuit c = std::move(b).finish();
  Int want = Int(1);
  for (int k = 0; k < 128; ++k) want *= Int(3);
  want += Int(3);
  CHECK(eval_integer(c, {3})[0] == want);  // overflows int64, redone in Z
  Evaluator<RingQ> q(RingQ{}, c);
  CHECK(q({Rat(3)})[0] == Rat(want));
  RingFp fp(1000003);
  Evaluator<RingFp> f(fp, c);
  CHECK(f({3})[0] == want.mod_u64(1000003));
}

TEST_CASE("folding never looks inside a Bit wire, so gadget cones stay cut at their operands") {
  Builder b;
  Wire z = b.input("z", Type::Bit), s = b.input("s", Type::Bit);
  Wire nz = gadgets::not_(b, z);                  // 1 + (−1)·z, a Bit wire
  Wire m = b.add_const(nz, Rat(-1));              // must stay (NOT z) − 1, not fold to −z
  CHECK(b.op(m) == Op::Add);
  CHECK(gadgets::mux(b, s, nz, b.one()) != b.one());  // mux(s, NOT z, 1) = 1 + s·((NOT z) − 1): certifiable
}
