// The recurrent-model framework (JRT Def G.12) and sd/recurrent-jrt (JRT Alg. 3, Thm G.15):
// exhaustive at n <= 2, spot checks at n = 3, the Errata E8 count, and mutants.
#include <doctest/doctest.h>

#include "constructions/sd/recurrent_jrt.h"
#include "model/recurrent.h"
#include "app/engine/engine.h"

using namespace cz;

namespace {
Report verify(std::map<std::string, std::string> p, DomainOptions o = {}) {
  o.threads = 2;
  return run_verify(find_construction("sd/recurrent-jrt"), p, o);
}

// Runs the construction's check with its artifact replaced.
RunResult verify_with(const std::map<std::string, std::string>& given,
                      const std::function<void(sdc::RecurrentArtifact&)>& mutate) {
  const Construction& c = find_construction("sd/recurrent-jrt");
  Params p = Params::parse(c.params, given);
  Built b = c.build(p);
  auto art = *std::static_pointer_cast<const sdc::RecurrentArtifact>(b.state);
  mutate(art);
  b.state = std::make_shared<const sdc::RecurrentArtifact>(art);
  return run_domain(c.check(p, b, DomainOptions{}), 2, "mutant");
}

std::uint64_t binom(std::uint64_t m, std::uint64_t r) {
  std::uint64_t c = 1;
  for (std::uint64_t i = 0; i < r; ++i) c = c * (m - i) / (i + 1);
  return c;
}
}  // namespace

TEST_CASE("recurrent framework: registers are width-checked, bags are counted") {
  RecurrentState z;
  auto r = z.add_register("r", 3, 5);
  auto b = z.add_bag("Z", 4);
  CHECK(z.bits() == 3);
  CHECK_THROWS_AS(z.set(r, 8), std::logic_error);
  CHECK_THROWS_AS(z.insert(b, 16), std::logic_error);
  z.insert(b, 15);
  z.insert(b, 15);
  z.insert(b, 1);
  CHECK(z.bits() == 3 + 2 * 4);
  CHECK(bits_for(1) == 0);
  CHECK(bits_for(2) == 1);
  CHECK(bits_for(9) == 4);

  RecurrentProgram count_ones{"count", [](std::size_t, std::size_t) {
                                RecurrentState s;
                                s.add_register("c", 2);
                                return s;
                              },
                              [](RecurrentState& s, std::size_t, std::size_t, const std::vector<std::int64_t>& row) {
                                s.set(0, s.get(0) + static_cast<std::uint64_t>(row[0]));
                                return std::vector<std::int64_t>{static_cast<std::int64_t>(s.get(0))};
                              }};
  Matrix<std::int64_t> u(3, 1, 1);
  RecurrentRun run = run_recurrent(count_ones, u);
  CHECK(run.output(2, 0) == 3);
  CHECK(run.bits == std::vector<std::size_t>{2, 2, 2, 2});
  Matrix<std::int64_t> four(4, 1, 1);
  CHECK_THROWS_AS(run_recurrent(count_ones, four), std::logic_error);  // 4 needs a third bit
}

TEST_CASE("Alg. 3 verifies exhaustively for n <= 2 (all subset pairs, every order) with exact state") {
  for (const char* n : {"1", "2"}) {
    Report r = verify({{"n", n}});
    CHECK(r.domain == "exhaustive");
    CHECK(r.failed == 0);
    CHECK(r.exit_code() == 0);
  }
  Report r = verify({{"n", "2"}, {"domain", "orders"}});
  CHECK(r.instances == 1681);
  CHECK(r.failed == 0);
  // state = n·min(|A|,|B|) for the set (at most 3 elements here), plus the registers
  CHECK(r.metrics["set_bits"] == 2 * 3);
  CHECK(r.metrics["set_bits_minus_n_min"] == 0);
}

TEST_CASE("Alg. 3 spot checks at n = 3 and on sized sets") {
  DomainOptions o;
  o.samples = 3000;
  o.seed = 5;
  CHECK(verify({{"n", "3"}}, o).failed == 0);
  CHECK(verify({{"n", "3"}, {"domain", "orders"}}, o).failed == 0);
  Report r = verify({{"n", "8"}, {"domain", "sized"}, {"a", "20"}, {"b", "7"}}, o);
  CHECK(r.failed == 0);
  CHECK(r.metrics["set_bits"] == 8 * 7);
}

TEST_CASE("Errata E8: the paper's threshold over-stores exactly when |A| = |B| + 1") {
  for (unsigned n : {2u, 3u}) {
    const Construction& c = find_construction("sd/recurrent-jrt");
    Built b = c.build(Params::parse(c.params, {{"n", std::to_string(n)}, {"variant", "paper"}}));
    const std::uint64_t U = 1u << n;
    std::uint64_t want = 0;
    for (std::uint64_t k = 0; k + 1 <= U; ++k) want += binom(U, k + 1) * binom(U, k);
    INFO("n=" << n);
    CHECK(b.metrics["instances_over_n_min"] == want);
    CHECK(b.metrics["set_bits_minus_n_min"] == n);
    if (n == 3) CHECK(want == 11440);  // spec §13
  }
  // answers stay right under the paper's threshold
  CHECK(verify({{"n", "2"}, {"variant", "paper"}}).failed == 0);
}

TEST_CASE("without repetition the stored set is the first one (n·|A| bits)") {
  Report r = verify({{"n", "2"}, {"prompt", "plain"}});
  CHECK(r.failed == 0);
  CHECK(r.metrics["set_bits"] == 2 * 4);
  Report s = verify({{"n", "6"}, {"domain", "sized"}, {"a", "30"}, {"b", "2"}, {"prompt", "plain"}}, [] {
    DomainOptions o;
    o.samples = 500;
    return o;
  }());
  CHECK(s.failed == 0);
  CHECK(s.metrics["set_bits"] == 6 * 30);  // against 6·min = 12 with the JRT prompt
}

TEST_CASE("recurrent: mutants are caught") {
  SUBCASE("separator test on the element bits instead of the flag") {
    auto r = verify_with({{"n", "2"}}, [](sdc::RecurrentArtifact& a) {
      a.program = sdc::alg3_program(2, sdc::Alg3Threshold::Fixed, [](const std::vector<std::int64_t>& row, unsigned n) {
        for (unsigned b = 0; b < n; ++b)
          if (row[b]) return false;
        return true;  // an element 0^n looks like the separator
      });
    });
    CHECK(r.failed > 0);
  }
  SUBCASE("separator test on the wrong column") {
    auto r = verify_with({{"n", "2"}}, [](sdc::RecurrentArtifact& a) {
      a.program = sdc::alg3_program(2, sdc::Alg3Threshold::Fixed,
                                    [](const std::vector<std::int64_t>& row, unsigned n) { return row[n - 1] == 1; });
    });
    CHECK(r.failed > 0);
  }
  SUBCASE("the paper's threshold under the exact-state claim") {
    auto r = verify_with({{"n", "2"}}, [](sdc::RecurrentArtifact& a) {
      a.program = sdc::alg3_program(2, sdc::Alg3Threshold::Paper);
    });
    CHECK(r.failed > 0);
    REQUIRE(r.first);
    CHECK(r.first->second.message.find("stored set holds") != std::string::npos);
  }
  SUBCASE("storing the first set on the JRT prompt breaks the n·min bound") {
    auto r = verify_with({{"n", "2"}}, [](sdc::RecurrentArtifact& a) { a.program = sdc::store_first_program(2); });
    CHECK(r.failed > 0);
  }
}
