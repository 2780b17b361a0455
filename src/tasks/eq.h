// The equality problem (EQ, JRT §G.1.3): given tokens u1, u2 in [0, c), decide u1 = u2. The
// reference is a plain comparison. JRT Prop G.8 reduces EQ to MQAR on a JRT prompt:
//   u = (u1, 1, u1), (u2, 1, u2), (u1, 1, u1), (u2, 1, u2)   (triples (key, value, query))
// with the value token 1 marking a match. Under MQAR's strict j < i (JRT G.1.2, spec E5) only
// query 1 (u2 against key 0 = u1) depends on the instance: queries 2 and 3 always find their own
// token among earlier keys (k_0 = u1, k_1 = u2), so "some query answers 1" is always true and
// the answer must be read at query 1.
#pragma once
#include <cstdint>

#include "tasks/mqar.h"

namespace cz::eq {

struct Instance {
  std::uint32_t c = 0;
  std::uint32_t u1 = 0, u2 = 0;
};

inline bool equal(const Instance& x) { return x.u1 == x.u2; }

// All c^2 pairs: k = u1·c + u2.
inline Instance instance(std::uint32_t c, std::uint64_t k) {
  return Instance{c, static_cast<std::uint32_t>(k / c), static_cast<std::uint32_t>(k % c)};
}

// JRT Prop G.8's MQAR instance (c >= 2 so that the value token 1 exists).
inline mqar::Instance to_mqar(const Instance& x) {
  const std::int64_t a = x.u1, b = x.u2;
  return mqar::make_triples(x.c, {a, b, a, b}, {1, 1, 1, 1}, {a, b, a, b});
}

}  // namespace cz::eq
