// Sorting networks on records (key word + payload), ascending by key: Batcher's odd-even merge
// sort and bitonic sort (spec §7.5: Zoology's Lemma H.35 cites AKS depth Θ(log n); we build
// Batcher's networks, depth ½·⌈log2 n⌉·(⌈log2 n⌉+1), and report the gap).
//   *_pairs(n): the comparator list (i, j), i < j, min goes to i, in layer order: plain data, so
//               tests apply it to integers (0-1 principle) independently of the circuit.
//   Odd-even merge sort handles any n directly. Bitonic sort is defined for powers of two; other n
//   are padded to the next power of two with sentinel records whose key has an extra top bit 1
//   (real records get 0), and constant folding removes every comparator that touches a sentinel.
// The payload carries e.g. the original index (a permutation), as MQAR-by-dyadic-intervals needs.
#pragma once
#include <utility>
#include <vector>

#include "circuits/gadgets_compare.h"

namespace cz::circuits::gadgets {

using Network = std::vector<std::pair<std::size_t, std::size_t>>;

Network odd_even_merge_pairs(std::size_t n);
Network bitonic_pairs(std::size_t n);  // precondition: n is a power of two (or 0/1)
// Number of comparator layers when each comparator goes as early as its wires allow.
std::size_t network_depth(const Network& net, std::size_t n);

// What a network built into a circuit looks like from outside (--method sat's stage-wise proof,
// app/engine/sat/sat_stages.cpp): the items at every position before the first comparator (bitonic:
// sentinels included) and, per comparator in order, its positions and the wires it put there.
// Gate ids are those of the finished circuit (Builder::finish does not renumber). Only a hint:
// the prover checks every wire against the circuit and trusts nothing here.
struct NetworkTrace {
  struct Step {
    std::size_t i, j;
    Item lo, hi;
  };
  std::vector<Item> initial;
  std::vector<Step> steps;
};

// trace (optional): filled with the items in and the comparators' wires, as described above.
std::vector<Item> apply_network(Builder& b, std::vector<Item> items, const Network& net, NetworkTrace* trace = nullptr);
std::vector<Item> odd_even_merge_sort(Builder& b, std::vector<Item> items, NetworkTrace* trace = nullptr);
std::vector<Item> bitonic_sort(Builder& b, std::vector<Item> items, NetworkTrace* trace = nullptr);

}  // namespace cz::circuits::gadgets
