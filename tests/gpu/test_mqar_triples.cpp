// gpu/mqar_triples.h (the device's instance generator) against the CPU's triples enumeration
// (tasks/mqar_domain.h) and the reference solver (tasks/mqar_reference.h), on every instance.
#include <doctest/doctest.h>

#include <stdexcept>

#include "gpu/mqar_triples.h"
#include "tasks/mqar_domain.h"
#include "tasks/mqar_reference.h"

using namespace cz;

TEST_CASE("device triples unranking equals the CPU enumeration on every instance") {
  for (int n = 1; n <= 3; ++n)
    for (int c = n; c <= 4; ++c) {
      const gpu::TriplesShape s = gpu::triples_shape(n, c);
      REQUIRE(s.instances == mqar::triples_count(n, c));
      std::int32_t keys[gpu::kMaxTriples], vals[gpu::kMaxTriples], qs[gpu::kMaxTriples], ans[gpu::kMaxTriples];
      for (std::uint64_t k = 0; k < s.instances; ++k) {
        const mqar::Instance x = mqar::triples_instance(n, c, k);
        gpu::triples_unrank(s, k, keys, vals, qs);
        gpu::triples_reference(n, keys, vals, qs, ans);
        const auto ref = mqar::reference_answers(x);
        for (int i = 0; i < n; ++i) {
          REQUIRE(keys[i] == x.tokens[3 * i]);
          REQUIRE(vals[i] == x.tokens[3 * i + 1]);
          REQUIRE(qs[i] == x.tokens[3 * i + 2]);
          REQUIRE(ans[i] == (ref[i] ? *ref[i] : -1));
        }
      }
    }
}

TEST_CASE("device triples unranking agrees at the far end of a large domain") {
  // n = 6, c = 8: 20160 · 8^12 instances; spot-check indices across the whole range.
  const gpu::TriplesShape s = gpu::triples_shape(6, 8);
  REQUIRE(s.instances == mqar::triples_count(6, 8));
  std::int32_t keys[gpu::kMaxTriples], vals[gpu::kMaxTriples], qs[gpu::kMaxTriples];
  for (std::uint64_t k : {std::uint64_t{0}, s.instances / 3, s.instances / 2 + 12345, s.instances - 1}) {
    const mqar::Instance x = mqar::triples_instance(6, 8, k);
    gpu::triples_unrank(s, k, keys, vals, qs);
    for (int i = 0; i < 6; ++i) {
      CHECK(keys[i] == x.tokens[3 * i]);
      CHECK(vals[i] == x.tokens[3 * i + 1]);
      CHECK(qs[i] == x.tokens[3 * i + 2]);
    }
  }
}

TEST_CASE("device triples shapes refuse what the device cannot hold") {
  CHECK_THROWS_AS(gpu::triples_shape(0, 4), std::invalid_argument);
  CHECK_THROWS_AS(gpu::triples_shape(3, 2), std::invalid_argument);
  CHECK_THROWS_AS(gpu::triples_shape(gpu::kMaxTriples + 1, 40), std::invalid_argument);
  CHECK_THROWS_AS(gpu::triples_shape(16, 1000), std::invalid_argument);  // 1000^32 > 2^64
}
