#include "circuits/gadgets_arith.h"

#include <stdexcept>

namespace cz::circuits::gadgets {

Wire reduce(Builder& b, const std::vector<Wire>& xs0, const Combine& op) {
  if (xs0.empty()) throw std::logic_error("reduce: empty list");
  std::vector<Wire> xs = xs0;
  while (xs.size() > 1) {
    std::vector<Wire> next;
    for (std::size_t i = 0; i + 1 < xs.size(); i += 2) next.push_back(op(b, xs[i], xs[i + 1]));
    if (xs.size() % 2) next.push_back(xs.back());
    xs.swap(next);
  }
  return xs[0];
}

Wire sum(Builder& b, const std::vector<Wire>& xs) {
  if (xs.empty()) return b.zero();
  return reduce(b, xs, [](Builder& bb, Wire x, Wire y) { return bb.add(x, y); });
}

Wire product(Builder& b, const std::vector<Wire>& xs) {
  if (xs.empty()) return b.one();
  return reduce(b, xs, [](Builder& bb, Wire x, Wire y) { return bb.mul(x, y); });
}

std::vector<Wire> prefix_scan(Builder& b, std::vector<Wire> xs, const Combine& op) {
  const std::size_t n = xs.size();
  for (std::size_t s = 1; s < n; s <<= 1)
    for (std::size_t i = 0; i < n; ++i)
      if (i & s) xs[i] = op(b, xs[(i & ~(s - 1)) - 1], xs[i]);  // last element of the left block
  return xs;
}

std::vector<Wire> prefix_sums(Builder& b, const std::vector<Wire>& xs) {
  return prefix_scan(b, xs, [](Builder& bb, Wire x, Wire y) { return bb.add(x, y); });
}

std::vector<Wire> prefix_products(Builder& b, const std::vector<Wire>& xs) {
  return prefix_scan(b, xs, [](Builder& bb, Wire x, Wire y) { return bb.mul(x, y); });
}

Wire bits_to_int(Builder& b, const Bits& bits) {
  std::vector<Wire> terms;
  Int pow(1);
  for (Wire w : bits) {
    terms.push_back(b.scale(Rat(pow), w));
    pow *= Int(2);
  }
  return sum(b, terms);
}

std::vector<Wire> int_to_bits(Builder& b, Wire x, std::size_t d) {
  if (d > 16) throw std::logic_error("int_to_bits: d > 16 (the interpolation has 2^d points)");
  const std::size_t m = std::size_t{1} << d;
  // f[u] = x − u; P[v] = Π_{u<v} f[u], S[v] = Π_{u>v} f[u] (prefix/suffix products, shared).
  std::vector<Wire> f(m), P(m), S(m);
  for (std::size_t u = 0; u < m; ++u) f[u] = b.add_const(x, Rat(-static_cast<std::int64_t>(u)));
  P[0] = b.one();
  for (std::size_t v = 1; v < m; ++v) P[v] = b.mul(P[v - 1], f[v - 1]);
  S[m - 1] = b.one();
  for (std::size_t v = m - 1; v-- > 0;) S[v] = b.mul(S[v + 1], f[v + 1]);
  std::vector<std::vector<Wire>> terms(d);
  for (std::size_t v = 0; v < m; ++v) {
    // Π_{u≠v} (v − u) = v! · (−1)^(m−1−v) · (m−1−v)!
    Int den(1);
    for (std::size_t u = 0; u < m; ++u)
      if (u != v) den *= Int(static_cast<std::int64_t>(v) - static_cast<std::int64_t>(u));
    Wire ind = b.scale(Rat(Int(1), den), b.mul(P[v], S[v]));
    for (std::size_t k = 0; k < d; ++k)
      if ((v >> k) & 1) terms[k].push_back(ind);
  }
  std::vector<Wire> bits;
  for (std::size_t k = 0; k < d; ++k) bits.push_back(sum(b, terms[k]));
  return bits;
}

}  // namespace cz::circuits::gadgets
