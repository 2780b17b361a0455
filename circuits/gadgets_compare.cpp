#include "circuits/gadgets_compare.h"

#include <stdexcept>

namespace cz::circuits::gadgets {

namespace {
void same_width(const Bits& x, const Bits& y, const char* who) {
  if (x.size() != y.size()) throw std::logic_error(std::string(who) + ": words of different widths");
}

// p = s·(x − y) shared by both outputs: lo = y + p = s ? x : y, hi = x − p = s ? y : x.
std::pair<Wire, Wire> swap_pair(Builder& b, Wire s, Wire x, Wire y) {
  if (const Rat* c = b.const_value(s)) return c->is_zero() ? std::make_pair(y, x) : std::make_pair(x, y);
  if (x == y) return {x, y};
  if (b.is_bit(x) && b.is_bit(y) && (b.const_value(x) || b.const_value(y)))
    return {mux(b, s, x, y), mux(b, s, y, x)};  // constant data: let mux fold to AND/OR forms
  Wire p = b.mul(s, b.sub(x, y));
  Wire lo = b.add(y, p), hi = b.sub(x, p);
  if (b.is_bit(x) && b.is_bit(y)) {
    lo = b.certify_bit(lo, {BoolOp::Mux, s.id, x.id, y.id});
    hi = b.certify_bit(hi, {BoolOp::Mux, s.id, y.id, x.id});
  }
  return {lo, hi};
}
}  // namespace

Wire equal(Builder& b, const Bits& x, const Bits& y) {
  same_width(x, y, "equal");
  std::vector<Wire> e;
  for (std::size_t k = 0; k < x.size(); ++k) e.push_back(xnor_(b, x[k], y[k]));
  return and_all(b, e);
}

Wire less_than(Builder& b, const Bits& x, const Bits& y) {
  same_width(x, y, "less_than");
  if (x.empty()) return b.zero();
  // Leaves in MSB-first order, then a balanced tree of the associative combine.
  std::vector<std::pair<Wire, Wire>> v;
  for (std::size_t k = x.size(); k-- > 0;)
    v.emplace_back(xnor_(b, x[k], y[k]), and_(b, not_(b, x[k]), y[k]));
  while (v.size() > 1) {
    std::vector<std::pair<Wire, Wire>> next;
    for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
      auto [e1, l1] = v[i];
      auto [e2, l2] = v[i + 1];
      next.emplace_back(and_(b, e1, e2), or_(b, l1, and_(b, e1, l2)));
    }
    if (v.size() % 2) next.push_back(v.back());
    v.swap(next);
  }
  return v[0].second;
}

Wire less_equal(Builder& b, const Bits& x, const Bits& y) { return not_(b, less_than(b, y, x)); }

std::pair<Bits, Bits> min_max(Builder& b, const Bits& x, const Bits& y) {
  Wire s = less_than(b, x, y);
  Bits lo, hi;
  for (std::size_t k = 0; k < x.size(); ++k) {
    auto [l, h] = swap_pair(b, s, x[k], y[k]);
    lo.push_back(l);
    hi.push_back(h);
  }
  return {lo, hi};
}

std::pair<Item, Item> compare_exchange(Builder& b, const Item& x, const Item& y) {
  if (x.payload.size() != y.payload.size()) throw std::logic_error("compare_exchange: payloads of different sizes");
  Wire s = less_than(b, x.key, y.key);
  Item lo, hi;
  for (std::size_t k = 0; k < x.key.size(); ++k) {
    auto [l, h] = swap_pair(b, s, x.key[k], y.key[k]);
    lo.key.push_back(l);
    hi.key.push_back(h);
  }
  for (std::size_t k = 0; k < x.payload.size(); ++k) {
    auto [l, h] = swap_pair(b, s, x.payload[k], y.payload[k]);
    lo.payload.push_back(l);
    hi.payload.push_back(h);
  }
  return {lo, hi};
}

}  // namespace cz::circuits::gadgets
