// Bit inference for equivalence on 0/1 inputs: rebuilds a circuit whose wires are Field typed
// (arithmetic Bristol, a compiled model, a hand-written JSON) with certified Bit wires wherever a
// gate is provably 0/1-valued. Every input is taken as a Bit (the caller evaluates on 0/1 inputs
// only). A gate becomes Bit when its arithmetic cone, cut at ≤ kMaxLeaves Bit wires (expanding a
// Bit leaf through its own leaves when the leaves depend on each other), is 0/1 on every
// assignment of the cut: the value is then that truth table of the leaves, rebuilt from the
// gadgets (AND/OR/XOR/NOT/MUX, each certified again by the Builder). Sound (the cut check covers
// every reachable assignment), not complete: a gate that fails stays Field, copied as it is.
// So the result equals c on every 0/1 input; when all its outputs are Bit, equivalence runs on
// the bit-sliced path (x·y → AND, 1 − x → NOT, x + y − 2xy → XOR, ...).
#pragma once
#include "circuits/circuit.h"

namespace cz::circuits {

inline constexpr unsigned kMaxLeaves = 6;
Circuit infer_bits(const Circuit& c);

}  // namespace cz::circuits
