// The rings every evaluator is written over, once, generically (FLINT-style contexts: the ring
// object carries what its elements need, e.g. the prime of Fp).
//   RingZ   : integers (Int, FLINT fmpz)
//   RingQ   : rationals (Rat, FLINT-backed)
//   RingFp  : integers mod a prime p < 2^62 (uint64_t representatives in [0, p))
//   RingI64 : int64 with every operation overflow-checked; throws Overflow so the caller can
//             redo the whole computation in RingZ (the "checked fast path").
#pragma once
#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "exact/integer.h"
#include "exact/rational.h"

namespace cz {

struct Overflow : std::overflow_error {
  Overflow() : std::overflow_error("int64 overflow in checked fast path") {}
};

template <class R>
concept Ring = requires(const R& r, typename R::Elem& acc, const typename R::Elem& a,
                        const typename R::Elem& b, std::int64_t v, const Int& z, const Rat& q) {
  { r.zero() } -> std::same_as<typename R::Elem>;
  { r.one() } -> std::same_as<typename R::Elem>;
  { r.from_int(v) } -> std::same_as<typename R::Elem>;
  { r.from_Int(z) } -> std::same_as<typename R::Elem>;  // the homomorphism Z -> R
  { r.from_rat(q) } -> std::same_as<typename R::Elem>;  // throws std::domain_error if not in R
  { r.add(a, b) } -> std::same_as<typename R::Elem>;
  { r.sub(a, b) } -> std::same_as<typename R::Elem>;
  { r.mul(a, b) } -> std::same_as<typename R::Elem>;
  { r.neg(a) } -> std::same_as<typename R::Elem>;
  { r.addmul(acc, a, b) } -> std::same_as<void>;
  { r.is_zero(a) } -> std::same_as<bool>;
  { r.equal(a, b) } -> std::same_as<bool>;
  { r.to_rat(a) } -> std::same_as<Rat>;  // canonical lift (Fp: representative in [0, p))
  { r.name() } -> std::same_as<std::string>;
  { R::ordered } -> std::convertible_to<bool>;  // sign() exists (needed by ReLU)
};

struct RingZ {
  using Elem = Int;
  static constexpr bool ordered = true;
  Int zero() const { return Int(); }
  Int one() const { return Int(1); }
  Int from_int(std::int64_t v) const { return Int(v); }
  Int from_Int(const Int& z) const { return z; }
  Int from_rat(const Rat& q) const {
    if (!q.is_integer()) throw std::domain_error("non-integer " + q.str() + " in ring Z");
    return q.num();
  }
  Int add(const Int& a, const Int& b) const { return a + b; }
  Int sub(const Int& a, const Int& b) const { return a - b; }
  Int mul(const Int& a, const Int& b) const { return a * b; }
  Int neg(const Int& a) const { return -a; }
  void addmul(Int& acc, const Int& a, const Int& b) const { acc.addmul(a, b); }
  bool is_zero(const Int& a) const { return a.is_zero(); }
  bool equal(const Int& a, const Int& b) const { return a == b; }
  int sign(const Int& a) const { return a.sign(); }
  Rat to_rat(const Int& a) const { return Rat(a); }
  std::string name() const { return "Z"; }
};

struct RingQ {
  using Elem = Rat;
  static constexpr bool ordered = true;
  Rat zero() const { return Rat(); }
  Rat one() const { return Rat(1); }
  Rat from_int(std::int64_t v) const { return Rat(v); }
  Rat from_Int(const Int& z) const { return Rat(z); }
  Rat from_rat(const Rat& q) const { return q; }
  Rat add(const Rat& a, const Rat& b) const { return a + b; }
  Rat sub(const Rat& a, const Rat& b) const { return a - b; }
  Rat mul(const Rat& a, const Rat& b) const { return a * b; }
  Rat neg(const Rat& a) const { return -a; }
  void addmul(Rat& acc, const Rat& a, const Rat& b) const { acc += a * b; }
  bool is_zero(const Rat& a) const { return a.is_zero(); }
  bool equal(const Rat& a, const Rat& b) const { return a == b; }
  int sign(const Rat& a) const { return a.sign(); }
  Rat to_rat(const Rat& a) const { return a; }
  std::string name() const { return "Q"; }
};

class RingFp {
 public:
  using Elem = std::uint64_t;
  static constexpr bool ordered = false;
  // Throws std::invalid_argument unless p is a prime below 2^62.
  explicit RingFp(std::uint64_t p);
  std::uint64_t prime() const { return p_; }

