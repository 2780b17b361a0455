// The independent MQAR reference solver: Zoology Algorithm 9 as reconstructed in spec §7.1 (Prop
// H.28). An ordered map (std::map, a balanced BST) from key token to value token; for each query
// in sequence order, LOOK UP first and INSERT the pair of the same triple AFTER, so a query only
// matches keys of strictly earlier triples (j < i, spec §6.1 and E5).
// It reads only the layout and the tokens (never the position-set fields that constructions read,
// and never construction code):
//   - triples: (k_i, v_i, q_i) = tokens[3i], tokens[3i+1], tokens[3i+2];
//   - zoology: K = key_rows.size() pairs at rows 2j, 2j+1, all inserted before the first query;
//     the queries are the tokens at query_rows (the rows zoology labels).
// With duplicate keys MQAR is undefined (E5); this solver then answers with the LATEST inserted
// pair (insert overwrites). Domains in this project only produce distinct keys.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "tasks/mqar.h"

namespace cz::mqar {

// One answer per query (in query order); nullopt = null (no visible key matches).
std::vector<std::optional<std::int64_t>> reference_answers(const Instance& x);

}  // namespace cz::mqar
