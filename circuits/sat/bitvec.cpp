#include "circuits/sat/bitvec.h"

#include <algorithm>

namespace cz::circuits::sat {

namespace g = gadgets;

std::size_t width_for(const Int& lo, const Int& hi) {
  std::size_t w = 1;
  if (hi.sign() > 0) w = std::max(w, hi.bits() + 1);
  if (lo.sign() < 0) w = std::max(w, (-lo - Int(1)).bits() + 1);
  return w;
}

namespace {
Int pow2(std::size_t k) {
  Int r(1);
  for (std::size_t i = 0; i < k; ++i) r *= Int(2);
  return r;
}
Int min4(const Int& a, const Int& b, const Int& c, const Int& d) { return std::min({a, b, c, d}); }
Int max4(const Int& a, const Int& b, const Int& c, const Int& d) { return std::max({a, b, c, d}); }
}  // namespace

std::size_t WordBuilder::width(const Int& lo, const Int& hi) {
  const std::size_t w = width_for(lo, hi);
  if (w > max_width_)
    throw TooWide("a certified interval [" + (lo.bits() > 40 ? std::string("-2^") + std::to_string(lo.bits()) : lo.str()) + ", " +
                  (hi.bits() > 40 ? std::string("2^") + std::to_string(hi.bits()) : hi.str()) + "] needs " + std::to_string(w) +
                  " bits (the bit-blast stops at " + std::to_string(max_width_) + ")");
  widest_ = std::max(widest_, w);
  return w;
}

Word WordBuilder::constant(const Int& v) {
  const std::size_t w = width(v, v);
  Int x = v.sign() < 0 ? pow2(w) + v : v;  // two's complement representative in [0, 2^w)
  g::Bits bits;
  for (std::size_t k = 0; k < w; ++k) {
    const std::uint64_t bit = x.mod_u64(2);
    bits.push_back(bit ? b_.one() : b_.zero());
    x = Int::divexact(x - Int(static_cast<std::int64_t>(bit)), Int(2));
  }
  return Word{std::move(bits), v, v};
}

Word WordBuilder::make(g::Bits bits, Int lo, Int hi) {
  if (lo == hi) return constant(lo);
  const std::size_t w = width(lo, hi);
  if (bits.empty()) throw std::logic_error("bit-blast: a non-constant word without bits");
  while (bits.size() < w) bits.push_back(bits.back());  // sign extension
  bits.resize(w);  // the value fits: the bits dropped are copies of the sign bit
  return Word{std::move(bits), std::move(lo), std::move(hi)};
}

Word WordBuilder::from_bits(g::Bits bits, const Int& lo, const Int& hi) {
  if (bits.size() < width_for(lo, hi)) throw std::logic_error("from_bits: fewer bits than the interval needs");
  return make(std::move(bits), lo, hi);
}

Word WordBuilder::from_bit(Wire bit) {
  if (const Rat* c = b_.const_value(bit)) return constant(c->num());
  return Word{{bit, b_.zero()}, Int(0), Int(1)};
}

Wire WordBuilder::bit_at(const Word& a, std::size_t k) const {
  if (a.bits.empty()) return b_.zero();
  return k < a.bits.size() ? a.bits[k] : a.bits.back();
}

g::Bits WordBuilder::ext(const Word& a, std::size_t w) const {
  g::Bits r(w);
  for (std::size_t k = 0; k < w; ++k) r[k] = bit_at(a, k);
  return r;
}

// x + y + carry modulo 2^w (ripple carry; w = x.size() = y.size()).
g::Bits WordBuilder::add_bits(const g::Bits& x, const g::Bits& y, Wire c) {
  g::Bits s(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    const Wire p = g::xor_(b_, x[k], y[k]);
    s[k] = g::xor_(b_, p, c);
    if (k + 1 < x.size()) c = g::or_(b_, g::and_(b_, x[k], y[k]), g::and_(b_, c, p));
  }
  return s;
}

Word WordBuilder::add(const Word& a, const Word& b) {
  Int lo = a.lo + b.lo, hi = a.hi + b.hi;
  if (lo == hi) return constant(lo);
  if (a.is_const() && a.lo.is_zero()) return b;
  if (b.is_const() && b.lo.is_zero()) return a;
  const std::size_t w = width(lo, hi);
  return make(add_bits(ext(a, w), ext(b, w), b_.zero()), std::move(lo), std::move(hi));
}

Word WordBuilder::sum(const Word& a, const Word& b) {
  std::vector<Word> t;
  Int c(0);  // the constant addends, added last as one term
  auto put = [&](const Word& w) {
    for (const Word& x : w.terms.empty() ? std::vector<Word>{w} : w.terms) {
      if (x.is_const()) c += x.lo;
      else t.push_back(Word{x.bits, x.lo, x.hi, {}});
    }
  };
  put(a), put(b);
  std::stable_sort(t.begin(), t.end(), [](const Word& x, const Word& y) {
    for (std::size_t k = 0; k < std::min(x.bits.size(), y.bits.size()); ++k)
      if (x.bits[k].id != y.bits[k].id) return x.bits[k].id > y.bits[k].id;
    return x.bits.size() > y.bits.size();
  });
  if (!c.is_zero()) t.push_back(constant(c));
  if (t.empty()) return constant(Int(0));
  Word acc = t[0];
  for (std::size_t k = 1; k < t.size(); ++k) acc = add(acc, t[k]);
  if (t.size() > 1 && !acc.is_const()) acc.terms = std::move(t);
  return acc;
}

Word WordBuilder::sub(const Word& a, const Word& b) {
  Int lo = a.lo - b.hi, hi = a.hi - b.lo;
  if (lo == hi) return constant(lo);
  if (b.is_const() && b.lo.is_zero()) return a;
  const std::size_t w = width(lo, hi);
  g::Bits nb = ext(b, w);
  for (auto& x : nb) x = g::not_(b_, x);
  return make(add_bits(ext(a, w), nb, b_.one()), std::move(lo), std::move(hi));  // a + ~b + 1
}

Word WordBuilder::neg(const Word& a) { return sub(constant(Int(0)), a); }

// a·c for a constant c: the sum of a·2^k over the 1-bits k of |c| (then negated for c < 0), each
// partial sum modulo 2^w of the product's width (a ring map: the final w bits are exact).
Word WordBuilder::mul_const(const Word& a, const Int& c) {
  if (c.is_zero()) return constant(Int(0));
  if (c.sign() < 0) return neg(mul_const(a, -c));
  if (c == Int(1)) return a;
  Int lo = std::min(a.lo * c, a.hi * c), hi = std::max(a.lo * c, a.hi * c);
  const std::size_t w = width(lo, hi);
  const g::Bits x = ext(a, w);
  g::Bits acc(w, b_.zero());
  Int rest = c;
  bool first = true;
  for (std::size_t k = 0; k < w && !rest.is_zero(); ++k) {
    const std::uint64_t bit = rest.mod_u64(2);
    rest = Int::divexact(rest - Int(static_cast<std::int64_t>(bit)), Int(2));
    if (!bit) continue;
    g::Bits sh(w, b_.zero());
    for (std::size_t t = k; t < w; ++t) sh[t] = x[t - k];
    acc = first ? sh : add_bits(acc, sh, b_.zero());
    first = false;
  }
  return make(std::move(acc), std::move(lo), std::move(hi));
}

Word WordBuilder::mul(const Word& a, const Word& b) {
  if (a.is_const()) return mul_const(b, a.lo);
  if (b.is_const()) return mul_const(a, b.lo);
  Int lo = min4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi);
  Int hi = max4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi);
  const std::size_t w = width(lo, hi);
  // Signed product modulo 2^w = the product of the sign-extended words modulo 2^w. The factor with
  // fewer bits drives the partial products (its sign-extension bits are often constants).
  const bool swap = b.bits.size() > a.bits.size();
  const g::Bits x = ext(swap ? b : a, w), y = ext(swap ? a : b, w);
  g::Bits acc(w, b_.zero());
  for (std::size_t k = 0; k < w; ++k) {
    if (const Rat* c = b_.const_value(y[k]); c && c->is_zero()) continue;
    g::Bits pp(w, b_.zero());
    for (std::size_t t = k; t < w; ++t) pp[t] = g::and_(b_, x[t - k], y[k]);
    acc = add_bits(acc, pp, b_.zero());
  }
  return make(std::move(acc), std::move(lo), std::move(hi));
}

