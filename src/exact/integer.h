// Int: an arbitrary-precision integer backed by FLINT's fmpz, without FLINT in this header.
// An fmpz is one machine word (a small value inline, or a tagged pointer to an mpz), so Int
// stores that word as `slot_` and every operation is implemented in integer.cpp, the only file
// that includes <flint/fmpz.h> (FLINT 2.9 defines ulong/slong as macros; build-recipe pitfall 5).
#pragma once
#include <compare>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace cz {

class Int {
 public:
  Int() noexcept : slot_(0) {}
  Int(std::int64_t v);  // NOLINT(google-explicit-constructor): integers convert freely
  Int(const Int& o);
  Int(Int&& o) noexcept : slot_(o.slot_) { o.slot_ = 0; }
  Int& operator=(const Int& o);
  Int& operator=(Int&& o) noexcept;
  ~Int();

  // Parses a decimal integer with optional sign; nullopt when the text is not one.
  static std::optional<Int> parse(std::string_view text);
  std::string str() const;

  bool fits_int64() const;
  std::int64_t to_int64() const;  // precondition: fits_int64()
  int sign() const;
  bool is_zero() const { return slot_ == 0; }  // fmpz 0 is the inline word 0
  std::size_t bits() const;                    // bit length of |x|

  Int& operator+=(const Int& o);
  Int& operator-=(const Int& o);
  Int& operator*=(const Int& o);
  void addmul(const Int& a, const Int& b);  // *this += a*b
  void submul(const Int& a, const Int& b);  // *this -= a*b
  Int operator-() const;
  friend Int operator+(Int a, const Int& b) { return a += b; }
  friend Int operator-(Int a, const Int& b) { return a -= b; }
  friend Int operator*(Int a, const Int& b) { return a *= b; }
  friend bool operator==(const Int& a, const Int& b);
  friend std::strong_ordering operator<=>(const Int& a, const Int& b);

  // Euclidean helpers used by rationals and Fp reduction.
  static Int gcd(const Int& a, const Int& b);
  static Int divexact(const Int& a, const Int& b);       // precondition: b divides a
  std::uint64_t mod_u64(std::uint64_t m) const;          // representative in [0, m)
  Int abs() const;

  // Raw access for the .cpp files that do include FLINT (an fmpz* aliasing slot_).
  void* raw() { return &slot_; }
  const void* raw() const { return &slot_; }

 private:
  long slot_;  // same size and representation as fmpz (checked by static_assert in integer.cpp)
};

std::ostream& operator<<(std::ostream& os, const Int& x);

}  // namespace cz
