// gpu/sd_pairs.h (the device's SD instances, prompt rows and reference) against tasks/sd.h and
// sdc::SdDomain: every instance of small exhaustive domains, many sampled (seed, k).
#include <doctest/doctest.h>

#include "constructions/sd/domain.h"
#include "gpu/sd_pairs_shape.h"
#include "program_compare.h"
#include "tasks/sd.h"

using namespace cz;

namespace {

gpu::SdShape shape_of(const sdc::SdDomain& d) {
  const int kind = d.kind == sdc::SdDomain::Subsets ? gpu::SdShape::Subsets
                   : d.kind == sdc::SdDomain::Orders ? gpu::SdShape::Orders
                                                     : gpu::SdShape::Sized;
  auto s = gpu::sd_shape(kind, d.n, d.kmax, d.a, d.b, d.exhaustive, d.seed);
  REQUIRE(s.has_value());
  return *s;
}

// Instance k of d on the device side equals the CPU's, and so do its prompts and A ∩ B.
void same_instance(const sdc::SdDomain& d, const gpu::SdShape& s, std::uint64_t k) {
  const sd::Instance x = d.instance(k);
  gpu::SdPair y;
  gpu::sd_pair(s, k, y);
  REQUIRE(y.n == x.n);
  REQUIRE(std::vector<std::uint32_t>(y.A, y.A + y.na) == x.A);
  REQUIRE(std::vector<std::uint32_t>(y.B, y.B + y.nb) == x.B);
  std::uint32_t common[gpu::kSdMaxSet];
  const int m = gpu::sd_intersection(y, common);
  REQUIRE(std::vector<std::uint32_t>(common, common + m) == sd::intersection(x));
  for (unsigned copies : {1u, 2u}) {
    const Matrix<std::int64_t> u = sd::repeat_prompt(sd::encode(x), copies);
    REQUIRE(gpu::sd_prompt_rows(y, copies) == u.rows());
    std::int64_t row[32];
    for (std::size_t i = 0; i < u.rows(); ++i) {
      gpu::sd_prompt_row(y, i, row);
      for (std::size_t j = 0; j < u.cols(); ++j) REQUIRE(row[j] == u(i, j));
    }
  }
}

sdc::SdDomain domain(sdc::SdDomain::Kind kind, unsigned n, std::size_t kmax, std::size_t a, std::size_t b) {
  return test::sd_domain(kind, n, kmax, a, b, 0);  // tests/gpu/program_compare.h
}

}  // namespace

TEST_CASE("device SD instances equal the CPU enumerations on every instance") {
  using K = sdc::SdDomain;
  std::vector<K> ds;
  for (unsigned n : {1u, 2u}) ds.push_back(domain(K::Subsets, n, 0, 0, 0));
  for (auto [n, kmax] : {std::pair{1u, 2u}, {2u, 3u}, {2u, 4u}, {3u, 2u}, {3u, 0u}}) ds.push_back(domain(K::Orders, n, kmax, 0, 0));
  for (auto [n, a, b] : {std::tuple{2u, 1u, 1u}, {3u, 2u, 3u}, {3u, 8u, 0u}, {4u, 3u, 2u}}) ds.push_back(domain(K::Sized, n, 0, a, b));
  std::uint64_t total = 0;
  for (K d : ds) {
    d.exhaustive = true;
    d.count = *(d.kind == K::Subsets ? sd::count_subset_pairs(d.n)
                : d.kind == K::Orders ? sd::count_order_pairs(d.n, d.kmax)
                                      : sd::count_sized_pairs(d.n, d.a, d.b));
    const gpu::SdShape s = shape_of(d);
    for (std::uint64_t k = 0; k < d.count; ++k) same_instance(d, s, k);
    total += d.count;
  }
  CHECK(total > 20000);
}

TEST_CASE("device SD instances on subset pairs of n = 3 and 4 (spread over the index range)") {
  for (unsigned n : {3u, 4u}) {
    sdc::SdDomain d = domain(sdc::SdDomain::Subsets, n, 0, 0, 0);
    d.count = *sd::count_subset_pairs(n);
    const gpu::SdShape s = shape_of(d);
    for (std::uint64_t k = 0; k < 5000; ++k) same_instance(d, s, (k * 0x9e3779b97f4a7c15ull) % d.count);
  }
}

TEST_CASE("device SD samples replay the CPU's seeded draws") {
  using K = sdc::SdDomain;
  std::vector<K> ds;
  for (unsigned n : {1u, 3u, 6u}) ds.push_back(domain(K::Subsets, n, 0, 0, 0));
  // orders: dense (shuffle of the universe) and sparse (rejection) draws, kmax above and below 2^n
  for (auto [n, kmax] : {std::pair{2u, 3u}, {3u, 8u}, {6u, 10u}, {6u, 64u}, {12u, 64u}, {20u, 5u}}) ds.push_back(domain(K::Orders, n, kmax, 0, 0));
  // sized: odd k get a planted common element when disjoint
  for (auto [n, a, b] : {std::tuple{3u, 2u, 3u}, {5u, 20u, 20u}, {8u, 5u, 7u}, {6u, 64u, 1u}, {20u, 64u, 64u}, {4u, 0u, 3u}})
    ds.push_back(domain(K::Sized, n, 0, a, b));
  for (K d : ds)
    for (std::uint64_t seed : {1ull, 7ull, 0xfeedbeefull}) {
      d.exhaustive = false;
      d.seed = seed;
      d.count = 1ull << 40;
      const gpu::SdShape s = shape_of(d);
      for (std::uint64_t k = 0; k < 400; ++k) same_instance(d, s, k < 200 ? k : k * 0x9e3779b97f4a7c15ull % d.count);
    }
}

TEST_CASE("domains whose sets outgrow the device arrays stay on the CPU") {
  CHECK_FALSE(gpu::sd_shape(gpu::SdShape::Subsets, 7, 0, 0, 0, false, 1).has_value());   // up to 128 elements
  CHECK_FALSE(gpu::sd_shape(gpu::SdShape::Subsets, 5, 0, 0, 0, true, 1).has_value());    // tasks/sd enumerates n <= 4
  CHECK_FALSE(gpu::sd_shape(gpu::SdShape::Sized, 8, 0, 65, 1, false, 1).has_value());
  CHECK(gpu::sd_shape(gpu::SdShape::Sized, 8, 0, 64, 64, false, 1).has_value());
  CHECK(gpu::sd_shape(gpu::SdShape::Orders, 20, 64, 0, 0, false, 1).has_value());
}
