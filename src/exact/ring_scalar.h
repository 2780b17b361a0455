// A ring element that behaves as a plain scalar (+, −, ·, unary −, ==, !=, *=), so that code written
// once over its scalar type S — the zoo compilers (model/zoo_compile.h) and the operators'
// helpers (h3_kernel, rotation_powers) — runs unchanged with S = Rat (the shipped models) and with
// S = RingScalar<R> (weights that are symbols, R = RingPolyQ; the bound twin R = RingBound for the
// estimate; issue 37, weights as symbols). No second copy of a layout: the proof runs the same code.
// A constant stays a Rat until it meets a symbol (compiler code writes Rat(1), Rat(0) freely), so
// the ring is needed only by values that hold one; it must outlive them.
//   lift(r, s): a weight of scalar type S as an element of ring R (Rat: r.from_rat; RingScalar<R>:
//   its element), used by the operators' own evaluators (hyena_eval, h3_eval, retnet_eval,
//   rwkv_eval), which therefore run on symbolic weights as well.
#pragma once
#include <type_traits>
#include <utility>

#include "exact/rings.h"

namespace cz {

template <Ring R>
class RingScalar {
 public:
  using Elem = typename R::Elem;
  RingScalar() = default;                       // the constant 0
  RingScalar(const Rat& c) : c_(c) {}           // NOLINT: implicit, as compiler code assigns Rat(1)
  RingScalar(const R& r, Elem e) : r_(&r), e_(std::move(e)), sym_(true) {}

  bool is_constant() const { return !sym_; }
  const Rat& constant() const { return c_; }
  Elem elem(const R& r) const { return sym_ ? e_ : r.from_rat(c_); }
  bool is_zero() const { return sym_ ? r_->is_zero(e_) : c_.is_zero(); }

  friend RingScalar operator+(const RingScalar& a, const RingScalar& b) {
    if (!a.sym_ && !b.sym_) return RingScalar(a.c_ + b.c_);
    const R& r = a.ring(b);
    return RingScalar(r, r.add(a.elem(r), b.elem(r)));
  }
  friend RingScalar operator-(const RingScalar& a, const RingScalar& b) {
    if (!a.sym_ && !b.sym_) return RingScalar(a.c_ - b.c_);
    const R& r = a.ring(b);
    return RingScalar(r, r.sub(a.elem(r), b.elem(r)));
  }
  friend RingScalar operator*(const RingScalar& a, const RingScalar& b) {
    if (!a.sym_ && !b.sym_) return RingScalar(a.c_ * b.c_);
    const R& r = a.ring(b);
    return RingScalar(r, r.mul(a.elem(r), b.elem(r)));
  }
  RingScalar operator-() const { return sym_ ? RingScalar(*r_, r_->neg(e_)) : RingScalar(-c_); }
  RingScalar& operator*=(const RingScalar& b) { return *this = *this * b; }
  RingScalar& operator+=(const RingScalar& b) { return *this = *this + b; }
  friend bool operator==(const RingScalar& a, const RingScalar& b) {
    if (!a.sym_ && !b.sym_) return a.c_ == b.c_;
    const R& r = a.ring(b);
    return r.equal(a.elem(r), b.elem(r));
  }
  friend bool operator!=(const RingScalar& a, const RingScalar& b) { return !(a == b); }

 private:
  const R& ring(const RingScalar& b) const { return sym_ ? *r_ : *b.r_; }
  const R* r_ = nullptr;
  Elem e_{};
  Rat c_{};
  bool sym_ = false;
};

template <class S>
inline constexpr bool is_rat_scalar = std::is_same_v<S, Rat>;

// A weight of scalar type S as an element of the ring R (see the top of this file).
template <Ring R, class S>
typename R::Elem lift(const R& r, const S& s) {
  if constexpr (is_rat_scalar<S>) {
    return r.from_rat(s);
  } else {
    static_assert(std::is_same_v<S, RingScalar<R>>, "symbolic weights run in their own ring");
    return s.elem(r);
  }
}

// Whether a weight is the constant 0 (a symbol never is).
template <class S>
bool scalar_is_zero(const S& s) {
  return s.is_zero();
}

}  // namespace cz
