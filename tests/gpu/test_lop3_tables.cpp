// gpu/lop3.h: the host formula of lop3 against the immLut definition, bit by bit, for all 256
// truth tables (the GPU's lop3.b32 is checked against the same definition in tests/gpu/device).
#include <doctest/doctest.h>

#include <random>

#include "gpu/lop3.h"

using namespace cz::gpu;

namespace {
// The definition: bit i of the result is bit (a_i·4 + b_i·2 + c_i) of tt.
std::uint32_t by_bits(std::uint8_t tt, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t r = 0;
  for (int i = 0; i < 32; ++i) {
    const unsigned idx = ((a >> i) & 1) * 4 + ((b >> i) & 1) * 2 + ((c >> i) & 1);
    r |= static_cast<std::uint32_t>((tt >> idx) & 1) << i;
  }
  return r;
}
}  // namespace

TEST_CASE("lop3 host formula equals the bit-by-bit definition for all 256 tables") {
  std::mt19937 rng(12);
  for (int tt = 0; tt < 256; ++tt) {
    const auto t = static_cast<std::uint8_t>(tt);
    // The variable patterns reproduce the table itself (the immLut convention).
    REQUIRE((lop3(t, kLopA, kLopB, kLopC) & 0xFF) == t);
    for (int k = 0; k < 64; ++k) {
      const std::uint32_t a = rng(), b = rng(), c = rng();
      REQUIRE(lop3(t, a, b, c) == by_bits(t, a, b, c));
    }
  }
}

TEST_CASE("lop3 tables of the usual gates") {
  const std::uint32_t a = 0x12345678u, b = 0x9ABCDEF0u, c = 0x0F0F3355u;
  CHECK(lop3(kLopA & kLopB, a, b, c) == (a & b));
  CHECK(lop3(kLopA | kLopB, a, b, c) == (a | b));
  CHECK(lop3(kLopA ^ kLopB ^ kLopC, a, b, c) == (a ^ b ^ c));
  CHECK(lop3(static_cast<std::uint8_t>((kLopA & kLopB) | (~kLopA & kLopC)), a, b, c) == ((a & b) | (~a & c)));
  CHECK(lop3(static_cast<std::uint8_t>(~kLopA), a, b, c) == ~a);
  CHECK(lop3(0x00, a, b, c) == 0u);
  CHECK(lop3(0xFF, a, b, c) == ~0u);
}
