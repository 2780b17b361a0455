// gpu/lop_program.h: seeded random all-Bit circuits (NOT chains, constants, repeated operands,
// outputs that are inputs, constants or complements) compiled to LOP3 programs and run by the
// kernel body (gpu/lop_kernel.h lop_eval) on random 32-lane words, against exact integer
// evaluation of the circuit (circuits/eval.h), lane by lane.
#include <doctest/doctest.h>

#include <random>

#include "circuits/builder.h"
#include "circuits/eval.h"
#include "circuits/gadgets_bits.h"
#include "gpu/lop_kernel.h"
#include "gpu/lop_program.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

Circuit random_bit_circuit(std::mt19937_64& rng, std::size_t inputs, std::size_t gates, std::size_t outputs) {
  Builder b;
  std::vector<Wire> w;
  for (std::size_t i = 0; i < inputs; ++i) w.push_back(b.input("x" + std::to_string(i), Type::Bit));
  w.push_back(b.constant(0));
  w.push_back(b.constant(1));
  auto pick = [&] { return w[rng() % w.size()]; };
  for (std::size_t k = 0; k < gates; ++k) {
    const Wire x = pick(), y = rng() % 8 == 0 ? x : pick(), z = pick();
    switch (rng() % 7) {
      case 0: w.push_back(g::not_(b, x)); break;
      case 1: w.push_back(g::and_(b, x, y)); break;
      case 2: w.push_back(g::or_(b, x, y)); break;
      case 3: w.push_back(g::xor_(b, x, y)); break;
      case 4: w.push_back(g::xnor_(b, x, y)); break;
      case 5: w.push_back(g::mux(b, x, y, z)); break;
      default: w.push_back(g::not_(b, g::not_(b, x))); break;
    }
  }
  for (std::size_t o = 0; o < outputs; ++o) b.output("y" + std::to_string(o), rng() % 5 == 0 ? pick() : w[w.size() - 1 - o % w.size()]);
  return std::move(b).finish();
}

// Runs the program on random input words; every lane must equal exact evaluation.
void check_program(const Circuit& c, std::mt19937_64& rng, int rounds) {
  const gpu::LopProgram p(c);
  REQUIRE(p.num_inputs() == c.num_inputs());
  REQUIRE(p.num_outputs() == c.outputs().size());
  const gpu::LopView v = p.view();
  for (const gpu::LopOp& o : p.ops()) REQUIRE((o.dst < p.slots() && o.a < p.slots() && o.b < p.slots() && o.c < p.slots()));
  std::vector<std::uint32_t> w(std::max<std::uint32_t>(p.slots(), 1));
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::uint32_t> in(c.num_inputs());
    for (auto& x : in) x = static_cast<std::uint32_t>(rng());
    for (std::size_t i = 0; i < in.size(); ++i)
      if (p.input_slots()[i] != gpu::kNoLopSlot) w[p.input_slots()[i]] = in[i];
    gpu::lop_eval(v, w.data(), 1);
    for (int lane = 0; lane < 32; ++lane) {
      std::vector<std::int64_t> x(in.size());
      for (std::size_t i = 0; i < in.size(); ++i) x[i] = (in[i] >> lane) & 1;
      const std::vector<Int> want = eval_integer(c, x);
      for (std::size_t o = 0; o < want.size(); ++o)
        REQUIRE(Int(static_cast<std::int64_t>((w[p.output_slots()[o]] >> lane) & 1)) == want[o]);
    }
  }
}

}  // namespace

TEST_CASE("LOP3 programs of random all-Bit circuits equal exact evaluation") {
  std::mt19937_64 rng(2026);
  for (int t = 0; t < 300; ++t) {
    const std::size_t inputs = 1 + rng() % 8, gates = rng() % 60, outputs = 1 + rng() % 6;
    check_program(random_bit_circuit(rng, inputs, gates, outputs), rng, 4);
  }
}

TEST_CASE("LOP3 programs of large random circuits reuse slots") {
  std::mt19937_64 rng(7);
  const Circuit c = random_bit_circuit(rng, 24, 3000, 8);
  check_program(c, rng, 2);
  const gpu::LopProgram p(c);
  CHECK(p.slots() < p.ops().size());
  CHECK(p.levels() >= 1);
}

TEST_CASE("NOTs and constants cost no op where a gate reads them") {
  Builder b;
  const Wire x = b.input("x", Type::Bit), y = b.input("y", Type::Bit), z = b.input("z", Type::Bit);
  const Wire nx = g::not_(b, x), ny = g::not_(b, g::not_(b, g::not_(b, y)));
  b.output("a", g::and_(b, nx, ny));                                 // one op: ~x & ~y
  b.output("m", g::mux(b, g::not_(b, z), g::and_(b, x, b.constant(1)), y));  // one op: z ? y : x
  b.output("k", g::or_(b, x, b.constant(1)));                        // constant 1: one op to hold it
  b.output("n", nx);                                                 // complemented output: one op
  b.output("x", x);                                                  // an input: no op
  const Circuit c = std::move(b).finish();
  const gpu::LopProgram p(c);
  CHECK(p.ops().size() == 4);
  CHECK(p.levels() == 1);
  std::mt19937_64 rng(3);
  check_program(c, rng, 8);
}

TEST_CASE("LOP3 compilation refuses a circuit with a non-Bit output") {
  Builder b;
  const Wire x = b.input("x", Type::Bit), y = b.input("y", Type::Bit);
  b.output("s", b.add(x, y));  // 0, 1 or 2: mod 2 would be wrong
  const Circuit c = std::move(b).finish();
  CHECK_THROWS_AS(gpu::LopProgram{c}, std::invalid_argument);
}
