// Word comparisons on d-bit unsigned keys (LSB first), Zoology Def H.31 / Lemma H.32: comparing two
// d-bit strings with size O(d) and depth O(log d). Both are balanced trees over the bits, not
// ripples:
//   equal(x, y)     = AND over b of XNOR(x_b, y_b)                       (tree of ⌈log2 d⌉ ANDs)
//   less_than(x, y) = [x < y]: a parallel-prefix reduction, MSB first, of the pairs
//                     (e_b, l_b) = (XNOR(x_b, y_b), AND(NOT x_b, y_b)) under the associative
//                     (e1, l1) ∘ (e2, l2) = (e1·e2, l1 OR e1·l2)   [(e1,l1) more significant]
//                     (spec §7.5's Σ_b (1−x_b)·y_b·Π_{b'>b} e_{b'}, evaluated as a tree).
//   min_max / compare_exchange: s = less_than(x, y); min = s ? x : y, max = s ? y : x (bitwise
//                     MUX, sharing s·(x_b − y_b)); the payload travels with its key.
// Ties: when keys are equal, compare_exchange puts the second item first (s = 0); sorting
// networks built from it are therefore not stable (use the payload to break ties if needed).
#pragma once
#include <utility>
#include <vector>

#include "circuits/gadgets_bits.h"

namespace cz::circuits::gadgets {

Wire equal(Builder& b, const Bits& x, const Bits& y);
Wire less_than(Builder& b, const Bits& x, const Bits& y);
Wire less_equal(Builder& b, const Bits& x, const Bits& y);  // NOT less_than(y, x)

// A sortable record: a key word and a payload that moves with it (Bit or Field wires).
struct Item {
  Bits key;
  std::vector<Wire> payload;
};

// (min, max) of two words.
std::pair<Bits, Bits> min_max(Builder& b, const Bits& x, const Bits& y);
// The comparator of Def H.31 on records: (item with the smaller key, the other).
std::pair<Item, Item> compare_exchange(Builder& b, const Item& x, const Item& y);

}  // namespace cz::circuits::gadgets
