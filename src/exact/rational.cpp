#include "exact/rational.h"

#include <ostream>
#include <stdexcept>

namespace cz {

Rat::Rat(Int num, Int den) : num_(std::move(num)), den_(std::move(den)) {
  if (den_.is_zero()) throw std::domain_error("zero denominator");
  canonicalize();
}

void Rat::canonicalize() {
  if (den_.sign() < 0) { num_ = -num_; den_ = -den_; }
  if (den_ == Int(1)) return;
  Int g = Int::gcd(num_, den_);
  if (!(g == Int(1))) { num_ = Int::divexact(num_, g); den_ = Int::divexact(den_, g); }
}

std::optional<Rat> Rat::parse(std::string_view text) {
  auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    auto n = Int::parse(text);
    if (!n) return std::nullopt;
    return Rat(*n);
  }
  auto n = Int::parse(text.substr(0, slash));
  auto d = Int::parse(text.substr(slash + 1));
  if (!n || !d || d->is_zero()) return std::nullopt;
  return Rat(*n, *d);
}

std::string Rat::str() const { return is_integer() ? num_.str() : num_.str() + "/" + den_.str(); }

Rat& Rat::operator+=(const Rat& o) {
  if (den_ == o.den_) { num_ += o.num_; } else { num_ = num_ * o.den_ + o.num_ * den_; den_ *= o.den_; }
  canonicalize();
  return *this;
}
Rat& Rat::operator-=(const Rat& o) { return *this += -o; }
Rat& Rat::operator*=(const Rat& o) {
  num_ *= o.num_;
  den_ *= o.den_;
  canonicalize();
  return *this;
}
Rat& Rat::operator/=(const Rat& o) {
  if (o.is_zero()) throw std::domain_error("division by zero");
  Int n = num_ * o.den_, d = den_ * o.num_;
  num_ = std::move(n);
  den_ = std::move(d);
  canonicalize();
  return *this;
}

std::ostream& operator<<(std::ostream& os, const Rat& x) { return os << x.str(); }

}  // namespace cz
