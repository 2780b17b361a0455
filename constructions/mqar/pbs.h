// Zoology Algorithm 10, pbs-key-values(q[s..t], k[x..y]), as an arithmetic circuit (Zoology H.7.6,
// Fig. 9, eq (14)–(17); spec §7.3). Input: sorted query words Q[0..mq) and sorted key words
// K[0..mk) (LSB first). Output: C[i] = min{ j : Q[i] <= K[j] }, or mk when Q[i] > K[mk-1] (eq 12).
//
// The recursion over query ranges [s, t] is fixed (mid = ⌊(s+t)/2⌋, every query is the mid of
// exactly one call); the key ranges [x, y] are data-dependent, so they travel as ONE-HOT Bit
// vectors X (over key positions 0..mk-1) and Y1 = one-hot of y+1 (over 0..mk). At each call:
//   lt_j = [K_j < Q_mid] for every j (mk comparators, Lemma H.32 each)
//   ℓx = [Q_mid <= K_x] = OR_j X_j·¬lt_j,   g_y = [Q_mid > K_y] = OR_j Y1_{j+1}·lt_j     (eq 14)
//   z  = bin-search(K[x..y], Q_mid): the first j in [x, y] with ¬lt_j, found as an edge of lt
//        masked to [x, y] (m parallel probes: the same O(m·d) as ONE mux-selected probe of a
//        binary search, spec §7.5; keys are sorted, so lt is 1…1 0…0)
//   z_t = ℓx·x + (1−ℓx)(1−g_y)·z,  z_s = g_y·(y+1) + (1−ℓx)(1−g_y)·z                    (eq 15, 16)
//   left call  (q[s..mid−1], k[x..z_s−1])  gets X and Y1 := z_s
//   right call (q[mid+1..t], k[z_t..y])    gets X := z_t and Y1
//   C[mid] = ℓx·x + (1−ℓx)(1−g_y)·z + g_y·(y+1)                                           (eq 17)
// and the halves are combined by eq (17) in one of three forms:
//   Paper    literally as published: left C[i] = ℓx·x + z_s·C1[i], right C[i] = g_y·(y+1) + z_t·C2[i]
//            (an INDEX multiplies the sub-result; "0 = dead branch"). Exact unsigned binary
//            arithmetic (ripple adders, shift-add multipliers, widths grow so nothing wraps).
//   Fixed    spec Errata E1: left C[i] = ℓx·x + (1−ℓx)·C1[i], right C[i] = g_y·(y+1) + (1−g_y)·C2[i]
//            (liveness bits; each is a bitwise MUX, since the scalars are bits).
//   DeadZero only the "0 = dead" convention: liveness [z_s ≠ 0], [z_t ≠ 0] instead of ℓx, g_y
//            (spec §13: this defect alone breaks 3,046 small cases; tests only).
// Dead branches (z = 0) still compute something in a fixed circuit; eq (17) multiplies (Paper)
// or discards (Fixed) it, so it is never seen. A dead range is the all-zero one-hot vector.
// Result words: Fixed/DeadZero have width bits_for(mk); Paper words are as wide as the exact
// products need.
#pragma once
#include <vector>

#include "constructions/mqar/dyadic_gadgets.h"

namespace cz::mqarc {

enum class PbsVariant { Fixed, Paper, DeadZero };

// One recursive call, for the stage-wise proof (constructions/mqar/dyadic_stages.h, issue 38): its
// query range [s, t) and mid, the key range it was given (one-hot X over 0..mk-1, Y1 over 0..mk),
// and its results C[s..t) once it has combined its halves. A hint, as DyadicTrace: the proof cuts
// the circuit at these wires and checks every obligation on the circuit's own gates.
struct PbsCallTrace {
  std::size_t s = 0, t = 0, mid = 0;
  std::vector<dy::Wire> X, Y1;
  std::vector<dy::Bits> C;
};

struct PbsCount {
  std::size_t comparisons = 0;  // d-bit comparators [K_j < Q_mid]
  std::size_t calls = 0;        // recursive calls with a non-empty query range
};

// x0: the top call's first key (0; the PbsTopFromOne mutant's 1, which misses every query equal to
// the smallest key: the call-by-call proof must discharge the top call's key range, not assume it).
std::vector<dy::Bits> pbs_key_values(dy::Builder& b, const std::vector<dy::Bits>& Q, const std::vector<dy::Bits>& K,
                                     PbsVariant v, PbsCount* count = nullptr,
                                     std::vector<PbsCallTrace>* calls = nullptr, std::size_t x0 = 0);

}  // namespace cz::mqarc
