// Circuit gadgets for mqar/dyadic (Zoology H.7.4–H.7.6, Algorithms 10 and 11) that circuits/ does
// not have. All are built from the certified Bit gadgets of circuits/gadgets_*.h, so every wire they
// return is a Bit wire (the whole MQAR circuit stays bit-sliceable).
//   cswap           conditional swap of two words sharing p = s·(y − x): 4 gates per bit instead of
//                   the 6 of two MUXes (lo = x + p = s ? y : x, hi = y − p = s ? x : y)
//   apply_traced    a comparator network (ascending, min to the lower position) that RECORDS each
//                   comparator's swap bit; unroute() runs the network backwards with the recorded
//                   bits on other words, i.e. applies the inverse permutation. This is how the
//                   circuit "keeps the sorted permutation" (Zoology Remark H.29) and routes answers
//                   back to the queries' original positions.
//   merge_network   Batcher's odd-even merge of two sorted runs of m (a power of two): m·log2(m)+1
//                   comparators, depth log2(2m) (spec §7.5 merge-based block)
//   select_word     table[x] for a binary index word x: a MUX tree (O(m·w) gates, the "O(m·d) per
//                   probe" of spec §7.5); indices past the table give the zero word, and subtrees
//                   with no table entry fold to constants
//   onehot_to_binary, and_word, or_words, pad: index plumbing
//   add_words, mul_words  exact unsigned arithmetic on words whose width grows (never overflows);
//                   only the literal eq (17) of variant=paper needs them
//   next_flagged    for every position, the first flagged record at or after it (a suffix scan in
//                   Sklansky form, depth ⌈log2 n⌉ MUX levels)
// Words are LSB first (as circuits/gadgets_bits.h).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "circuits/gadgets_sort.h"

namespace cz::mqarc::dy {

using circuits::Builder;
using circuits::Wire;
using circuits::gadgets::Bits;
using circuits::gadgets::Network;

// Bits needed to write every value 0..v (at least 1).
std::size_t bits_for(std::uint64_t v);

std::pair<Bits, Bits> cswap(Builder& b, Wire s, const Bits& x, const Bits& y);

// A record for networks: `key` is compared, `load` travels with it.
struct Rec {
  Bits key, load;
};
// Applies `net` in order; comparator c swaps when key[j] < key[i] strictly (ties keep their order).
// `flip` names one comparator to reverse (max to the lower position): a mutant, -1 for none.
// steps (optional): each comparator's (i, j, swap bit, key ++ load words after it), for proofs.
struct Step {
  std::size_t i = 0, j = 0;
  Wire s;
  Bits lo, hi;
};
std::vector<Wire> apply_traced(Builder& b, std::vector<Rec>& recs, const Network& net, long flip = -1,
                               std::vector<Step>* steps = nullptr);
void unroute(Builder& b, std::vector<Bits>& words, const Network& net, const std::vector<Wire>& swaps,
             std::vector<Step>* steps = nullptr);

Network merge_network(std::size_t m);
// Batcher's odd-even merge sort of m (a power of two) as the merge tree: sort both halves, then
// merge_network on them; depth ½·log2 m·(log2 m + 1) comparators (spec §7.5, Lemma H.35's gap).
Network mergesort_network(std::size_t m);

Bits pad(Builder& b, Bits x, std::size_t w);
Bits and_word(Builder& b, Wire s, const Bits& x);
Bits or_words(Builder& b, const Bits& x, const Bits& y);  // widths may differ
Bits onehot_to_binary(Builder& b, const std::vector<Wire>& v, std::size_t w);
Bits add_words(Builder& b, const Bits& x, const Bits& y);  // width max+1
Bits mul_words(Builder& b, const Bits& x, const Bits& y);  // width |x|+|y|
Bits select_word(Builder& b, const std::vector<Bits>& table, const Bits& x);

struct Flagged {
  Wire has;
  Bits data;
};
std::vector<Flagged> next_flagged(Builder& b, const std::vector<Wire>& flag, const std::vector<Bits>& data);

}  // namespace cz::mqarc::dy
