// The circuit of circuit/sort (n d-bit keys k<i>[b], each with its index as a ⌈log2 n⌉-bit
// payload; outputs key<i>[b], idx<i>[b]), built in one place so that --method sat's stage-wise
// proof (app/engine/sat/sat_stages.cpp) can ask for the same circuit with its network traced.
#pragma once
#include <cstddef>

#include "circuits/circuit.h"
#include "circuits/gadgets_sort.h"

namespace cz::circ {

std::size_t sort_payload_bits(std::size_t n);  // max(1, ⌈log2 n⌉)
// trace (optional): the comparators' wires in the returned circuit (gadgets_sort.h NetworkTrace).
circuits::Circuit build_sort_circuit(std::size_t n, std::size_t d, bool bitonic,
                                     circuits::gadgets::NetworkTrace* trace = nullptr);

}  // namespace cz::circ
