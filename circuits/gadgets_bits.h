// Bit gadgets (spec §7.5 [R]): exact arithmetic formulas that map {0,1} operands to {0,1}, each
// certified by Builder::certify_bit (so the result is a Bit wire with its Boolean meaning).
//   NOT a = 1 − a;  AND = a·b;  OR = a + b − a·b;  XOR = a + b − 2ab;  XNOR (bit EQ) = 1 − XOR;
//   MUX(s, a, b) = b + s·(a − b)  (s ? a : b)
// Operands of the Boolean gadgets must be Bit wires (std::logic_error otherwise). mux() also takes
// Field data wires (s must be Bit): then the result is a Field wire.
// and_all/or_all/xor_all reduce with balanced trees (depth ⌈log2 n⌉ gadget levels).
#pragma once
#include <vector>

#include "circuits/builder.h"

namespace cz::circuits::gadgets {

using Bits = std::vector<Wire>;  // a d-bit word, least significant bit first

Wire not_(Builder& b, Wire a);
Wire and_(Builder& b, Wire x, Wire y);
Wire or_(Builder& b, Wire x, Wire y);
Wire xor_(Builder& b, Wire x, Wire y);
Wire xnor_(Builder& b, Wire x, Wire y);  // the bit equality e = [x == y]
Wire mux(Builder& b, Wire s, Wire a, Wire c);  // s ? a : c

Wire and_all(Builder& b, const std::vector<Wire>& xs);  // 1 for an empty list
Wire or_all(Builder& b, const std::vector<Wire>& xs);   // 0 for an empty list
Wire xor_all(Builder& b, const std::vector<Wire>& xs);  // 0 for an empty list

// d Bit inputs named "<name>[k]" (k = bit index, LSB first), and the constant word `value`.
Bits input_bits(Builder& b, const std::string& name, std::size_t d);
Bits const_bits(Builder& b, std::uint64_t value, std::size_t d);
// Word-wise mux (s ? a : c), a and c of equal length.
Bits mux_bits(Builder& b, Wire s, const Bits& a, const Bits& c);

}  // namespace cz::circuits::gadgets
