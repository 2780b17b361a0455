// SD instances (JRT Remark G.14), prompts (Def G.4, G.28), enumeration and the reference.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "tasks/sd.h"
#include "tests/seed.h"

using namespace cz;

TEST_CASE("domain sizes match the issue's figures") {
  CHECK(*sd::count_subset_pairs(1) == 16);
  CHECK(*sd::count_subset_pairs(2) == 256);
  CHECK(*sd::count_subset_pairs(3) == 65536);
  CHECK_FALSE(sd::count_subset_pairs(5).has_value());
  // sequences of <= 3 distinct elements of 4 symbols: 1 + 4 + 12 + 24 = 41; of 8 symbols: 401
  CHECK(*sd::count_order_pairs(2, 3) == 41 * 41);
  CHECK(*sd::count_order_pairs(3, 3) == 401 * 401);
  CHECK(*sd::count_sized_pairs(3, 2, 3) == 28 * 56);
}

TEST_CASE("subset pairs: every pair once, increasing elements") {
  std::set<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> seen;
  for (std::uint64_t k = 0; k < 256; ++k) {
    sd::Instance x = sd::subset_pair(2, k);
    CHECK(std::is_sorted(x.A.begin(), x.A.end()));
    CHECK(std::adjacent_find(x.B.begin(), x.B.end(), std::greater_equal<>()) == x.B.end());
    seen.insert({x.A, x.B});
  }
  CHECK(seen.size() == 256);
}

TEST_CASE("order pairs cover every ordering of every small set, each once") {
  // Independent listing: all sequences of distinct elements of {0..3} with length <= 2.
  using Seq = std::vector<std::uint32_t>;
  std::set<Seq> want;
  want.insert(Seq{});
  for (std::uint32_t a = 0; a < 4; ++a) {
    want.insert(Seq{a});
    for (std::uint32_t b = 0; b < 4; ++b)
      if (b != a) want.insert(Seq{a, b});
  }
  const std::uint64_t total = *sd::count_order_pairs(2, 2);
  CHECK(total == want.size() * want.size());
  std::set<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> seen;
  for (std::uint64_t k = 0; k < total; ++k) {
    sd::Instance x = sd::order_pair(2, 2, k);
    CHECK(want.count(x.A));
    CHECK(want.count(x.B));
    seen.insert({x.A, x.B});
  }
  CHECK(seen.size() == total);
}

TEST_CASE("sized pairs and samples have the requested sizes and distinct elements") {
  for (std::uint64_t k = 0; k < *sd::count_sized_pairs(3, 2, 3); k += 7) {
    sd::Instance x = sd::sized_pair(3, 2, 3, k);
    CHECK(x.A.size() == 2);
    CHECK(x.B.size() == 3);
  }
  auto rng = test::rng(11);
  sd::Below below = [&](std::uint64_t m) { return std::uniform_int_distribution<std::uint64_t>(0, m - 1)(rng); };
  int intersecting = 0;
  for (int t = 0; t < 200; ++t) {
    sd::Instance x = sd::sample_sized_pair(10, 5, 7, /*plant=*/true, below);
    CHECK(std::set<std::uint32_t>(x.A.begin(), x.A.end()).size() == 5);
    CHECK(std::set<std::uint32_t>(x.B.begin(), x.B.end()).size() == 7);
    intersecting += !sd::disjoint(x);
  }
  CHECK(intersecting == 200);  // planted
}

TEST_CASE("Remark G.14 encoding and the JRT / JR-p prompts") {
  sd::Instance x{3, {5, 0}, {2}};  // A = {101, 000}, B = {010}
  auto u = sd::encode(x);
  REQUIRE(u.rows() == 4);
  REQUIRE(u.cols() == 4);
  const std::int64_t want[4][4] = {{1, 0, 1, 0}, {0, 0, 0, 0}, {0, 0, 0, 1}, {0, 1, 0, 0}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) CHECK(u(i, j) == want[i][j]);
  auto v = sd::repeat_prompt(u, 3);
  CHECK(v.rows() == 12);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 4; ++j) CHECK(v(i, j) == want[i % 4][j]);
  CHECK(sd::row_element(u.row(0), 3) == 5);
}

TEST_CASE("reference: intersection and disjointness") {
  CHECK(sd::intersection({3, {1, 2, 3}, {3, 4, 1}}) == std::vector<std::uint32_t>{1, 3});
  CHECK(sd::disjoint({3, {1, 2}, {3, 4}}));
  CHECK(sd::disjoint({3, {}, {}}));
  CHECK_FALSE(sd::disjoint({3, {0}, {0}}));  // 0^n is an element like any other
}
