// circuits/port_match.h (issue 26, item 5): `circuit --equiv` matches ports by name where both
// sides name them, so a tool that reorders ports (Yosys 0.23 sorts bracketed inputs) is not
// reported as a counterexample; names that differ only in BLIF-safe characters match as
// normalised names; anything else stays by position, where a reordering is a real difference.
#include <doctest/doctest.h>

#include "circuits/builder.h"
#include "circuits/equiv.h"
#include "circuits/gadgets_bits.h"
#include "circuits/port_match.h"

using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {
// lt = x ∧ ¬y, or = x ∨ y; inputs and outputs declared in the given orders, with the given names.
Circuit make(bool swap_in, bool swap_out, const char* x_name, const char* y_name, const char* lt_name, const char* or_name) {
  Builder b;
  Wire x, y;
  if (swap_in) {
    y = b.input(y_name, Type::Bit);
    x = b.input(x_name, Type::Bit);
  } else {
    x = b.input(x_name, Type::Bit);
    y = b.input(y_name, Type::Bit);
  }
  const Wire lt = g::and_(b, x, g::not_(b, y)), either = g::or_(b, x, y);
  if (swap_out) {
    b.output(or_name, either);
    b.output(lt_name, lt);
  } else {
    b.output(lt_name, lt);
    b.output(or_name, either);
  }
  return std::move(b).finish();
}
}  // namespace

TEST_CASE("match_ports puts reordered ports back by name and the circuits are equivalent") {
  const Circuit a = make(false, false, "k[0]", "k[1]", "lt[0]", "or[0]");
  Circuit b = make(true, true, "k[0]", "k[1]", "lt[0]", "or[0]");
  CHECK_FALSE(equivalent_on_01(a, b, 1).equivalent);  // by position: a false counterexample
  PortMatch how;
  const Circuit m = match_ports(a, std::move(b), how);
  CHECK(how.inputs == "by name");
  CHECK(how.outputs == "by name");
  CHECK(m.input_name(0) == "k[0]");
  CHECK(m.outputs()[0].name == "lt[0]");
  CHECK(equivalent_on_01(a, m, 1).equivalent);
}

TEST_CASE("match_ports matches BLIF-safe names as normalised names") {
  const Circuit a = make(false, false, "k[0]", "k[1]", "lt[0]", "or[0]");
  PortMatch how;
  const Circuit m = match_ports(a, make(true, false, "k_0_", "k_1_", "lt_0_", "or_0_"), how);
  CHECK(how.inputs == "by normalised name");
  CHECK(how.outputs == "by normalised name");
  CHECK(equivalent_on_01(a, m, 1).equivalent);
}

TEST_CASE("match_ports keeps positions when the names do not match, and a real swap is caught") {
  const Circuit a = make(false, false, "x", "y", "lt", "or");
  PortMatch how;  // inputs really swapped, names unrelated
  const Circuit m = match_ports(a, make(true, false, "i0", "i1", "o0", "o1"), how);
  CHECK(how.inputs == "by position");
  CHECK(how.outputs == "by position");
  const EquivResult r = equivalent_on_01(a, m, 1);
  CHECK_FALSE(r.equivalent);
  REQUIRE(r.counterexample);
  // Duplicate names on one side cannot decide a matching: by position.
  PortMatch how2;
  (void)match_ports(a, make(false, false, "x", "x", "lt", "or"), how2);
  CHECK(how2.inputs == "by position");
}
