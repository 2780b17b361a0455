// Rat: an exact rational p/q in lowest terms with q > 0, built on Int (FLINT fmpz).
// Kept canonical after every operation so equality is structural.
#pragma once
#include "exact/integer.h"

namespace cz {

class Rat {
 public:
  Rat() : num_(0), den_(1) {}
  Rat(std::int64_t v) : num_(v), den_(1) {}  // NOLINT(google-explicit-constructor)
  Rat(Int v) : num_(std::move(v)), den_(1) {}  // NOLINT(google-explicit-constructor)
  // Throws std::domain_error when den == 0.
  Rat(Int num, Int den);

  // Parses "p", "-p" or "p/q"; nullopt when malformed or q == 0.
  static std::optional<Rat> parse(std::string_view text);
  std::string str() const;  // "p" when integral, else "p/q"

  const Int& num() const { return num_; }
  const Int& den() const { return den_; }
  bool is_integer() const { return den_ == Int(1); }
  int sign() const { return num_.sign(); }
  bool is_zero() const { return num_.is_zero(); }

  Rat& operator+=(const Rat& o);
  Rat& operator-=(const Rat& o);
  Rat& operator*=(const Rat& o);
  Rat& operator/=(const Rat& o);  // throws std::domain_error on division by zero
  Rat operator-() const { Rat r = *this; r.num_ = -r.num_; return r; }
  friend Rat operator+(Rat a, const Rat& b) { return a += b; }
  friend Rat operator-(Rat a, const Rat& b) { return a -= b; }
  friend Rat operator*(Rat a, const Rat& b) { return a *= b; }
  friend Rat operator/(Rat a, const Rat& b) { return a /= b; }
  friend bool operator==(const Rat& a, const Rat& b) { return a.num_ == b.num_ && a.den_ == b.den_; }
  friend std::strong_ordering operator<=>(const Rat& a, const Rat& b) {
    return a.num_ * b.den_ <=> b.num_ * a.den_;
  }

 private:
  void canonicalize();
  Int num_, den_;
};

std::ostream& operator<<(std::ostream& os, const Rat& x);

}  // namespace cz
