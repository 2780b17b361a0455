// gar/via-sd (JRT Prop G.26) as one all-Bit circuit, for `verify gar/via-sd --method sat`
// (app/engine/sat/sat_reductions.h): a GAR instance (nk keys, their values, m queries; tokens of
// token_bits(c) bits, names as circuits/reference/gar_ref.h: "k[j][b]", "v[j][b]", "q[i][b]") in,
// "found[i]" and "a[i][b]" (b < code_bits(c): the decoded code − 1) out.
// The reduction's encoding is data-dependent (call l takes A = the queries' first occurrences in
// prompt order, B = the keys whose value + 1 has bit l), so each call is built once per case:
// per first-occurrence pattern F of the queries (2^(m−1) of them) and per key subset S
// (2^nk), the SD oracle on (Q_F, K_S), selected by [the queries' pattern is F] ∧ [K_l = S]
// (both exact conditions on the inputs; the cases of one call partition the inputs). The
// decoding is gar_via_sd's: code bit l of query i = q_i is among call l's flagged elements;
// Null iff the code is 0, else the answer code − 1.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "circuits/builder.h"
#include "circuits/circuit.h"
#include "circuits/gadgets_bits.h"
#include "constructions/sd/alg3.h"

namespace cz::garc {

// An SD oracle as wires: the answer rows (n element bits, then the flag) on the call (A, B);
// the flagged rows' elements are its A ∩ B.
using SdOracleWires = std::function<std::vector<std::vector<circuits::Wire>>(
    circuits::Builder&, unsigned n, const std::vector<circuits::gadgets::Bits>& A, const std::vector<circuits::gadgets::Bits>& B)>;

// JRT Alg. 3 with these steps unrolled on the call's JRT prompt (as recurrent_oracle runs it).
SdOracleWires alg3_oracle_wires(const sdc::Alg3Rules& rules);
// The plain intersection (reference_oracle): A's rows, each flagged when it is in B.
SdOracleWires reference_oracle_wires();

// Oracle calls the circuit builds: code_bits(c) · 2^nk · 2^(m−1).
std::uint64_t gar_via_sd_calls(std::uint32_t c, std::size_t nk, std::size_t m);
circuits::Circuit gar_via_sd_circuit(std::uint32_t c, std::size_t nk, std::size_t m, const SdOracleWires& oracle);

}  // namespace cz::garc
