// eq/via-mqar (JRT Prop G.8) as one all-Bit circuit, for `verify eq/via-mqar --method sat`
// (app/engine/sat/sat_reductions.h): the tokens u1, u2 as w-bit words in (names as
// circuits/reference/eq_ref.h: "u1[k]", "u2[k]"), the reduction's encoding (each token's one-hot
// row, the 4-triple JRT prompt (u1,1,u1), (u2,1,u2), (u1,1,u1), (u2,1,u2): a 12 × c matrix), the
// MQAR solver's model bit-blasted exactly (circuits/sat/model_bits.h: two's-complement words as
// wide as each value's certified interval), and the decoding, one output "eq":
//   q1 : row 5 (query 1) is exactly the one-hot code of token 1 (as decode_row answers Token 1);
//   any: some entry of a query row 5, 8, 11 is nonzero (the paper's literal decoding).
#pragma once
#include <cstdint>

#include "circuits/circuit.h"
#include "model/model.h"

namespace cz::eqc {

struct EqCircuit {
  circuits::Circuit circuit;
  std::size_t widest = 0;  // the widest word of the bit-blast
};

// Throws circuits::sat::TooWide past max_width, InputError when the model is not 12 × c over Z.
EqCircuit eq_via_mqar_circuit(std::uint32_t c, const Model& m, bool any, std::size_t max_width = 1024);

}  // namespace cz::eqc
