// Tasks on words of bits (spec §7.5): compare (Zoology Def H.31) and sort (Zoology Lemma H.35).
// Their meaning by definition, as plain C++ on unsigned words (bit b of a word is its b-th least
// significant bit): the references of task compare and task sort (src/verify/task_words.cpp), of
// the SAT confirmation of a model found on a file (app/engine/sat/sat_words.cpp), and of the tests that
// hold the bit-level reference checkers (circuits/reference/compare_ref.h, sort_ref.h) to them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace cz::words {

// compare: x, y are d-bit words (bit vectors, LSB first; any d). lt = [x < y], eq = [x = y],
// min = lt ? x : y, max = lt ? y : x (equal words: both are x = y).
struct CompareAnswer {
  bool lt = false, eq = false;
  std::vector<int> min, max;
};
inline CompareAnswer compare(const std::vector<int>& x, const std::vector<int>& y) {
  CompareAnswer a;
  int cmp = 0;  // the most significant differing bit decides
  for (std::size_t k = x.size(); k-- > 0;)
    if (x[k] != y[k]) {
      cmp = x[k] < y[k] ? -1 : 1;
      break;
    }
  a.lt = cmp < 0;
  a.eq = cmp == 0;
  a.min = cmp <= 0 ? x : y;
  a.max = cmp <= 0 ? y : x;
  return a;
}

// sort: n keys of d <= 64 bits. The answer lists the keys in non-decreasing order, each with the
// position it had in the input (its index, w = index_bits(n) bits): place i holds (key_i', idx_i)
// with key_i' = keys[idx_i], the indices a permutation of [0, n). Ties may come in any order.
inline std::size_t index_bits(std::size_t n) {
  std::size_t w = 0;
  while ((std::size_t{1} << w) < n) ++w;
  return w ? w : 1;
}

struct SortAnswer {
  std::vector<std::uint64_t> keys;  // place i's key
  std::vector<std::uint64_t> idx;   // place i's original position
};
// The stable answer (ties in input order): the one a report shows as expected.
inline SortAnswer stable_sorted(const std::vector<std::uint64_t>& keys) {
  std::vector<std::uint64_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) { return keys[a] < keys[b]; });
  SortAnswer s;
  for (std::uint64_t i : order) s.keys.push_back(keys[i]), s.idx.push_back(i);
  return s;
}
// "" when `got` is a right answer for `keys` (any order of ties), else what is wrong first.
inline std::string sort_wrong(const std::vector<std::uint64_t>& keys, const SortAnswer& got) {
  const std::size_t n = keys.size();
  std::vector<char> seen(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string at = "place " + std::to_string(i);
    if (got.idx[i] >= n) return at + ": index " + std::to_string(got.idx[i]) + " is not below n = " + std::to_string(n);
    if (seen[got.idx[i]]) return at + ": index " + std::to_string(got.idx[i]) + " is given twice (not a permutation)";
    seen[got.idx[i]] = 1;
    if (keys[got.idx[i]] != got.keys[i])
      return at + ": key " + std::to_string(got.keys[i]) + " is not key " + std::to_string(got.idx[i]) + " = " +
             std::to_string(keys[got.idx[i]]);
    if (i + 1 < n && got.keys[i] > got.keys[i + 1])
      return at + ": key " + std::to_string(got.keys[i]) + " is above the next place's " + std::to_string(got.keys[i + 1]) +
             " (not sorted)";
  }
  return "";
}

}  // namespace cz::words
