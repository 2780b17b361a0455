// sd/via-gar with solver=via-sd (JRT Prop G.25 into Prop G.26 with Alg. 3 as the SD oracle)
// unrolled into one all-Bit circuit per prompt length, for `verify sd/via-gar -p solver=via-sd
// --method sat` (app/engine/sat/sat_sd.h). Per allowed separator row a of the input u (A = rows < a,
// B = rows > a, as sd::encode writes them): the GAR instance of Prop G.25 (keys = A, values 0,
// queries = B, c = 2^n); Prop G.26's d = code_bits(c) SD calls, call l on (Q, K_l) with Q the
// queries as a set (B's rows: distinct in every SD domain, so the first occurrences are all of
// them) and K_l the keys whose code value + 1 has bit l (the same expression as gar_via_sd); each
// call is Alg. 3 unrolled (alg3_circuit.h, unroll_alg3_wires) on its JRT prompt, whose separator
// and flag column are constants of the reduction; the answers decoded as gar_via_sd does (code bit
// l of q: q is among call l's flagged elements; Null iff the code is 0); SD's answer the answered
// queries. The row a is selected by u's flag column (the separator row).
// Names (prefix P): inputs P"u[r][j]", outputs P"y[r][j]" for r < N: [u's element :: row r's
// element is an answered query].
// sd_via_gar_circuit: the same encoding and decoding around any GAR solver given as wires
// (sd/via-gar solver=reference: the GAR reference circuit, circuits/reference/gar_ref.h).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "circuits/builder.h"
#include "circuits/circuit.h"
#include "circuits/gadgets_bits.h"
#include "constructions/sd/alg3.h"

namespace cz::garc {

struct ViaGarBlock {
  std::size_t N = 1;               // rows of u
  std::vector<std::size_t> seps;   // the separator rows the domain allows
  std::string prefix;
};

// A GAR solver as wires: per query, [answered (not Null)], on the keys, values and queries (words
// of token_bits(c) bits; the values are Prop G.25's constant 0).
using GarAnsweredWires = std::function<std::vector<circuits::Wire>(
    circuits::Builder&, const std::vector<circuits::gadgets::Bits>& keys, const std::vector<circuits::gadgets::Bits>& values,
    const std::vector<circuits::gadgets::Bits>& queries)>;
circuits::Circuit sd_via_gar_circuit(unsigned n, const GarAnsweredWires& solver, const std::vector<ViaGarBlock>& blocks);

circuits::Circuit sd_via_gar_unrolled(unsigned n, const sdc::Alg3Rules& rules, const std::vector<ViaGarBlock>& blocks);

}  // namespace cz::garc
