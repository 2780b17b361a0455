#include "constructions/mqar/dyadic_gadgets.h"

#include <stdexcept>

#include "circuits/gadgets_arith.h"

namespace cz::mqarc::dy {

namespace g = circuits::gadgets;

std::size_t bits_for(std::uint64_t v) {
  std::size_t w = 1;
  while (w < 64 && (v >> w) != 0) ++w;
  return w;
}

std::pair<Bits, Bits> cswap(Builder& b, Wire s, const Bits& x, const Bits& y) {
  if (x.size() != y.size()) throw std::logic_error("cswap: words of different widths");
  Bits lo, hi;
  for (std::size_t k = 0; k < x.size(); ++k) {
    Wire a = x[k], c = y[k];
    if (a == c || b.const_value(s) || b.const_value(a) || b.const_value(c)) {
      lo.push_back(g::mux(b, s, c, a));  // the MUX gadget folds constants into AND/OR forms
      hi.push_back(g::mux(b, s, a, c));
      continue;
    }
    Wire p = b.mul(s, b.sub(c, a));  // shared by both outputs
    lo.push_back(b.certify_bit(b.add(a, p), {circuits::BoolOp::Mux, s.id, c.id, a.id}));
    hi.push_back(b.certify_bit(b.sub(c, p), {circuits::BoolOp::Mux, s.id, a.id, c.id}));
  }
  return {lo, hi};
}

namespace {
Bits concat(const Bits& a, const Bits& c) {
  Bits r = a;
  r.insert(r.end(), c.begin(), c.end());
  return r;
}
}  // namespace

std::vector<Wire> apply_traced(Builder& b, std::vector<Rec>& recs, const Network& net, long flip, std::vector<Step>* steps) {
  std::vector<Wire> swaps;
  swaps.reserve(net.size());
  for (std::size_t c = 0; c < net.size(); ++c) {
    auto [i, j] = net[c];
    Rec& x = recs[i];
    Rec& y = recs[j];
    // Swap when the later key is strictly smaller; the mutant swaps when it is strictly larger.
    Wire s = static_cast<long>(c) == flip ? g::less_than(b, x.key, y.key) : g::less_than(b, y.key, x.key);
    const std::size_t kw = x.key.size();
    auto [lo, hi] = cswap(b, s, concat(x.key, x.load), concat(y.key, y.load));
    x.key.assign(lo.begin(), lo.begin() + static_cast<long>(kw));
    x.load.assign(lo.begin() + static_cast<long>(kw), lo.end());
    y.key.assign(hi.begin(), hi.begin() + static_cast<long>(kw));
    y.load.assign(hi.begin() + static_cast<long>(kw), hi.end());
    swaps.push_back(s);
    if (steps) steps->push_back({i, j, s, lo, hi});
  }
  return swaps;
}

void unroute(Builder& b, std::vector<Bits>& words, const Network& net, const std::vector<Wire>& swaps,
             std::vector<Step>* steps) {
  for (std::size_t c = net.size(); c-- > 0;) {
    auto [i, j] = net[c];
    auto [lo, hi] = cswap(b, swaps[c], words[i], words[j]);  // a conditional swap is its own inverse
    if (steps) steps->push_back({i, j, swaps[c], lo, hi});
    words[i] = std::move(lo);
    words[j] = std::move(hi);
  }
}

namespace {
// Batcher's merge of the stride-r subsequence of [lo, hi] (inclusive), both halves sorted.
void odd_even_merge(std::size_t lo, std::size_t hi, std::size_t r, Network& net) {
  const std::size_t step = 2 * r;
  if (step < hi - lo) {
    odd_even_merge(lo, hi, step, net);
    odd_even_merge(lo + r, hi, step, net);
    for (std::size_t i = lo + r; i + r < hi; i += step) net.emplace_back(i, i + r);
  } else {
    net.emplace_back(lo, lo + r);
  }
}
}  // namespace

Network merge_network(std::size_t m) {
  if (m == 0 || (m & (m - 1))) throw std::logic_error("merge_network: m is not a power of two");
  Network net;
  odd_even_merge(0, 2 * m - 1, 1, net);
  return net;
}

Network mergesort_network(std::size_t m) {
  if (m <= 1) return {};
  Network half = mergesort_network(m / 2), net = half;
  for (auto [i, j] : half) net.emplace_back(i + m / 2, j + m / 2);
  for (auto [i, j] : merge_network(m / 2)) net.emplace_back(i, j);
  return net;
}

Bits pad(Builder& b, Bits x, std::size_t w) {
  while (x.size() < w) x.push_back(b.zero());
  return x;
}

Bits and_word(Builder& b, Wire s, const Bits& x) {
  Bits r;
  for (Wire w : x) r.push_back(g::and_(b, s, w));
  return r;
}

Bits or_words(Builder& b, const Bits& x, const Bits& y) {
  const std::size_t w = std::max(x.size(), y.size());
  Bits a = pad(b, x, w), c = pad(b, y, w), r;
  for (std::size_t k = 0; k < w; ++k) r.push_back(g::or_(b, a[k], c[k]));
  return r;
}

Bits onehot_to_binary(Builder& b, const std::vector<Wire>& v, std::size_t w) {
  Bits r;
  for (std::size_t k = 0; k < w; ++k) {
    std::vector<Wire> xs;
    for (std::size_t j = 0; j < v.size(); ++j)
      if (k < 64 && ((j >> k) & 1)) xs.push_back(v[j]);
    r.push_back(g::or_all(b, xs));
  }
  return r;
}

Bits add_words(Builder& b, const Bits& x, const Bits& y) {
  const std::size_t w = std::max(x.size(), y.size());
  Bits a = pad(b, x, w), c = pad(b, y, w), r;
  Wire carry = b.zero();
  for (std::size_t k = 0; k < w; ++k) {  // ripple-carry full adders
    Wire t = g::xor_(b, a[k], c[k]);
    r.push_back(g::xor_(b, t, carry));
    carry = g::or_(b, g::and_(b, a[k], c[k]), g::and_(b, carry, t));
  }
  r.push_back(carry);
  return r;
}

Bits mul_words(Builder& b, const Bits& x, const Bits& y) {
  Bits acc;
  for (std::size_t i = 0; i < x.size(); ++i) {  // shift and add
    Bits part(i, b.zero());
    Bits row = and_word(b, x[i], y);
    part.insert(part.end(), row.begin(), row.end());
    acc = add_words(b, acc, part);
  }
  // x·y < 2^(|x|+|y|): the bits above are zero for every input, so they are dropped.
  acc.resize(x.size() + y.size(), b.zero());
  return acc;
}

Bits select_word(Builder& b, const std::vector<Bits>& table, const Bits& x) {
  if (table.empty()) throw std::logic_error("select_word: empty table");
  const std::size_t w = table[0].size();
  const std::size_t L = table.size() > 1 ? bits_for(table.size() - 1) : 0;
  Bits idx = pad(b, x, L);
  auto rec = [&](auto&& self, std::size_t lo, std::size_t level) -> Bits {
    if (lo >= table.size()) return Bits(w, b.zero());
    if (level == 0) return table[lo];
    const std::size_t half = std::size_t{1} << (level - 1);
    return g::mux_bits(b, idx[level - 1], self(self, lo + half, level - 1), self(self, lo, level - 1));
  };
  Bits r = rec(rec, 0, L);
  std::vector<Wire> high(idx.begin() + static_cast<long>(L), idx.end());
  Wire out = g::or_all(b, high);  // an index bit above the table's range: no entry
  return and_word(b, g::not_(b, out), r);
}

std::vector<Flagged> next_flagged(Builder& b, const std::vector<Wire>& flag, const std::vector<Bits>& data) {
  const std::size_t n = flag.size();
  // Scan from the end: x[t] describes position n-1-t; op(farther, nearer) = nearer.has ? nearer : farther.
  std::vector<Flagged> x(n);
  for (std::size_t t = 0; t < n; ++t) x[t] = {flag[n - 1 - t], data[n - 1 - t]};
  for (std::size_t dist = 1; dist < n; dist <<= 1)
    for (std::size_t i = 0; i < n; ++i)
      if (i & dist) {
        const Flagged& far = x[(i & ~(dist - 1)) - 1];  // the full prefix of the lower half (Sklansky)
        Flagged& near = x[i];
        near = {g::or_(b, near.has, far.has), g::mux_bits(b, near.has, near.data, far.data)};
      }
  std::vector<Flagged> out(n);
  for (std::size_t t = 0; t < n; ++t) out[n - 1 - t] = x[t];
  return out;
}

}  // namespace cz::mqarc::dy
