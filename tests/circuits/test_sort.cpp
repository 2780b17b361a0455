// Sorting networks: the comparator lists by the 0-1 principle (bit-parallel, every 0/1 vector
// up to n = 20), and the circuits exhaustively on small keys with an index payload against
// std::sort.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "circuits/gadgets_sort.h"
#include "circuits/stats.h"
#include "tests/circuits/helpers.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

// True when `net` sorts every 0/1 vector of length n (Knuth's 0-1 principle), 64 at a time.
bool sorts_all_01(const g::Network& net, std::size_t n) {
  const std::uint64_t total = std::uint64_t{1} << n;
  for (std::uint64_t base = 0; base < total; base += 64) {
    std::vector<std::uint64_t> w(n, 0);
    for (std::uint64_t k = 0; k < 64 && base + k < total; ++k)
      for (std::size_t i = 0; i < n; ++i) w[i] |= (((base + k) >> i) & 1) << k;
    for (auto [i, j] : net) {
      std::uint64_t lo = w[i] & w[j], hi = w[i] | w[j];
      w[i] = lo;
      w[j] = hi;
    }
    std::uint64_t valid = (total - base >= 64) ? ~std::uint64_t{0} : ((std::uint64_t{1} << (total - base)) - 1);
    for (std::size_t i = 0; i + 1 < n; ++i)
      if (w[i] & ~w[i + 1] & valid) return false;  // a 1 before a 0
  }
  return true;
}

Circuit sort_circuit(std::size_t n, std::size_t d, bool bitonic) {
  Builder b;
  std::vector<g::Item> items;
  for (std::size_t i = 0; i < n; ++i) {
    g::Item it;
    it.key = g::input_bits(b, "k" + std::to_string(i), d);
    it.payload = {b.constant(Rat(static_cast<std::int64_t>(i)))};
    items.push_back(std::move(it));
  }
  auto out = bitonic ? g::bitonic_sort(b, items) : g::odd_even_merge_sort(b, items);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < d; ++k) b.output("key" + std::to_string(i) + "_" + std::to_string(k), out[i].key[k]);
    b.output("idx" + std::to_string(i), out[i].payload[0]);
  }
  return std::move(b).finish();
}

// Reference: keys sorted by std::sort; payload is a permutation with key[idx[i]] == sorted[i].
bool sorted_ok(const std::vector<std::int64_t>& in, const std::vector<Int>& out, std::size_t n, std::size_t d) {
  std::vector<std::uint64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = test::word(in, i * d, d);
  std::vector<std::uint64_t> want = keys;
  std::sort(want.begin(), want.end());
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t k = 0;
    for (std::size_t b = 0; b < d; ++b) k |= static_cast<std::uint64_t>(out[i * (d + 1) + b].to_int64()) << b;
    std::int64_t idx = out[i * (d + 1) + d].to_int64();
    if (k != want[i] || idx < 0 || idx >= static_cast<std::int64_t>(n) || seen[static_cast<std::size_t>(idx)] ||
        keys[static_cast<std::size_t>(idx)] != k)
      return false;
    seen[static_cast<std::size_t>(idx)] = true;
  }
  return true;
}

}  // namespace

TEST_CASE("Batcher odd-even merge sort network sorts every 0/1 vector, any n <= 20") {
  for (std::size_t n = 1; n <= 20; ++n) {
    INFO("n=" << n);
    CHECK(sorts_all_01(g::odd_even_merge_pairs(n), n));
  }
}

TEST_CASE("bitonic network sorts every 0/1 vector, n a power of two <= 16") {
  for (std::size_t n : {1, 2, 4, 8, 16}) CHECK(sorts_all_01(g::bitonic_pairs(n), n));
  CHECK_THROWS(g::bitonic_pairs(6));
}

TEST_CASE("network sizes and depths are Batcher's") {
  for (std::size_t lg = 1; lg <= 8; ++lg) {
    std::size_t n = std::size_t{1} << lg;
    auto oe = g::odd_even_merge_pairs(n), bt = g::bitonic_pairs(n);
    CHECK(g::network_depth(oe, n) == lg * (lg + 1) / 2);
    CHECK(g::network_depth(bt, n) == lg * (lg + 1) / 2);
    CHECK(bt.size() == n * lg * (lg + 1) / 4);
    CHECK(oe.size() == (lg * lg - lg + 4) * n / 4 - 1);  // Knuth 5.3.4 (for n = 2^lg)
  }
}

TEST_CASE("a network with one comparator removed is caught (mutant)") {
  auto net = g::odd_even_merge_pairs(8);
  net.erase(net.begin() + static_cast<long>(net.size() / 2));
  CHECK_FALSE(sorts_all_01(net, 8));
}

TEST_CASE("sort circuits with index payload: exhaustive against std::sort") {
  struct Case { std::size_t n, d; };
  for (bool bitonic : {false, true})
    for (Case cs : {Case{1, 3}, Case{2, 3}, Case{3, 3}, Case{4, 2}, Case{5, 2}, Case{6, 2}, Case{8, 1}}) {
      INFO("n=" << cs.n << " d=" << cs.d << " bitonic=" << bitonic);
      Circuit c = sort_circuit(cs.n, cs.d, bitonic);
      CHECK(c.num_inputs() == cs.n * cs.d);
      long long bad = test::first_failure(c, [&](const auto& in, const auto& out) { return sorted_ok(in, out, cs.n, cs.d); });
      CHECK(bad == -1);
    }
}

TEST_CASE("bitonic sort of a non-power-of-two pads with sentinels that fold away") {
  Circuit c6 = sort_circuit(6, 3, true), c8 = sort_circuit(8, 3, true);
  auto s6 = compute_stats(c6, {false, false}), s8 = compute_stats(c8, {false, false});
  CHECK(s6.size < s8.size);  // comparators touching a sentinel cost nothing
}
