#include "exact/integer.h"

#include <flint/fmpz.h>

#include <ostream>

namespace cz {
namespace {
static_assert(sizeof(fmpz) == sizeof(long), "Int stores an fmpz in one long");
fmpz* F(Int& x) { return static_cast<fmpz*>(x.raw()); }
const fmpz* F(const Int& x) { return static_cast<const fmpz*>(x.raw()); }
}  // namespace

Int::Int(std::int64_t v) : slot_(0) { fmpz_set_si(F(*this), v); }
Int::Int(const Int& o) : slot_(0) { fmpz_set(F(*this), F(o)); }
Int& Int::operator=(const Int& o) {
  if (this != &o) fmpz_set(F(*this), F(o));
  return *this;
}
Int& Int::operator=(Int&& o) noexcept {
  if (this != &o) {
    fmpz_clear(F(*this));
    slot_ = o.slot_;
    o.slot_ = 0;
  }
  return *this;
}
Int::~Int() { fmpz_clear(F(*this)); }

std::optional<Int> Int::parse(std::string_view text) {
  std::string s(text);
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i >= s.size()) return std::nullopt;
  for (std::size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
  if (s[0] == '+') s.erase(0, 1);
  Int r;
  if (fmpz_set_str(F(r), s.c_str(), 10) != 0) return std::nullopt;
  return r;
}

std::string Int::str() const {
  char* c = fmpz_get_str(nullptr, 10, F(*this));
  std::string s(c);
  flint_free(c);
  return s;
}

bool Int::fits_int64() const { return fmpz_fits_si(F(*this)) != 0; }
std::int64_t Int::to_int64() const { return fmpz_get_si(F(*this)); }
int Int::sign() const { return fmpz_sgn(F(*this)); }
std::size_t Int::bits() const { return fmpz_bits(F(*this)); }

Int& Int::operator+=(const Int& o) { fmpz_add(F(*this), F(*this), F(o)); return *this; }
Int& Int::operator-=(const Int& o) { fmpz_sub(F(*this), F(*this), F(o)); return *this; }
Int& Int::operator*=(const Int& o) { fmpz_mul(F(*this), F(*this), F(o)); return *this; }
void Int::addmul(const Int& a, const Int& b) { fmpz_addmul(F(*this), F(a), F(b)); }
void Int::submul(const Int& a, const Int& b) { fmpz_submul(F(*this), F(a), F(b)); }
Int Int::operator-() const {
  Int r;
  fmpz_neg(F(r), F(*this));
  return r;
}
bool operator==(const Int& a, const Int& b) { return fmpz_equal(F(a), F(b)) != 0; }
std::strong_ordering operator<=>(const Int& a, const Int& b) {
  int c = fmpz_cmp(F(a), F(b));
  return c < 0 ? std::strong_ordering::less
               : (c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal);
}
Int Int::gcd(const Int& a, const Int& b) {
  Int r;
  fmpz_gcd(F(r), F(a), F(b));
  return r;
}
Int Int::divexact(const Int& a, const Int& b) {
  Int r;
  fmpz_divexact(F(r), F(a), F(b));
  return r;
}
std::uint64_t Int::mod_u64(std::uint64_t m) const { return fmpz_fdiv_ui(F(*this), m); }
Int Int::abs() const {
  Int r;
  fmpz_abs(F(r), F(*this));
  return r;
}

std::ostream& operator<<(std::ostream& os, const Int& x) { return os << x.str(); }

}  // namespace cz
