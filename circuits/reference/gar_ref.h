// The general associative recall reference (task gar, JRT Def G.24; src/tasks/gar.h), written from
// the task's definition only: nk keys with values and m queries, every token in [0, c) as a
// w-bit binary word (w = token_width(c), LSB first). Inputs "k[j][b]", "v[j][b]" (j < nk), then
// "q[i][b]" (i < m), b < w.
//   domain   : every token below c and the keys pairwise distinct (JRT Prop G.26's precondition:
//              at most one match per query): exactly the instances gar::instance enumerates.
//   found[i] : some key equals q_i;  a[i][b]: bit b of that key's value (0 when none).
// The checker reads a circuit under test's "got:found[i]" and "got:a[i][b]" (b < value_width,
// the value read as an unsigned word of that width): query i is right when found agrees and, when
// found, the value word equals the key's value (so a value past c is wrong). One group per query
// ("query i", family "query i"). Only Boolean gadgets (no comparator gadget).
#pragma once
#include <cstdint>
#include <vector>

#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"
#include "circuits/reference/checker.h"

namespace cz::circuits::reference {

struct GarSpec {
  std::uint64_t c = 4;
  std::size_t nk = 2, m = 2;
};

struct GarAnswers {
  std::vector<Wire> found;            // per query
  std::vector<gadgets::Bits> value;   // per query (w bits; 0 when not found)
};

// The answers on given words (keys assumed distinct: the value is the OR over matching keys).
GarAnswers gar_answers(Builder& b, const std::vector<gadgets::Bits>& keys, const std::vector<gadgets::Bits>& values,
                       const std::vector<gadgets::Bits>& queries);

// Inputs as above; outputs "domain", "found[i]", "a[i][b]" (b < w).
Circuit gar_reference_circuit(const GarSpec& s);
Checker gar_checker(const GarSpec& s, std::size_t value_width);

}  // namespace cz::circuits::reference
