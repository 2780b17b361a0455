#include <doctest/doctest.h>

#include "circuits/gadgets_bits.h"
#include "circuits/stats.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

TEST_CASE("stats of x*y + 3z") {
  Builder b;
  Wire x = b.input("x"), y = b.input("y"), z = b.input("z");
  b.output("o", b.add(b.mul(x, y), b.scale(Rat(3), z)));
  b.add(x, z);  // dead
  Circuit c = std::move(b).finish();
  auto s = compute_stats(c);
  CHECK(s.inputs == 3);
  CHECK(s.outputs == 1);
  CHECK(s.n_add == 1);
  CHECK(s.n_mul == 2);
  CHECK(s.scalar_muls == 1);
  CHECK(s.r1cs_constraints == 1);
  CHECK(s.size == 3);
  CHECK(s.edges == 6);
  CHECK(s.dead_gates == 1);
  CHECK(s.depth == 2);
  CHECK(s.mul_depth == 1);
  CHECK(s.width == 2);       // level 1: x*y and 3z
  CHECK(s.width_cut == 3);   // boundary 0|1: x, y, z
  CHECK(s.formal_degree == 2);
  REQUIRE(s.exact_degree);
  CHECK(*s.exact_degree == 2);
  CHECK(!s.all_outputs_bit);
  auto j = to_json(s);
  CHECK(j["gates_by_kind"]["Mul"] == 2);
  CHECK(j["depth"] == 2);
}

TEST_CASE("exact degree sees cancellation the formal degree cannot") {
  Builder b;
  Wire x = b.input("x"), y = b.input("y");
  Wire sq = b.mul(b.add(x, y), b.add(x, y));
  Wire ex = b.add(b.add(b.mul(x, x), b.scale(Rat(2), b.mul(x, y))), b.mul(y, y));
  b.output("o", b.add(b.sub(sq, ex), x));
  Circuit c = std::move(b).finish();
  auto s = compute_stats(c);
  CHECK(s.formal_degree == 2);
  REQUIRE(s.exact_degree);
  CHECK(*s.exact_degree == 1);
}

TEST_CASE("width_cut counts a wire that is used late across every boundary it spans") {
  Builder b;
  Wire x = b.input("x"), y = b.input("y");
  Wire t = b.mul(x, y);
  for (int k = 0; k < 4; ++k) t = b.mul(t, t);  // depth 5
  b.output("o", b.add(t, x));                    // x is live until level 6
  Circuit c = std::move(b).finish();
  auto s = compute_stats(c);
  CHECK(s.depth == 6);
  CHECK(s.width == 1);
  CHECK(s.width_cut == 2);  // x plus the chain wire on boundaries 1..5; x, y on boundary 0
  CHECK(s.formal_degree == 32);
}

TEST_CASE("AIG counts of a 4-input AND tree and an XOR") {
  Builder b;
  std::vector<Wire> xs;
  for (int i = 0; i < 4; ++i) xs.push_back(b.input("x" + std::to_string(i), Type::Bit));
  b.output("and", g::and_all(b, xs));
  b.output("xor", g::xor_(b, xs[0], xs[1]));
  Circuit c = std::move(b).finish();
  auto s = compute_stats(c);
  CHECK(s.all_outputs_bit);
  REQUIRE(s.aig_ands);
  CHECK(*s.aig_ands == 3 + 3);
  CHECK(*s.aig_levels == 2);
}

TEST_CASE("exact degree is skipped above the caps, with a reason") {
  Builder b;
  std::vector<Wire> xs;
  for (int i = 0; i < 50; ++i) xs.push_back(b.input("x" + std::to_string(i)));
  Wire s = xs[0];
  for (int i = 1; i < 50; ++i) s = b.add(s, xs[i]);
  b.output("s", s);
  Circuit c = std::move(b).finish();
  auto st = compute_stats(c);
  CHECK(!st.exact_degree);
  CHECK(st.exact_degree_skipped.find("live inputs") != std::string::npos);
}
