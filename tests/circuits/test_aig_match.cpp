// aig_match (circuits/aig_match.h): two circuits compared output by output through one strashed
// AIG. Equal after an AIGER round trip and with the inputs declared in another order; a changed
// output, renamed or repeated ports, and an equivalent but differently built output are told apart
// (the match proves equality, it never claims a difference is one).
#include <doctest/doctest.h>

#include <algorithm>

#include "circuits/aig_match.h"
#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"
#include "circuits/gadgets_compare.h"
#include "circuits/io.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

struct Spec {
  bool reversed_inputs = false;  // declare y before x
  bool le_for_lt = false;        // the mutant: output "lt" is x <= y
  bool distribute = false;       // output "m" as (a AND b) OR (a AND c) instead of a AND (b OR c)
  std::string x_name = "x", extra_output;
};

Circuit words(std::size_t d, const Spec& s) {
  Builder b;
  g::Bits x, y;
  if (s.reversed_inputs) {
    y = g::input_bits(b, "y", d);
    x = g::input_bits(b, s.x_name, d);
  } else {
    x = g::input_bits(b, s.x_name, d);
    y = g::input_bits(b, "y", d);
  }
  b.output("lt", s.le_for_lt ? g::less_equal(b, x, y) : g::less_than(b, x, y));
  b.output("eq", g::equal(b, x, y));
  for (std::size_t k = 0; k < d; ++k) b.output("mx[" + std::to_string(k) + "]", g::mux(b, x[0], x[k], y[k]));
  Wire m = s.distribute ? g::or_(b, g::and_(b, x[0], y[0]), g::and_(b, x[0], y[1])) : g::and_(b, x[0], g::or_(b, y[0], y[1]));
  b.output("m", m);
  if (!s.extra_output.empty()) b.output(s.extra_output, g::xor_(b, x[1], y[1]));
  return std::move(b).finish();
}

}  // namespace

TEST_CASE("aig_match: a circuit equals its AIGER round trip and itself with the inputs declared in another order") {
  const Circuit a = words(5, {});
  const Circuit back = read_aiger(write_aiger(a), "round trip");
  AigMatch m = aig_match(a, back);
  CHECK(m.why.empty());
  CHECK(m.equal());
  CHECK(m.outputs == 3 + 5);
  CHECK(m.ands_joint == m.ands_a);  // no node of the file is new
  Spec r;
  r.reversed_inputs = true;
  m = aig_match(a, words(5, r));
  CHECK(m.equal());
  CHECK(m.ands_joint == m.ands_a);
}

TEST_CASE("aig_match: a changed output is named, the others still match (mutant)") {
  Spec s;
  s.le_for_lt = true;
  const AigMatch m = aig_match(words(5, {}), read_aiger(write_aiger(words(5, s)), "mutant"));
  CHECK(m.why.empty());
  CHECK_FALSE(m.equal());
  CHECK(m.same == m.outputs - 1);
  REQUIRE(m.differ.size() == 1);
  CHECK(m.differ[0] == "lt");
}

TEST_CASE("aig_match: an equivalent output built another way is not matched (structure only, no refutation)") {
  Spec s;
  s.distribute = true;
  const AigMatch m = aig_match(words(4, {}), words(4, s));
  CHECK_FALSE(m.equal());
  CHECK(m.differ == std::vector<std::string>{"m"});
}

TEST_CASE("aig_match: ports that do not correspond by name are refused with why") {
  Spec renamed;
  renamed.x_name = "z";
  AigMatch m = aig_match(words(3, {}), words(3, renamed));
  CHECK(m.why.find("input 'z[0]'") != std::string::npos);
  CHECK_FALSE(m.equal());
  Spec extra;
  extra.extra_output = "w";
  m = aig_match(words(3, {}), words(3, extra));
  CHECK(m.why.find("outputs, not") != std::string::npos);
  CHECK_FALSE(m.equal());
  // Two inputs under one name would be identified: refused.
  Builder b;
  Wire p = b.input("p", Type::Bit), q = b.input("p", Type::Bit);
  b.output("o", g::and_(b, p, q));
  Builder b2;
  Wire p2 = b2.input("p", Type::Bit), q2 = b2.input("q", Type::Bit);
  b2.output("o", g::and_(b2, p2, q2));
  m = aig_match(std::move(b2).finish(), std::move(b).finish());
  CHECK(m.why.find("appears twice") != std::string::npos);
  CHECK_FALSE(m.equal());
}