  Elem zero() const { return 0; }
  Elem one() const { return 1 % p_; }
  Elem from_int(std::int64_t v) const {
    std::int64_t r = v % static_cast<std::int64_t>(p_);
    return static_cast<Elem>(r < 0 ? r + static_cast<std::int64_t>(p_) : r);
  }
  Elem from_Int(const Int& z) const { return z.mod_u64(p_); }
  Elem from_rat(const Rat& q) const;  // throws std::domain_error when p divides the denominator
  Elem add(Elem a, Elem b) const { Elem s = a + b; return s >= p_ ? s - p_ : s; }
  Elem sub(Elem a, Elem b) const { return a >= b ? a - b : a + p_ - b; }
  Elem mul(Elem a, Elem b) const {
    return static_cast<Elem>((static_cast<unsigned __int128>(a) * b) % p_);
  }
  Elem neg(Elem a) const { return a == 0 ? 0 : p_ - a; }
  void addmul(Elem& acc, Elem a, Elem b) const { acc = add(acc, mul(a, b)); }
  bool is_zero(Elem a) const { return a == 0; }
  bool equal(Elem a, Elem b) const { return a == b; }
  Elem inv(Elem a) const;  // throws std::domain_error on 0
  Rat to_rat(Elem a) const { return Rat(Int(static_cast<std::int64_t>(a))); }
  std::string name() const { return "Fp:" + std::to_string(p_); }

 private:
  std::uint64_t p_;
};

struct RingI64 {
  using Elem = std::int64_t;
  static constexpr bool ordered = true;
  Elem zero() const { return 0; }
  Elem one() const { return 1; }
  Elem from_int(std::int64_t v) const { return v; }
  Elem from_Int(const Int& z) const {
    if (!z.fits_int64()) throw Overflow();
    return z.to_int64();
  }
  Elem from_rat(const Rat& q) const {
    if (!q.is_integer()) throw std::domain_error("non-integer " + q.str() + " in ring Z");
    return from_Int(q.num());
  }
  Elem add(Elem a, Elem b) const { Elem r; if (__builtin_add_overflow(a, b, &r)) throw Overflow(); return r; }
  Elem sub(Elem a, Elem b) const { Elem r; if (__builtin_sub_overflow(a, b, &r)) throw Overflow(); return r; }
  Elem mul(Elem a, Elem b) const { Elem r; if (__builtin_mul_overflow(a, b, &r)) throw Overflow(); return r; }
  Elem neg(Elem a) const { return sub(0, a); }
  void addmul(Elem& acc, Elem a, Elem b) const { acc = add(acc, mul(a, b)); }
  bool is_zero(Elem a) const { return a == 0; }
  bool equal(Elem a, Elem b) const { return a == b; }
  int sign(Elem a) const { return (a > 0) - (a < 0); }
  Rat to_rat(Elem a) const { return Rat(a); }
  std::string name() const { return "Z(int64 checked)"; }
};

static_assert(Ring<RingZ> && Ring<RingQ> && Ring<RingFp> && Ring<RingI64>);

// A ring name read from a file (model-json, circuit-json, DOT): "Z", "Q" or "Fp:<p>" with p a
// decimal prime below 2^62. Returns p for Fp and 0 for Z and Q; anything else is an
// InputError(what, where) (util/error.h), e.g. "Fp:4" (not prime) or an out-of-range p.
std::uint64_t check_ring_name(const std::string& ring, const std::string& where);

}  // namespace cz
