// Shared helpers of the circuit tests: exhaustive evaluation over all 0/1 inputs.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "circuits/builder.h"
#include "circuits/eval.h"

namespace cz::test {

// Inputs of instance m: input i = bit i of m.
inline std::vector<std::int64_t> bits_of(std::uint64_t m, std::size_t n) {
  std::vector<std::int64_t> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<std::int64_t>((m >> i) & 1);
  return x;
}

inline std::uint64_t word(const std::vector<std::int64_t>& x, std::size_t off, std::size_t d) {
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < d; ++k) v |= static_cast<std::uint64_t>(x[off + k]) << k;
  return v;
}

// Runs `check(inputs, outputs)` on every 0/1 input vector; returns the first failing m or -1.
inline long long first_failure(const circuits::Circuit& c,
                               const std::function<bool(const std::vector<std::int64_t>&, const std::vector<Int>&)>& check) {
  const std::size_t n = c.num_inputs();
  for (std::uint64_t m = 0; m < (std::uint64_t{1} << n); ++m) {
    auto x = bits_of(m, n);
    if (!check(x, circuits::eval_integer(c, x))) return static_cast<long long>(m);
  }
  return -1;
}

}  // namespace cz::test
