#include "gpu/mqar_triples.h"

#include <stdexcept>
#include <string>

namespace cz::gpu {

namespace {
// a·b, or throw when it does not fit in 64 bits.
std::uint64_t mul_checked(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw std::invalid_argument("triples domain: instance count exceeds 2^64");
  return r;
}
}  // namespace

TriplesShape triples_shape(int n, int c) {
  if (n < 1 || n > kMaxTriples || c < n)
    throw std::invalid_argument("device triples domain needs 1 <= n <= " + std::to_string(kMaxTriples) +
                                " and n <= c (n=" + std::to_string(n) + ", c=" + std::to_string(c) + ")");
  TriplesShape s;
  s.n = n;
  s.c = c;
  for (int i = 0; i < n; ++i) s.cn = mul_checked(s.cn, static_cast<std::uint64_t>(c));
  for (int i = 0; i < n; ++i) {
    std::uint64_t b = 1;
    for (int j = i + 1; j < n; ++j) b = mul_checked(b, static_cast<std::uint64_t>(c - j));
    s.block[i] = b;
  }
  std::uint64_t inj = 1;
  for (int i = 0; i < n; ++i) inj = mul_checked(inj, static_cast<std::uint64_t>(c - i));
  s.instances = mul_checked(mul_checked(inj, s.cn), s.cn);
  return s;
}

}  // namespace cz::gpu
