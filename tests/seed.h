// The one place random tests take their seed from (CZ_TEST_SEED overrides); tests INFO() it so a
// failure prints the seed that reproduces it.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>

namespace cz::test {

inline std::uint64_t seed() {
  const char* s = std::getenv("CZ_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 20261129ULL;
}

inline std::mt19937_64 rng(std::uint64_t salt) { return std::mt19937_64(seed() ^ (salt * 0x9e3779b97f4a7c15ULL)); }

}  // namespace cz::test
