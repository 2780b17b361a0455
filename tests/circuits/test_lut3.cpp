// circuits/lut3_map.h: folding single-reader nodes into 3-input tables keeps every evaluated node's
// value (checked on random skeletons against direct evaluation, on any CPU), and turns an AIG's
// three-AND XOR into one table.
#include <doctest/doctest.h>

#include <random>

#include "circuits/lut3_map.h"

using namespace cz::circuits;

namespace {
std::uint64_t direct(const Lut3Node& n, const std::vector<std::uint64_t>& v) {
  std::uint64_t x = v[n.arg[0]], y = v[n.arg[1]];
  const std::uint64_t z = v[n.arg[2]];
  if (n.neg[0]) x = ~x;
  if (n.neg[1]) y = ~y;
  switch (n.op) {
    case Lut3Node::Not: return ~x;
    case Lut3Node::And: return x & y;
    case Lut3Node::Or: return x | y;
    case Lut3Node::Xor: return x ^ y;
    case Lut3Node::Xnor: return ~(x ^ y);
    case Lut3Node::Mux: return (x & y) | (~x & z);
    default: return x;
  }
}
std::uint64_t table_word(std::uint8_t t, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::uint64_t r = 0;
  for (int m = 0; m < 8; ++m)
    if ((t >> m) & 1) r |= ((m & 4) ? a : ~a) & ((m & 2) ? b : ~b) & ((m & 1) ? c : ~c);
  return r;
}
}  // namespace

TEST_CASE("lut3_apply reads tables in vpternlogq order") {
  for (int t = 0; t < 256; ++t) CHECK(lut3_apply(static_cast<std::uint8_t>(t), 0xF0, 0xCC, 0xAA) == t);
  CHECK(lut3_apply(0x80, 0xFF, 0x0F, 0x33) == 0x03);  // a AND b AND c
}

TEST_CASE("an AIG's three-AND XOR folds into one table") {
  // 0, 1: inputs a, b; 2 = a & ~b; 3 = ~a & b; 4 = ~(~2 & ~3) written as Or(2, 3) = a XOR b.
  std::vector<Lut3Node> g(5);
  g[2] = {Lut3Node::And, {0, 1, 0}, {false, true}};
  g[3] = {Lut3Node::And, {0, 1, 0}, {true, false}};
  g[4] = {Lut3Node::Or, {2, 3, 0}, {false, false}};
  const Lut3Map m = map_lut3(g, {1, 1, 1, 1, 1}, {0, 0, 0, 0, 1});
  CHECK(m.absorbed[2]);
  CHECK(m.absorbed[3]);
  REQUIRE(m.mapped[4]);
  CHECK(lut3_apply(m.table[4], m.leaves[4][0] == 0 ? 0xF0 : 0xCC, m.leaves[4][1] == 0 ? 0xF0 : 0xCC, 0xAA) == (0xF0 ^ 0xCC));
}

TEST_CASE("folded tables keep every evaluated node's value on random skeletons") {
  std::mt19937_64 rng(20261201);
  std::size_t folded_total = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t inputs = 2 + rng() % 6, gates = 5 + rng() % 120;
    std::vector<Lut3Node> g(inputs);
    for (std::size_t k = 0; k < gates; ++k) {
      const std::uint32_t span = static_cast<std::uint32_t>(g.size());
      auto pick = [&] { return static_cast<std::uint32_t>(rng() % span); };
      Lut3Node n;
      n.op = static_cast<Lut3Node::Op>(1 + rng() % 6);
      n.arg = {pick(), pick(), pick()};
      n.neg = {rng() % 2 == 0, rng() % 2 == 0};
      if (n.op == Lut3Node::Mux || n.op == Lut3Node::Not) n.neg = {false, false};
      g.push_back(n);
    }
    std::vector<std::uint8_t> live(g.size(), 1), pinned(g.size(), 0);
    for (int o = 0; o < 3; ++o) pinned[g.size() - 1 - rng() % 10 % g.size()] = 1;
    const Lut3Map m = map_lut3(g, live, pinned);
    std::vector<std::uint64_t> v(g.size());
    for (std::size_t k = 0; k < g.size(); ++k) v[k] = k < inputs ? rng() : direct(g[k], v);
    for (std::size_t k = inputs; k < g.size(); ++k) {
      if (m.absorbed[k]) {
        ++folded_total;
        CHECK(!pinned[k]);
        continue;
      }
      if (!m.mapped[k]) continue;
      const auto& L = m.leaves[k];
      for (std::uint32_t l : L) CHECK(!m.absorbed[l]);  // leaves are evaluated themselves
      CHECK(table_word(m.table[k], v[L[0]], v[L[1]], v[L[2]]) == v[k]);
    }
  }
  CHECK(folded_total > 100);  // the test exercises folding
}
