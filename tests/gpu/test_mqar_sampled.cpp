// gpu/mqar_sampled.h (the device's sampler) against mqar::triples_sample, draw for draw.
#include <doctest/doctest.h>

#include "gpu/mqar_sampled.h"
#include "tasks/mqar_domain.h"

using namespace cz;

TEST_CASE("device triples sampling draws the CPU's instances") {
  struct Shape { int n; std::uint64_t c; };
  for (const Shape s : {Shape{1, 1}, Shape{2, 2}, Shape{3, 4}, Shape{4, 64}, Shape{16, 16}, Shape{16, 8192}, Shape{7, 1000003}})
    for (std::uint64_t seed : {1ull, 2ull, 0x1234567890ull})
      for (std::uint64_t k = 0; k < 300; ++k) {
        const std::uint64_t kk = k * 0x9e3779b97f4a7c15ull;  // spread over the index range
        const mqar::Instance x = mqar::triples_sample(s.n, s.c, seed, kk);
        std::int32_t keys[gpu::kMaxTriples], vals[gpu::kMaxTriples], qs[gpu::kMaxTriples];
        gpu::triples_sample_draw(s.n, s.c, seed, kk, keys, vals, qs);
        for (int i = 0; i < s.n; ++i) {
          REQUIRE(keys[i] == x.tokens[3 * i]);
          REQUIRE(vals[i] == x.tokens[3 * i + 1]);
          REQUIRE(qs[i] == x.tokens[3 * i + 2]);
        }
      }
}

TEST_CASE("a sampled triples domain carries its seed for the device") {
  const mqar::Domain d = mqar::triples_sampled(3, 8, 100, 42);
  CHECK(d.triples_seed == 42);
  CHECK(d.triples_n == 3);
  CHECK(d.triples_c == 8);
}
