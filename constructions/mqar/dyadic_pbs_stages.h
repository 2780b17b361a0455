// One dyadic block (variant=pbs*) proved call by call (issue 38: mqar/dyadic n = 128, c = 128 was
// undecided at 30 min; its 64-query block's per-query miters hold a query's whole binary search,
// six nested calls whose key ranges depend on the other queries, and stall from query 20 on).
//
// Let lb(q) = #{j : K_j < q} (keys strictly ascending), the C of eq (12). For a pbs call N with
// queries [s, t) and key range given by one-hot X (x) and Y1 (y+1), and a query i of [s, t), write
//   Pre(N, i):  X and Y1 one-hot, x < y+1, and x <= lb(Q_p) <= y+1 for every p in P(N, i), the mids
//               of the calls from N down to the one whose mid is i (so i itself is in it);
//   Post(N, i): the call's result C_N[i] (after it combines its halves) equals lb(Q_i).
// Obligations, each a miter over the circuit's own gates cut at the traced wires (free: the keys,
// the queries of P(N, i), X, Y1 and the child's C[i]):
//   call (N, i):  keys ascending, P's queries ascending, Pre(N, i) and, when i is not N's mid,
//                 [Pre(M, i) => Post(M, i)] for N's child M holding i (its X, Y1 computed in
//                 N's cone)  =>  Post(N, i);
//   answer p:     lb's order facts for Q_p (below) and C_top[p] = lb(Q_p)  =>  the block's
//                 answer word is [found] ++ value with found = OR_j [K_j == Q_p], value =
//                 OR_j [K_j == Q_p]·V_j (before issue 48 with the keys' comparators as well,
//                 which the facts make redundant: without them n = 128 spends 35 s of solver
//                 CPU instead of 44);
//   order lemmas: on free words a, b, c: a < b < c => a < c, a <= b <= c => a <= c, a == c =>
//                 not a < c, a < b == c => a < c, a < b <= c => a < c (one miter per block);
//   top range:    keys and queries ascending => Pre(top, i) for every query i, on the top call's
//                 X and Y1 as the circuit computes them (the induction's base; pbs.cpp gives the
//                 constants x = 0, y+1 = m, which fold it to no miter).
// By induction up the path (every wire value of the circuit satisfies each miter's free-wire
// hypotheses), Pre(N, i) => Post(N, i) holds for every call; the top-range obligation makes Pre
// hold at the top call, so C_top[i] = lb(Q_i) (without it a top call searching from key 1, which
// misses a query equal to the smallest key, passed every call miter); the answer miters finish
// the block: the same statement as the block's per-query miters (dyadic_stages.h step 3), from
// obligations that each hold one call's gates. Hypotheses beyond the block's (adjacent keys
// strictly ascending, adjacent queries ascending) are instances of the order lemmas: the queries
// of P pairwise ascending, [K_{j+1} < Q] => [K_j < Q], [K_j == Q] => not [K_j < Q] and
// [K_{j-1} < Q], and across P's queries [K_j < Q_p] => [K_j < Q_p'] for p < p' (adjacent ones in
// query order: the implications chain); they spare the solver chains of word comparisons, and the
// last makes a call miter propositional over lb's comparisons (issue 48: n = 64, c = 64 went from
// 17.5 s to 2.1 s, its call miters 5-50x faster; n = 128, c = 128 from 237 s on 2 ranks to 25 s in
// one process). Comparisons are encoded with
// the gates of the circuit's own comparator (sat::lits_less_gadget), so the cone's [K_j < Q_mid]
// and ours are one literal. n = 64, c = 128, a sample of each kind: call miters 0.47 -> 0.18 s,
// answer miters 1.17 -> 0.05 s on average with these two devices (pairwise key order and a
// mux-chain comparator before). A trace that does not fit is refused (the caller keeps the
// per-query miters).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "circuits/circuit.h"
#include "circuits/sat/cnf.h"
#include "constructions/mqar/pbs.h"

namespace cz::mqarc {

struct PbsObligation {
  std::string what;
  circuits::sat::Cnf cnf;  // UNSAT = the obligation holds; its last clause is the unit "it fails"
  // The free variables and the circuit wires they stand for (a SAT answer read back on the
  // circuit; tests fix them to the circuit's own values, where every hypothesis must hold).
  std::vector<std::pair<circuits::GateId, int>> cut;
};

// K: the block's sorted key records (key word of kb bits ++ value word), Q: its sorted query words,
// calls: the block's pbs calls (DyNodeTrace::pbs_calls), res: its answer words; what names the
// block. Appends the obligations to out; "" or why the trace does not fit (nothing appended).
// across: the order facts across a call miter's queries (false: the miters as before issue 48's
// facts, so a certificate directory written then still checks).
std::string pbs_call_obligations(const circuits::Circuit& c, const std::vector<std::vector<circuits::Wire>>& K, std::size_t kb,
                                 const std::vector<std::vector<circuits::Wire>>& Q, const std::vector<PbsCallTrace>& calls,
                                 const std::vector<std::vector<circuits::Wire>>& res, const std::string& what,
                                 std::vector<PbsObligation>& out, bool across = true);

}  // namespace cz::mqarc
