// MQAR task types: enumerator counts and order, the reference solver (Alg. 9, strict j < i),
// encodings, and validation. The reference is checked against a second, plainly written
// definition ("exists j < i with k_j = q_i") on whole exhaustive domains.
#include <doctest/doctest.h>

#include <set>

#include "tasks/mqar.h"
#include "tasks/mqar_domain.h"
#include "tasks/mqar_reference.h"
#include "tests/seed.h"
#include "util/error.h"

using namespace cz;
using namespace cz::mqar;

namespace {
// The MQAR definition of spec §6.1 for triples, written as a double loop.
std::vector<std::optional<std::int64_t>> by_definition(const Instance& x) {
  const std::size_t n = x.N() / 3;
  std::vector<std::optional<std::int64_t>> a(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (x.tokens[3 * j] == x.tokens[3 * i + 2]) a[i] = x.tokens[3 * j + 1];
  return a;
}
}  // namespace

TEST_CASE("triples domain sizes match spec §13") {
  CHECK(triples_count(3, 3) == 4374);
  CHECK(triples_count(3, 4) == 98304);
  CHECK(triples_count(4, 4) == 1572864);
  CHECK_THROWS_AS(triples_count(4, 3), InputError);
  CHECK_THROWS_AS(triples_count(40, 64), InputError);  // beyond 2^62
}

TEST_CASE("the exhaustive enumerator lists every distinct-key instance once") {
  for (auto [n, c] : {std::pair<std::size_t, std::size_t>{2, 3}, {3, 3}, {2, 4}}) {
    Domain d = triples_exhaustive(n, c);
    std::set<std::vector<std::int64_t>> seen;
    for (std::uint64_t k = 0; k < d.count; ++k) {
      Instance x = d.instance(k);
      validate(x);
      CHECK(distinct_keys(x));
      seen.insert(x.tokens);
    }
    CHECK(seen.size() == d.count);
    CHECK_FALSE(d.preconditions.empty());
  }
}

TEST_CASE("reference solver = the definition on whole domains, and E5's strict j < i") {
  Domain d = triples_exhaustive(3, 3);
  std::uint64_t answered = 0;
  for (std::uint64_t k = 0; k < d.count; ++k) {
    Instance x = d.instance(k);
    auto a = reference_answers(x);
    REQUIRE(a == by_definition(x));
    for (auto& v : a) answered += v.has_value();
  }
  CHECK(answered > 0);
  // q_1 equals its own key k_1 (same triple) and no earlier key: null (spec E5).
  Instance x = make_triples(4, {0, 1}, {2, 3}, {0, 1});
  CHECK(reference_answers(x) == std::vector<std::optional<std::int64_t>>{std::nullopt, std::nullopt});
  Instance y = make_triples(4, {0, 1, 2}, {2, 3, 1}, {3, 0, 1});
  CHECK(reference_answers(y) == std::vector<std::optional<std::int64_t>>{std::nullopt, 2, 3});
}

TEST_CASE("sampled triples: seeded, distinct keys, and they agree with the definition") {
  const std::uint64_t seed = cz::test::seed();
  INFO("seed " << seed);
  for (std::uint64_t k = 0; k < 500; ++k) {
    Instance x = triples_sample(6, 9, seed, k);
    validate(x);
    CHECK(distinct_keys(x));
    CHECK(reference_answers(x) == by_definition(x));
    CHECK(x.tokens == triples_sample(6, 9, seed, k).tokens);
  }
}

TEST_CASE("encodings: round trips, bit order, p-hot digits") {
  Codec one = make_codec(Encoding::OneHot, 5);
  Codec bin = make_codec(Encoding::Binary, 8);
  Codec ph = make_codec(Encoding::PHot, 16, 2);
  CHECK(one.d == 5);
  CHECK(bin.d == 3);
  CHECK(ph.d == 8);
  CHECK(ph.base == 4);
  CHECK(encode_token(bin, 6) == std::vector<std::int64_t>{0, 1, 1});  // column 0 = LSB (spec E6)
  CHECK(encode_token(ph, 7) == std::vector<std::int64_t>{0, 0, 0, 1, 0, 1, 0, 0});  // 7 = 3 + 1*4
  for (const Codec& k : {one, bin, ph})
    for (std::int64_t t = 0; t < static_cast<std::int64_t>(k.c); ++t) {
      Matrix<std::int64_t> m(1, k.d);
      auto r = encode_token(k, t);
      std::copy(r.begin(), r.end(), m.row(0));
      CHECK(decode_row(k, m, 0) == Decoded{Decoded::Token, t});
    }
  Matrix<std::int64_t> z(1, 5, 0);
  CHECK(decode_row(one, z, 0).kind == Decoded::Null);
  z(0, 1) = z(0, 3) = 1;
  CHECK(decode_row(one, z, 0).kind == Decoded::Invalid);
  z(0, 3) = 2;
  CHECK(decode_row(one, z, 0).kind == Decoded::Invalid);
  CHECK_THROWS_AS(make_codec(Encoding::PHot, 10, 2), InputError);
  CHECK(msb_prefix(0b1011, 4, 2) == 0b10);
  CHECK(bin_msb_first(6, 4) == std::vector<int>{0, 1, 1, 0});
}

TEST_CASE("expected output puts the encoded answer at query rows only") {
  Instance x = make_triples(4, {0, 1}, {2, 3}, {1, 0});
  Codec k = make_codec(Encoding::OneHot, 4);
  auto y = expected_output(k, x, reference_answers(x));
  for (std::size_t r = 0; r < 6; ++r)
    for (std::size_t j = 0; j < 4; ++j) CHECK(y(r, j) == ((r == 5 && j == 2) ? 1 : 0));
}

TEST_CASE("validate rejects inconsistent position sets and tokens") {
  Instance x = make_triples(4, {0, 1}, {2, 3}, {1, 0});
  validate(x);
  Instance bad = x;
  bad.visible[1] = 2;  // would let query 1 see its own triple
  CHECK_THROWS_AS(validate(bad), InputError);
  bad = x;
  bad.tokens[0] = 4;
  CHECK_THROWS_AS(validate(bad), InputError);
  CHECK_THROWS_AS(make_triples(3, {0, 3}, {0, 0}, {0, 0}), InputError);
  CHECK_THROWS_AS(make_zoology(10, 8, {1, 2}, {5, 6}, {2}, {1}), InputError);  // query inside the context
  Instance z = make_zoology(10, 8, {1, 2}, {5, 6}, {4, 6}, {2, 7});
  validate(z);
  CHECK(reference_answers(z) == std::vector<std::optional<std::int64_t>>{6, std::nullopt});
}
