// The MQAR reference checker (triples layout; spec §6.1, Zoology H.7, tasks/mqar_reference.h):
// n triples (k_i, v_i, q_i) at rows 3i, 3i+1, 3i+2; query i's answer is the value of the key j < i
// (STRICTLY earlier, spec E5) equal to q_i, else null. Written as directly as the definition:
// n² row-equality comparators and an OR-of-ANDs selection (keys are distinct in the domain, so at
// most one key matches).
//   domain: every row is a codeword of a token below c (binary: the row read as an integer, column
//           0 the LSB, is < c; one-hot: exactly one 1; p-hot: exactly one 1 in each of the p digit
//           groups of `base` columns, c = base^p) and the n keys are pairwise distinct: exactly
//           the instances the exhaustive enumerator walks (tasks/mqar_domain.h).
//   answer: cell y[r][j] of the circuit under test, by name; at a query row r = 3i+2 and column
//           j < d the encoded answer (zero row for null), at column d the found bit ([some key
//           j < i equals q_i]), elsewhere 0 (tasks/mqar.h expected_answer: the same cells). A cell
//           y[r][j], j < d, the circuit does not output reads as 0 (as the enumerating check reads
//           it); so does a cell of column d when the circuit outputs any cell of column d.
//   groups: one ok per output cell ("query i col j"; a cell of a non-query row belongs to its
//           triple's query), in the family "query i"; cases "q_i = k_j" (j < i) for cube splits.
#pragma once
#include "circuits/reference/checker.h"

namespace cz::circuits::reference {

enum class TokenCode { OneHot, Binary, PHot };

struct MqarSpec {
  std::size_t n = 0, c = 0;
  TokenCode code = TokenCode::Binary;
  std::size_t p = 1, base = 0;  // p-hot: c = base^p
  std::size_t d = 0;            // row width: c, ceil(log2 c), p·base
};

// Throws InputError (where) on an output name that is not y[r][j] with r < 3n, j <= d.
Checker mqar_checker(const MqarSpec& s, const std::vector<std::string>& artifact_outputs, const std::string& where);

}  // namespace cz::circuits::reference