Word WordBuilder::relu(const Word& a) {
  if (a.lo.sign() >= 0) return a;
  if (a.hi.sign() <= 0) return constant(Int(0));
  const Wire keep = g::not_(b_, a.bits.back());  // the sign bit: the word holds the exact value
  g::Bits r;
  for (const Wire x : a.bits) r.push_back(g::and_(b_, x, keep));
  return make(std::move(r), Int(0), a.hi);
}

Wire WordBuilder::equal(const Word& a, const Word& b) {
  if (a.hi < b.lo || b.hi < a.lo) return b_.zero();
  if (a.is_const() && b.is_const()) return b_.one();  // intervals meet: the same constant
  const std::size_t w = std::max(a.bits.size(), b.bits.size());
  std::vector<Wire> e;
  for (std::size_t k = 0; k < w; ++k) e.push_back(g::xnor_(b_, bit_at(a, k), bit_at(b, k)));
  return g::and_all(b_, e);
}

namespace {
// [x < c] for the unsigned word x (LSB first) and 0 <= c (from the top bit down: x < c at the
// first bit where they differ and c has the 1).
Wire below(Builder& b, const g::Bits& x, const Int& c) {
  if (c.sign() <= 0) return b.zero();
  if (c.bits() > x.size()) return b.one();
  std::vector<int> cb(x.size());
  Int r = c;
  for (std::size_t k = 0; k < x.size(); ++k) {
    cb[k] = static_cast<int>(r.mod_u64(2));
    r = Int::divexact(r - Int(cb[k]), Int(2));
  }
  Wire lt = b.zero(), eq = b.one();
  for (std::size_t k = x.size(); k-- > 0;) {
    if (cb[k]) {
      lt = g::or_(b, lt, g::and_(b, eq, g::not_(b, x[k])));
      eq = g::and_(b, eq, x[k]);
    } else {
      eq = g::and_(b, eq, g::not_(b, x[k]));
    }
  }
  return lt;
}
}  // namespace

Word WordBuilder::narrow(const Word& a, const Int& lo, const Int& hi) {
  if (a.is_const()) return a;
  const Int nlo = a.lo < lo ? lo : a.lo, nhi = a.hi > hi ? hi : a.hi;
  if (nlo > nhi) throw std::logic_error("narrow: the proved range misses the word's interval");
  if (nlo == a.lo && nhi == a.hi) return a;
  return make(a.bits, nlo, nhi);
}

Wire WordBuilder::raw_in_range(const g::Bits& bits, const Int& lo, const Int& hi) {
  // v + 2^(w-1) is the unsigned word with the sign bit flipped: lo <= v <= hi iff
  // lo + 2^(w-1) <= u < hi + 1 + 2^(w-1).
  const std::size_t w = bits.size();
  g::Bits u = bits;
  u.back() = g::not_(b_, u.back());
  const Int off = pow2(w - 1);
  return g::and_(b_, g::not_(b_, below(b_, u, lo + off)), below(b_, u, hi + Int(1) + off));
}

}  // namespace cz::circuits::sat
