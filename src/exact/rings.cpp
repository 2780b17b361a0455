#include "exact/rings.h"

#include <flint/ulong_extras.h>

#include "util/error.h"
#include "util/text.h"

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

std::uint64_t check_ring_name(const std::string& ring, const std::string& where) {
  if (ring == "Z" || ring == "Q") return 0;
  const std::string want = " (want Z, Q or Fp:<p> with p a prime below 2^62)";
  if (ring.rfind("Fp:", 0) != 0) throw InputError("unknown ring '" + printable(ring) + "'" + want, where);
  const std::string digits = ring.substr(3);
  if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string::npos)
    throw InputError("bad ring '" + printable(ring) + "'" + want, where);
  const std::uint64_t p = std::stoull(digits);  // at most 19 digits: fits in 64 bits
  if (p < 2 || p >= (std::uint64_t(1) << 62) || !n_is_prime(p))
    throw InputError("ring '" + ring + "': " + digits + " is not a prime below 2^62", where);
  return p;
}

}  // namespace cz
