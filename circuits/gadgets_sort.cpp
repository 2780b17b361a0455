#include "circuits/gadgets_sort.h"

#include <algorithm>
#include <stdexcept>

namespace cz::circuits::gadgets {

Network odd_even_merge_pairs(std::size_t n) {
  // Batcher's merge exchange in its iterative form (Knuth TAOCP 5.2.2, Algorithm M shape):
  // for each merge size p, compare elements k apart that lie in the same 2p block.
  Network net;
  for (std::size_t p = 1; p < n; p <<= 1)
    for (std::size_t k = p; k >= 1; k >>= 1) {
      for (std::size_t j = k % p; j + k < n; j += 2 * k)
        for (std::size_t i = 0; i < std::min(k, n - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) net.emplace_back(i + j, i + j + k);
      if (k == 1) break;
    }
  return net;
}

Network bitonic_pairs(std::size_t n) {
  if (n & (n - 1)) throw std::logic_error("bitonic_pairs: n is not a power of two");
  Network net;
  for (std::size_t k = 2; k <= n; k <<= 1)
    for (std::size_t j = k >> 1; j > 0; j >>= 1)
      for (std::size_t i = 0; i < n; ++i) {
        std::size_t l = i ^ j;
        if (l <= i) continue;
        // Ascending blocks put the min at i; descending blocks put it at l (the pair reversed).
        if ((i & k) == 0) net.emplace_back(i, l);
        else net.emplace_back(l, i);
      }
  return net;
}

std::size_t network_depth(const Network& net, std::size_t n) {
  std::vector<std::size_t> level(n, 0);
  std::size_t depth = 0;
  for (auto [i, j] : net) {
    std::size_t l = std::max(level[i], level[j]) + 1;
    level[i] = level[j] = l;
    depth = std::max(depth, l);
  }
  return depth;
}

std::vector<Item> apply_network(Builder& b, std::vector<Item> items, const Network& net, NetworkTrace* trace) {
  if (trace) trace->initial = items;
  for (auto [i, j] : net) {
    auto [lo, hi] = compare_exchange(b, items[i], items[j]);
    if (trace) trace->steps.push_back({i, j, lo, hi});
    items[i] = std::move(lo);
    items[j] = std::move(hi);
  }
  return items;
}

std::vector<Item> odd_even_merge_sort(Builder& b, std::vector<Item> items, NetworkTrace* trace) {
  const std::size_t n = items.size();
  return apply_network(b, std::move(items), odd_even_merge_pairs(n), trace);
}

std::vector<Item> bitonic_sort(Builder& b, std::vector<Item> items, NetworkTrace* trace) {
  const std::size_t n = items.size();
  std::size_t m = 1;
  while (m < n) m <<= 1;
  if (m == n) return apply_network(b, std::move(items), bitonic_pairs(n), trace);
  // Pad with sentinels: an extra top key bit, 0 for real records and 1 for sentinels.
  const std::size_t d = n ? items[0].key.size() : 0, pw = n ? items[0].payload.size() : 0;
  for (auto& it : items) it.key.push_back(b.zero());
  while (items.size() < m) {
    Item s;
    s.key.assign(d, b.zero());
    s.key.push_back(b.one());
    s.payload.assign(pw, b.zero());
    items.push_back(std::move(s));
  }
  items = apply_network(b, std::move(items), bitonic_pairs(m), trace);
  items.resize(n);
  for (auto& it : items) it.key.pop_back();
  return items;
}

}  // namespace cz::circuits::gadgets
