#include "circuits/gadgets_bits.h"

#include "circuits/gadgets_arith.h"

#include <stdexcept>

namespace cz::circuits::gadgets {

namespace {
void need_bit(const Builder& b, Wire w, const char* who) {
  if (!b.is_bit(w)) throw std::logic_error(std::string(who) + ": operand is not a Bit wire");
}

// Boolean constant folding (the builder's algebra does not see that 1 + y − 1·y = 1).
int bconst(const Builder& b, Wire w) {
  const Rat* c = b.const_value(w);
  if (!c) return -1;
  return c->is_zero() ? 0 : 1;  // a Bit constant is 0 or 1
}

// Balanced tree of a Boolean operation (depth ceil(log2 n)); `empty` for the empty list.
Wire reduce_tree(Builder& b, const std::vector<Wire>& xs, Wire empty, const Combine& op) {
  return xs.empty() ? empty : reduce(b, xs, op);
}
}  // namespace

Wire not_(Builder& b, Wire a) {
  need_bit(b, a, "not");
  if (int k = bconst(b, a); k >= 0) return k ? b.zero() : b.one();
  return b.certify_bit(b.add_const(b.neg(a), Rat(1)), {BoolOp::Not, a.id});
}

Wire and_(Builder& b, Wire x, Wire y) {
  need_bit(b, x, "and");
  need_bit(b, y, "and");
  if (x == y) return x;
  return b.certify_bit(b.mul(x, y), {BoolOp::And, x.id, y.id});
}

Wire or_(Builder& b, Wire x, Wire y) {
  need_bit(b, x, "or");
  need_bit(b, y, "or");
  if (x == y) return x;
  if (int k = bconst(b, x); k >= 0) return k ? b.one() : y;
  if (int k = bconst(b, y); k >= 0) return k ? b.one() : x;
  return b.certify_bit(b.sub(b.add(x, y), b.mul(x, y)), {BoolOp::Or, x.id, y.id});
}

Wire xor_(Builder& b, Wire x, Wire y) {
  need_bit(b, x, "xor");
  need_bit(b, y, "xor");
  if (x == y) return b.zero();
  if (int k = bconst(b, x); k >= 0) return k ? not_(b, y) : y;
  if (int k = bconst(b, y); k >= 0) return k ? not_(b, x) : x;
  return b.certify_bit(b.add(b.add(x, y), b.scale(Rat(-2), b.mul(x, y))), {BoolOp::Xor, x.id, y.id});
}

Wire xnor_(Builder& b, Wire x, Wire y) {
  need_bit(b, x, "xnor");
  need_bit(b, y, "xnor");
  if (x == y) return b.one();
  if (int k = bconst(b, x); k >= 0) return k ? y : not_(b, y);
  if (int k = bconst(b, y); k >= 0) return k ? x : not_(b, x);
  // 1 − x − y + 2xy (spec §7.5 "EQ bit")
  Wire w = b.add_const(b.add(b.neg(b.add(x, y)), b.scale(Rat(2), b.mul(x, y))), Rat(1));
  return b.certify_bit(w, {BoolOp::Xnor, x.id, y.id});
}

Wire mux(Builder& b, Wire s, Wire a, Wire c) {
  need_bit(b, s, "mux select");
  if (int k = bconst(b, s); k >= 0) return k ? a : c;
  if (a == c) return a;
  if (b.is_bit(a) && b.is_bit(c)) {
    int ka = bconst(b, a), kc = bconst(b, c);
    if (ka == 1 && kc == 0) return s;
    if (ka == 0 && kc == 1) return not_(b, s);
    if (ka == 0) return and_(b, not_(b, s), c);
    if (kc == 0) return and_(b, s, a);
  }
  Wire w = b.add(c, b.mul(s, b.sub(a, c)));
  if (b.is_bit(a) && b.is_bit(c)) return b.certify_bit(w, {BoolOp::Mux, s.id, a.id, c.id});
  return w;
}

Wire and_all(Builder& b, const std::vector<Wire>& xs) { return reduce_tree(b, xs, b.one(), and_); }
Wire or_all(Builder& b, const std::vector<Wire>& xs) { return reduce_tree(b, xs, b.zero(), or_); }
Wire xor_all(Builder& b, const std::vector<Wire>& xs) { return reduce_tree(b, xs, b.zero(), xor_); }

Bits input_bits(Builder& b, const std::string& name, std::size_t d) {
  Bits r;
  for (std::size_t k = 0; k < d; ++k) r.push_back(b.input(name + "[" + std::to_string(k) + "]", Type::Bit));
  return r;
}

Bits const_bits(Builder& b, std::uint64_t value, std::size_t d) {
  Bits r;
  for (std::size_t k = 0; k < d; ++k) r.push_back(k < 64 && ((value >> k) & 1) ? b.one() : b.zero());
  return r;
}

Bits mux_bits(Builder& b, Wire s, const Bits& a, const Bits& c) {
  if (a.size() != c.size()) throw std::logic_error("mux_bits: words of different widths");
  Bits r;
  for (std::size_t k = 0; k < a.size(); ++k) r.push_back(mux(b, s, a[k], c[k]));
  return r;
}

}  // namespace cz::circuits::gadgets
