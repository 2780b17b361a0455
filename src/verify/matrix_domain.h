// The domain of input matrices for the primitives: exhaustive over {0,1}^(N×d) when
// 2^(N·d) <= 2^22 (or when forced, up to 2^32), else seeded random integer matrices with entries
// in [-range, range].
#pragma once
#include <cstdint>
#include <string>

#include "tensor/matrix.h"
#include "verify/construction.h"

namespace cz {

struct MatrixDomain {
  std::size_t N = 0, d = 0;
  bool exhaustive = true;
  std::uint64_t count = 0;
  std::int64_t range = 0;
  std::uint64_t seed = 1;

  Matrix<std::int64_t> instance(std::uint64_t k) const;
  std::string describe() const;
};

inline constexpr unsigned kExhaustiveBitsDefault = 22;
inline constexpr unsigned kExhaustiveBitsMax = 32;

// Throws InputError when --exhaustive is asked for a domain over 2^32.
MatrixDomain make_matrix_domain(std::size_t N, std::size_t d, const DomainOptions& opts, std::int64_t range,
                                std::uint64_t default_samples = 100000);

}  // namespace cz
