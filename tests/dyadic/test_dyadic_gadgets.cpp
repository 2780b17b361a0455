// The mqar/dyadic gadgets against plain integer code: Batcher merge / merge-sort networks by the
// 0-1 principle (every 0/1 input), the traced network and its inverse, MUX-tree selection, exact
// word arithmetic and the next-flagged suffix scan, each exhaustively on small widths; and the
// dyadic tree's coverage of the pairs j < i (the proof of Zoology Prop H.30, spec E6).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "circuits/eval.h"
#include "circuits/gadgets_sort.h"
#include "constructions/mqar/dyadic_circuit.h"
#include "constructions/mqar/dyadic_gadgets.h"
#include "util/error.h"

using namespace cz;
using namespace cz::mqarc;
namespace g = cz::circuits::gadgets;

namespace {
// Applies a comparator list to integers (min to the lower position).
std::vector<int> run_net(std::vector<int> v, const dy::Network& net) {
  for (auto [i, j] : net)
    if (v[j] < v[i]) std::swap(v[i], v[j]);
  return v;
}

std::uint64_t word_value(const std::vector<Int>& out, std::size_t off, std::size_t w) {
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < w; ++k) v |= static_cast<std::uint64_t>(out[off + k].to_int64()) << k;
  return v;
}

std::vector<std::int64_t> bits_of(std::uint64_t v, std::size_t w) {
  std::vector<std::int64_t> r;
  for (std::size_t k = 0; k < w; ++k) r.push_back(static_cast<std::int64_t>((v >> k) & 1));
  return r;
}
}  // namespace

TEST_CASE("merge_network merges every pair of sorted 0/1 runs (0-1 principle)") {
  for (std::size_t m = 1; m <= 32; m *= 2) {
    const dy::Network net = dy::merge_network(m);
    for (std::size_t a = 0; a <= m; ++a)
      for (std::size_t c = 0; c <= m; ++c) {  // run 1: a zeros then ones; run 2: c zeros then ones
        std::vector<int> v(2 * m);
        for (std::size_t i = 0; i < m; ++i) {
          v[i] = i >= a;
          v[m + i] = i >= c;
        }
        auto s = run_net(v, net);
        CHECK(std::is_sorted(s.begin(), s.end()));
      }
    if (m > 1) CHECK(g::network_depth(net, 2 * m) == static_cast<std::size_t>(std::log2(2.0 * m)));
  }
  CHECK_THROWS(dy::merge_network(3));
}

TEST_CASE("mergesort_network sorts every 0/1 input and has Batcher's depth") {
  for (std::size_t m = 1; m <= 16; m *= 2) {
    const dy::Network net = dy::mergesort_network(m);
    for (std::uint64_t x = 0; x < (std::uint64_t{1} << m); ++x) {
      std::vector<int> v(m);
      for (std::size_t i = 0; i < m; ++i) v[i] = (x >> i) & 1;
      auto s = run_net(v, net);
      REQUIRE(std::is_sorted(s.begin(), s.end()));
    }
    const std::size_t L = static_cast<std::size_t>(std::log2(static_cast<double>(m)));
    CHECK(g::network_depth(net, m) == L * (L + 1) / 2);
  }
}

TEST_CASE("traced sort records a permutation that unroute inverts") {
  // 4 records of 3-bit keys with 2-bit loads; every key assignment.
  const std::size_t m = 4, w = 3;
  circuits::Builder b;
  std::vector<dy::Rec> recs;
  for (std::size_t i = 0; i < m; ++i) recs.push_back({g::input_bits(b, std::string("k") + std::to_string(i), w), g::const_bits(b, i, 2)});
  const dy::Network net = dy::mergesort_network(m);
  const auto swaps = dy::apply_traced(b, recs, net);
  std::vector<dy::Bits> back;
  for (const auto& r : recs) back.push_back(r.load);  // original positions, in sorted order
  dy::unroute(b, back, net, swaps);
  for (const auto& r : recs)
    for (auto x : r.key) b.output("key", x);
  for (const auto& r : recs)
    for (auto x : r.load) b.output("pos", x);
  for (const auto& x : back)
    for (auto y : x) b.output("back", y);
  const circuits::Circuit c = std::move(b).finish();
  for (std::uint64_t x = 0; x < (std::uint64_t{1} << (m * w)); ++x) {
    std::vector<std::int64_t> in = bits_of(x, m * w);
    auto out = circuits::eval_integer(c, in);
    std::vector<std::uint64_t> keys(m), sorted_keys(m), pos(m);
    for (std::size_t i = 0; i < m; ++i) keys[i] = (x >> (w * i)) & 7;
    for (std::size_t i = 0; i < m; ++i) {
      sorted_keys[i] = word_value(out, i * w, w);
      pos[i] = word_value(out, m * w + 2 * i, 2);
      REQUIRE(word_value(out, m * w + 2 * m + 2 * i, 2) == i);  // unroute brings position i home
      REQUIRE(keys[pos[i]] == sorted_keys[i]);                   // the load names the record's origin
    }
    REQUIRE(std::is_sorted(sorted_keys.begin(), sorted_keys.end()));
  }
}

