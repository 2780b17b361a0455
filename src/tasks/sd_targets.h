// Targets for the stages of the Based SD pipeline (JRT Lemma G.20, Prop G.21; spec §10.3
// "Target for tests"), written from the statements and never from a construction's weights.
// These are the reference side of the stage checks; the end-to-end reference is sd::disjoint.
#pragma once
#include "tasks/sd.h"

namespace cz::sd {

// Lemma G.20: "if the separator is within [0, N/2 - 1] ... the smaller set is at the start":
// 2·|A| <= N - 2 with N = |A| + |B| + 1, i.e. |A| < |B| (ties count as "B first"; harmless).
inline bool a_first(const Instance& x) { return x.A.size() < x.B.size(); }

// The kernel h_shift of Lemma G.20 as a coefficient vector of length 2N: X^0 when A comes
// first, else X^{|A|+1} (the shift up that brings B to the top, Prop G.21).
inline std::vector<std::int64_t> h_shift(const Instance& x) {
  const std::size_t N = x.A.size() + x.B.size() + 1;
  std::vector<std::int64_t> h(2 * N, 0);
  h[a_first(x) ? 0 : x.A.size() + 1] = 1;
  return h;
}

// Prop G.21's rearranged first copy: (A, s, B) when A comes first, else (B, s, A), i.e.
// [u[|A|+1 : N]; s; u[0 : |A|]] (spec §10.3).
inline Matrix<std::int64_t> rearranged(const Instance& x) {
  return a_first(x) ? encode(x) : encode(Instance{x.n, x.B, x.A});
}

}  // namespace cz::sd
