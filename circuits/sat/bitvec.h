// Exact integers as two's-complement words of Bit wires (issue 27: integer models under
// --method sat). Every Word carries a certified interval [lo, hi] of the values it takes on the
// domain's inputs, computed exactly (Int) by interval arithmetic from the inputs' stated box and
// the constants; its width is the smallest two's-complement width that holds [lo, hi]. Each
// operation works modulo 2^w with w the width of its RESULT's interval: + - × are ring maps
// Z -> Z/2^w, so the w-bit answer is the exact integer whenever the exact result lies in the
// interval, which interval arithmetic guarantees. No overflow is therefore possible on the domain.
//   adders: ripple carry; products: shift-and-add of partial products (a constant factor folds
//   to shifts and adds of its 1-bits, zero partial products vanish by the builder's folding);
//   relu: a mux on the sign bit (exact, the word holds the exact value).
// The interval of an input word is the domain's box: outside the box (bit patterns the domain
// constraint excludes) words may wrap, which the miter never asks about.
// BitRing wraps this as a Ring (exact/rings.h), so the generic semantics in src/tasks and the
// convolution definitions in src/tensor run unchanged on symbolic words.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "circuits/gadgets_bits.h"
#include "exact/integer.h"
#include "exact/rational.h"

namespace cz::circuits::sat {

struct Word {
  gadgets::Bits bits;  // LSB first, two's complement; size == width_for(lo, hi) (empty: the value 0)
  Int lo, hi;          // certified: lo <= value <= hi on every input of the domain
  // A sum built by WordBuilder::sum: its addends in canonical order (empty: not such a sum).
  std::vector<Word> terms;
  bool is_const() const { return lo == hi; }
};

// Smallest w >= 1 with -2^(w-1) <= lo and hi < 2^(w-1).
std::size_t width_for(const Int& lo, const Int& hi);

// Thrown when a certified interval needs more bits than the cap (the caller refuses with why).
struct TooWide : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class WordBuilder {
 public:
  explicit WordBuilder(Builder& b, std::size_t max_width = 1024) : b_(b), max_width_(max_width) {}
  Builder& builder() { return b_; }

  Word constant(const Int& v);
  // A word read from bits (two's complement of bits.size() bits) whose domain keeps it in [lo, hi].
  Word from_bits(gadgets::Bits bits, const Int& lo, const Int& hi);
  // A 0/1 value (one Bit wire).
  Word from_bit(Wire bit);

  Word add(const Word& a, const Word& b);
  // a + b with the addends of both sides flattened, sorted canonically (newest wires first) and
  // added in that order, so two sums of the same terms in different orders (a convolution's
  // taps, a running sum) are the same gates after hash-consing: the solver then need not prove
  // that reassociated adder chains agree (cumsum's rows past 9 stalled CaDiCaL otherwise).
  Word sum(const Word& a, const Word& b);
  Word sub(const Word& a, const Word& b);
  Word neg(const Word& a);
  Word mul(const Word& a, const Word& b);
  Word relu(const Word& a);
  // a where its value is PROVED (elsewhere, on the same domain) to lie in [lo, hi]: the interval
  // becomes [max(a.lo, lo), min(a.hi, hi)] and the bits its width (the low bits of the two's
  // complement word hold any value of that interval exactly). Unsound without that proof: the
  // caller states it (app/engine/sat/sat_layer_bounds.h proves per-layer bounds by SAT first).
  Word narrow(const Word& a, const Int& lo, const Int& hi);
  // [a == b] as integers.
  Wire equal(const Word& a, const Word& b);
  // [lo <= v <= hi] for v = the raw two's-complement value of bits (no interval trusted: this is
  // how a domain states its box).
  Wire raw_in_range(const gadgets::Bits& bits, const Int& lo, const Int& hi);

  std::size_t widest() const { return widest_; }

 private:
  Word make(gadgets::Bits bits, Int lo, Int hi);
  std::size_t width(const Int& lo, const Int& hi);
  Wire bit_at(const Word& a, std::size_t k) const;  // sign-extended
  gadgets::Bits ext(const Word& a, std::size_t w) const;
  gadgets::Bits add_bits(const gadgets::Bits& x, const gadgets::Bits& y, Wire carry);
  Word mul_const(const Word& a, const Int& c);
  Builder& b_;
  std::size_t max_width_;
  std::size_t widest_ = 0;
};

// The Ring of symbolic words (exact/rings.h concept): every operation builds gates. is_zero and
// equal answer only what is certain without a solver (a word certified to be 0; the same wires),
// which is all the generic code uses them for (skipping zero terms). Unordered: ReLU goes through
// WordBuilder::relu.
struct BitRing {
  using Elem = Word;
  static constexpr bool ordered = false;
  WordBuilder* wb = nullptr;
  Word zero() const { return wb->constant(Int(0)); }
  Word one() const { return wb->constant(Int(1)); }
  Word from_int(std::int64_t v) const { return wb->constant(Int(v)); }
  Word from_Int(const Int& z) const { return wb->constant(z); }
  Word from_rat(const Rat& q) const {
    if (!q.is_integer()) throw std::domain_error("non-integer " + q.str() + " in the bit-blasted ring Z");
    return wb->constant(q.num());
  }
  Word add(const Word& a, const Word& b) const { return wb->sum(a, b); }
  Word sub(const Word& a, const Word& b) const { return wb->sub(a, b); }
  Word mul(const Word& a, const Word& b) const { return wb->mul(a, b); }
  Word neg(const Word& a) const { return wb->neg(a); }
  void addmul(Word& acc, const Word& a, const Word& b) const { acc = wb->sum(acc, wb->mul(a, b)); }
  bool is_zero(const Word& a) const { return a.lo.is_zero() && a.hi.is_zero(); }
  bool equal(const Word& a, const Word& b) const {
    return (a.is_const() && b.is_const() && a.lo == b.lo) || (a.bits == b.bits && a.lo == b.lo && a.hi == b.hi);
  }
  Rat to_rat(const Word& a) const {
    if (!a.is_const()) throw std::domain_error("a symbolic word has no rational value");
    return Rat(a.lo);
  }
  std::string name() const { return "bits"; }
};

}  // namespace cz::circuits::sat