TEST_CASE("select_word, add_words, mul_words are exact on every small input") {
  circuits::Builder b;
  auto x = g::input_bits(b, "x", 3), y = g::input_bits(b, "y", 3);
  std::vector<dy::Bits> table;
  for (std::size_t t = 0; t < 5; ++t) table.push_back(g::const_bits(b, 3 * t + 1, 4));  // 5 entries: 1,4,7,10,13
  const dy::Bits s = dy::select_word(b, table, x), a = dy::add_words(b, x, y), m = dy::mul_words(b, x, y);
  // A 6-bit index with high bits reaches past the table.
  const dy::Bits wide = dy::select_word(b, table, [&] { dy::Bits v = x; v.insert(v.end(), y.begin(), y.end()); return v; }());
  for (auto w : s) b.output("s", w);
  for (auto w : a) b.output("a", w);
  for (auto w : m) b.output("m", w);
  for (auto w : wide) b.output("wide", w);
  const circuits::Circuit c = std::move(b).finish();
  CHECK(a.size() == 4);
  CHECK(m.size() == 6);
  for (std::uint64_t xv = 0; xv < 8; ++xv)
    for (std::uint64_t yv = 0; yv < 8; ++yv) {
      std::vector<std::int64_t> in = bits_of(xv, 3);
      auto yb = bits_of(yv, 3);
      in.insert(in.end(), yb.begin(), yb.end());
      auto out = circuits::eval_integer(c, in);
      CHECK(word_value(out, 0, 4) == (xv < 5 ? 3 * xv + 1 : 0));
      CHECK(word_value(out, 4, 4) == xv + yv);
      CHECK(word_value(out, 8, 6) == xv * yv);
      const std::uint64_t idx = xv | (yv << 3);
      CHECK(word_value(out, 14, 4) == (idx < 5 ? 3 * idx + 1 : 0));
    }
}

TEST_CASE("next_flagged finds the first flagged record at or after each position") {
  const std::size_t n = 7;
  circuits::Builder b;
  std::vector<circuits::Wire> flag;
  std::vector<dy::Bits> data;
  for (std::size_t i = 0; i < n; ++i) {
    flag.push_back(b.input(std::string("f") + std::to_string(i), circuits::Type::Bit));
    data.push_back(g::const_bits(b, i, 3));
  }
  const auto nx = dy::next_flagged(b, flag, data);
  for (const auto& r : nx) {
    b.output("has", r.has);
    for (auto w : r.data) b.output("d", w);
  }
  const circuits::Circuit c = std::move(b).finish();
  for (std::uint64_t f = 0; f < (1u << n); ++f) {
    auto out = circuits::eval_integer(c, bits_of(f, n));
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t j = i;
      while (j < n && !((f >> j) & 1)) ++j;
      REQUIRE(out[4 * i].to_int64() == (j < n));
      if (j < n) REQUIRE(word_value(out, 4 * i + 1, 3) == j);
    }
  }
}

TEST_CASE("every dyadic gadget output is a certified Bit wire (bit-slicing stays sound)") {
  circuits::Builder b;
  auto x = g::input_bits(b, "x", 4), y = g::input_bits(b, "y", 4);
  for (auto w : dy::mul_words(b, x, y)) CHECK(b.is_bit(w));
  for (auto w : dy::select_word(b, {x, y}, {x[0]})) CHECK(b.is_bit(w));
  auto [lo, hi] = dy::cswap(b, x[0], x, y);
  for (auto w : lo) CHECK(b.is_bit(w));
  for (auto w : hi) CHECK(b.is_bit(w));
}

TEST_CASE("dyadic blocks cover every pair j < i exactly once MSB-first (Prop H.30 proof), not LSB-first (E6)") {
  for (std::size_t n = 1; n <= 64; n *= 2) {
    INFO("n = " << n);
    for (DyPrefix pre : {DyPrefix::Msb, DyPrefix::Lsb}) {
      const auto tree = dyadic_tree(n, pre);
      std::vector<std::vector<int>> seen(n, std::vector<int>(n, 0));  // seen[j][i]: key j examined for query i
      std::size_t blocks = 0;
      for (const auto& nd : tree) {
        if (nd.left < 0) continue;
        ++blocks;
        const auto& I = tree[static_cast<std::size_t>(nd.left)].members;
        const auto& J = tree[static_cast<std::size_t>(nd.right)].members;
        CHECK(I.size() == J.size());
        for (std::size_t j : I)
          for (std::size_t i : J) ++seen[j][i];
      }
      CHECK(blocks == n - 1);  // Σ_k n/2^(k+1)
      std::size_t missed = 0, backwards = 0;
      for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < n; ++i) {
          if (j < i) missed += seen[j][i] != 1;
          else backwards += seen[j][i] != 0;  // a key at or after its query
        }
      if (pre == DyPrefix::Msb) {
        CHECK(missed == 0);
        CHECK(backwards == 0);
      } else if (n >= 4) {
        CHECK(missed > 0);
        CHECK(backwards > 0);
      }
    }
  }
  CHECK_THROWS_AS(dyadic_tree(6, DyPrefix::Msb), cz::InputError);
}
