// The domain of input matrices for tasks whose semantics are over Z (the primitives, spec §5; the
// circuit/to-model prefix maps): up to two parts, in this order,
//   the box     every matrix with entries in [lo, hi] (enumerated, (hi-lo+1)^(N·d) of them), and
//   samples     seeded random matrices with entries in [-range, range].
// Defaults (issue 24 D2: 0/1 inputs alone "verified" a model that squares its input):
//   the box {-1,0,1} when 3^(N·d) <= 2^16 (N·d <= 10), else {0,1} when 2^(N·d) <= 2^22, else none
//   (the signed box stays near the size of the 8x2 defaults' 0/1 box, 2^16); then
//   10000 samples beside a box (100000 without one), so that signed and larger values are always
//   met. --exhaustive: the box alone, {-1,0,1} up to 3^(N·d) <= 2^32, else {0,1} up to 2^32.
//   --samples K: K samples alone. describe() says exactly which sets were covered.
#pragma once
#include <cstdint>
#include <string>

#include "tensor/matrix.h"
#include "verify/construction.h"

namespace cz {

// b^e when it is at most 2^bits, else 0 (how many matrices a box holds, when it is small enough).
std::uint64_t power_within(std::uint64_t b, std::size_t e, unsigned bits);

struct MatrixDomain {
  std::size_t N = 0, d = 0;
  std::int64_t lo = 0, hi = 1;   // the box [lo, hi]^(N×d) ...
  std::uint64_t box = 0;         // ... of this many matrices (0: no box)
  std::uint64_t samples = 0;     // seeded matrices after the box
  std::int64_t range = 0;        // their entries in [-range, range]
  std::uint64_t seed = 1;
  std::uint64_t count = 0;       // box + samples
  bool exhaustive = true;        // the box alone (no samples): every instance of a stated finite set

  Matrix<std::int64_t> instance(std::uint64_t k) const;
  std::string describe() const;
  std::string kind() const;      // "exhaustive" | "sampled" | "exhaustive+sampled" (the report's domain)
};

inline constexpr unsigned kExhaustiveBitsDefault = 22;
inline constexpr unsigned kSignedBoxBitsDefault = 16;
inline constexpr unsigned kExhaustiveBitsMax = 32;
inline constexpr std::uint64_t kSamplesBesideBox = 10000;

// Throws InputError when --exhaustive is asked for a domain over 2^32.
MatrixDomain make_matrix_domain(std::size_t N, std::size_t d, const DomainOptions& opts, std::int64_t range,
                                std::uint64_t default_samples = 100000);

}  // namespace cz
