#include "circuits/lut3_map.h"

#include <algorithm>

namespace cz::circuits {

std::uint8_t lut3_apply(std::uint8_t table, std::uint8_t a, std::uint8_t b, std::uint8_t c) {
  std::uint8_t r = 0;
  for (int i = 0; i < 8; ++i) {
    const int idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
    r = static_cast<std::uint8_t>(r | (((table >> idx) & 1) << i));
  }
  return r;
}

namespace {
constexpr std::uint8_t kPattern[3] = {0xF0, 0xCC, 0xAA};

int arity(Lut3Node::Op op) { return op == Lut3Node::Leaf ? 0 : op == Lut3Node::Not ? 1 : op == Lut3Node::Mux ? 3 : 2; }

std::uint8_t op_table(const Lut3Node& n, std::uint8_t x, std::uint8_t y, std::uint8_t z) {
  if (n.neg[0]) x = static_cast<std::uint8_t>(~x);
  if (n.neg[1]) y = static_cast<std::uint8_t>(~y);
  switch (n.op) {
    case Lut3Node::Not: return static_cast<std::uint8_t>(~x);
    case Lut3Node::And: return x & y;
    case Lut3Node::Or: return x | y;
    case Lut3Node::Xor: return x ^ y;
    case Lut3Node::Xnor: return static_cast<std::uint8_t>(~(x ^ y));
    case Lut3Node::Mux: return static_cast<std::uint8_t>((x & y) | (~x & z));
    default: return x;
  }
}
}  // namespace

Lut3Map map_lut3(const std::vector<Lut3Node>& nodes, const std::vector<std::uint8_t>& live,
                 const std::vector<std::uint8_t>& pinned) {
  const std::size_t n = nodes.size();
  Lut3Map m;
  m.absorbed.assign(n, 0);
  m.mapped.assign(n, 0);
  m.leaves.assign(n, {0, 0, 0});
  m.table.assign(n, 0);
  std::vector<std::uint32_t> readers(n, 0);
  std::vector<std::uint8_t> nleaves(n, 0);
  for (std::size_t k = 0; k < n; ++k)
    if (live[k])
      for (int j = 0; j < arity(nodes[k].op); ++j) ++readers[nodes[k].arg[j]];
  for (std::size_t k = 0; k < n; ++k) {
    if (!live[k]) continue;
    const Lut3Node& nd = nodes[k];
    const int ar = arity(nd.op);
    if (ar == 0) continue;
    // The cone's leaves: start from the distinct operands, then fold single-reader operands while
    // at most 3 leaves remain (greedy, operands in order).
    std::vector<std::uint32_t> lv;
    for (int j = 0; j < ar; ++j)
      if (std::find(lv.begin(), lv.end(), nd.arg[j]) == lv.end()) lv.push_back(nd.arg[j]);
    std::vector<std::uint32_t> folded;
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t i = 0; i < lv.size() && !grew; ++i) {
        const std::uint32_t a = lv[i];
        if (pinned[a] || readers[a] != 1 || arity(nodes[a].op) == 0 || m.absorbed[a]) continue;
        std::vector<std::uint32_t> cand;
        for (std::uint32_t x : lv)
          if (x != a) cand.push_back(x);
        for (int j = 0; j < nleaves[a]; ++j)
          if (std::find(cand.begin(), cand.end(), m.leaves[a][j]) == cand.end()) cand.push_back(m.leaves[a][j]);
        if (cand.size() > 3) continue;
        lv = std::move(cand);
        folded.push_back(a);
        grew = true;
      }
    }
    // The table over lv: a folded operand's value is its own table over its leaves (all in lv).
    auto pattern = [&](std::uint32_t x) -> std::uint8_t {
      for (std::size_t i = 0; i < lv.size(); ++i)
        if (lv[i] == x) return kPattern[i];
      return 0;
    };
    auto value = [&](std::uint32_t x) -> std::uint8_t {
      if (std::find(folded.begin(), folded.end(), x) == folded.end()) return pattern(x);
      return lut3_apply(m.table[x], pattern(m.leaves[x][0]), nleaves[x] > 1 ? pattern(m.leaves[x][1]) : 0,
                        nleaves[x] > 2 ? pattern(m.leaves[x][2]) : 0);
    };
    m.table[k] = op_table(nd, value(nd.arg[0]), ar > 1 ? value(nd.arg[1]) : 0, ar > 2 ? value(nd.arg[2]) : 0);
    nleaves[k] = static_cast<std::uint8_t>(lv.size());
    for (std::size_t i = 0; i < 3; ++i) m.leaves[k][i] = lv[i < lv.size() ? i : 0];
    for (std::uint32_t a : folded) m.absorbed[a] = 1;
    m.mapped[k] = !folded.empty();
  }
  return m;
}

}  // namespace cz::circuits
