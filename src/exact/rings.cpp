#include "exact/rings.h"

#include <flint/ulong_extras.h>

namespace cz {

RingFp::RingFp(std::uint64_t p) : p_(p) {
  if (p < 2 || p >= (std::uint64_t(1) << 62) || !n_is_prime(p))
    throw std::invalid_argument("Fp needs a prime below 2^62, got " + std::to_string(p));
}

RingFp::Elem RingFp::inv(Elem a) const {
  if (a == 0) throw std::domain_error("inverse of 0 in " + name());
  return n_invmod(a, p_);
}

RingFp::Elem RingFp::from_rat(const Rat& q) const {
  Elem d = q.den().mod_u64(p_);
  if (d == 0) throw std::domain_error("denominator of " + q.str() + " vanishes in " + name());
  return mul(q.num().mod_u64(p_), inv(d));
}

}  // namespace cz
