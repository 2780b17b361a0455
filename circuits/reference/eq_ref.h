// The equality reference (task eq, JRT §G.1.3; src/tasks/eq.h), written from the task's definition
// only: tokens u1, u2 in [0, c) as w-bit binary words (w = token_width(c), LSB first), inputs
// "u1[k]", "u2[k]" (k < w).
//   domain : u1 < c and u2 < c (exactly the c² pairs the enumeration walks).
//   eq     : [u1 = u2].
// The checker reads the answer "got:eq" of a circuit under test (one group "eq", family "eq").
// Only Boolean gadgets (no comparator gadget).
#pragma once
#include <cstdint>

#include "circuits/builder.h"
#include "circuits/reference/checker.h"

namespace cz::circuits::reference {

// Bits of a token below c: ceil(log2 c), at least 1.
unsigned token_width(std::uint64_t c);

// [x < c] for the constant c (x read as an unsigned binary word, LSB first).
Wire below_const(Builder& b, const std::vector<Wire>& x, std::uint64_t c);

// Outputs "domain", "eq".
Circuit eq_reference_circuit(std::uint64_t c);
Checker eq_checker(std::uint64_t c);

}  // namespace cz::circuits::reference
