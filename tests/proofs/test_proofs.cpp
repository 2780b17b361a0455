// proofs-checks: every check holds at its fast sizes, and each one catches a mutant (a model with
// a non-causal tap, a wrong degree bound, a stack that drops a layer, a wrong lower bound).
#include <doctest/doctest.h>

#include "proofs-checks/checks.h"
#include "proofs-checks/proof.h"
#include "proofs-checks/symbolic.h"
#include "tests/seed.h"
#include "util/error.h"

using namespace cz;
using namespace cz::proofs;

TEST_CASE("every prove check holds at its fast sizes") {
  ProofOptions o;
  o.fast = true;
  o.seed = cz::test::seed();
  INFO("seed " << o.seed);
  CHECK(proof_registry().size() >= 8);
  for (const auto& c : proof_registry()) {
    ProofResult r = run_proof(c, o);
    INFO(c.name << ": " << r.verdict);
    CHECK(r.holds);
    CHECK(!r.verdict.empty());
    CHECK(!c.rows.empty());
  }
}

TEST_CASE("unknown prove check is an input error") { CHECK_THROWS_AS(find_proof("no/such"), InputError); }

TEST_CASE("causality mutant: a non-causal tap is caught") {
  // One layer y = 1 ⊙ (h*u) with a single tap at k = N-1: causal it is a shift down by N-1.
  Model m = random_baseconv(4, 1, 4, 1, 1, ConvMode::Causal, 1);
  auto& L = std::get<BaseConvLayer>(m.layers[0]);
  for (auto& e : L.W.data()) e = Rat(0);
  for (auto& e : L.b1.data()) e = Rat(1);
  for (auto& e : L.h.data()) e = Rat(0);
  for (auto& e : L.b2.data()) e = Rat(0);
  L.h(3, 0) = Rat(1);
  std::string why;
  auto ok = causality_violations(m, why);
  REQUIRE(ok);
  CHECK(ok->violations == 0);
  m.conv = ConvMode::Cyclic;  // the same tap now wraps around: row i reads row i+1
  auto bad = causality_violations(m, why);
  REQUIRE(bad);
  CHECK(bad->violations > 0);
  CHECK(bad->first.find("depends on input row") != std::string::npos);
}

TEST_CASE("random causal models never look ahead") {
  for (std::uint64_t k = 0; k < 6; ++k) {
    Model m = random_baseconv(4, 2, 5, 2, 1 + k % 3, ConvMode::Causal, cz::test::seed() + k);
    std::string why;
    auto c = causality_violations(m, why);
    REQUIRE(c);
    CHECK(c->violations == 0);
  }
}

TEST_CASE("degree mutant: a wrong bound 2^L - 1 is caught") {
  for (std::size_t L = 1; L <= 3; ++L) {
    Model m = random_baseconv(2, 2, 2, 2, L, ConvMode::Causal, cz::test::seed() + L);
    std::string why;
    CHECK(degree_within(m, 1L << L, why));
    CHECK_FALSE(degree_within(m, (1L << L) - 1, why));  // random dense models reach 2^L
    CHECK(why.find("degree") != std::string::npos);
    auto d = max_output_degree(m, why);
    REQUIRE(d);
    CHECK(*d == (1L << L));
  }
}

TEST_CASE("symbolic evaluation refuses non-BaseConv models") {
  Model m = random_baseconv(2, 1, 2, 1, 1, ConvMode::Causal, 3);
  m.layers.push_back(MlpLayer{});
  std::string why;
  CHECK_FALSE(symbolic_eval(m, why));
  CHECK(!why.empty());
}

TEST_CASE("degree lower bounds: EQ binary 2d, p-hot 2p, and a wrong lower bound is caught") {
  for (unsigned d = 1; d <= 4; ++d) CHECK(multilinear_degree(eq_binary_table(d), 2 * d) == static_cast<long>(2 * d));
  // Mutant table: compares only the lowest bit: degree 2, not 2d.
  std::vector<std::int64_t> f(1u << 6);
  for (std::size_t x = 0; x < f.size(); ++x) f[x] = (x & 1) == ((x >> 3) & 1);
  CHECK(multilinear_degree(f, 6) == 2);
  std::string why;
  CHECK(phot_eq_min_degree(2, 3, why) == 4);
  CHECK(phot_eq_min_degree(3, 2, why) == 6);
  // Claiming degree >= 2p + 1: the certificate must fail (a degree-2p monomial is not annihilated).
  CHECK(phot_eq_min_degree(2, 2, why, 5) == -1);
  CHECK(!why.empty());
}

TEST_CASE("SD matrices: full rank, distinct rows, JR-p state bound") {
  auto s = sd_matrix_stats(6, 2, 2, true);
  CHECK(s.rows == 15);
  CHECK(s.rank == 15);
  CHECK(s.distinct_rows == 15);
  auto t = sd_matrix_stats(4, 3, 1, false);
  CHECK(t.distinct_rows == 4);
  CHECK(jrp_min_states(15, 1) == 8);  // 2s >= 15
  CHECK(jrp_min_states(15, 2) == 2);  // (2s)^3 >= 15
  CHECK(jrp_min_states(1, 3) == 1);
  CHECK(ceil_log2(1) == 0);
  CHECK(ceil_log2(5) == 3);
}

TEST_CASE("stacking mutant: a stack that drops a layer is caught") {
  Model a = random_baseconv(4, 2, 4, 2, 2, ConvMode::Causal, cz::test::seed());
  Model b = random_baseconv(4, 2, 4, 2, 1, ConvMode::Causal, cz::test::seed() + 1);
  std::string why;
  Model c = stack(a, b);
  CHECK(stacking_holds(a, b, c, 1, why));
  Model dropped = c;
  dropped.layers.pop_back();
  CHECK_FALSE(stacking_holds(a, b, dropped, 1, why));
  Model swapped = stack(b, a);  // same layer count, wrong order
  CHECK_FALSE(stacking_holds(a, b, swapped, 1, why));
}

TEST_CASE("stacking with inner dims larger than outer: concatenation is not b∘a, stack_composing is") {
  // (4, L, 1, 6, 3) causal models: b would read a's columns >= d, which extraction drops.
  std::size_t naive_differs = 0;
  for (std::uint64_t k = 0; k < 4; ++k) {
    Model a = random_baseconv(4, 1, 6, 3, 1 + k % 2, ConvMode::Causal, cz::test::seed() + 10 * k);
    Model b = random_baseconv(4, 1, 6, 3, 1 + k / 2, ConvMode::Causal, cz::test::seed() + 10 * k + 1);
    std::string why;
    Model c = stack_composing(a, b);
    CHECK(c.layers.size() == a.layers.size() + b.layers.size());
    CHECK(stacking_holds(a, b, c, k, why));
    naive_differs += !stacking_holds(a, b, stack(a, b), k, why);
    // the cleaning is needed: drop it from the last layer and the stack is wrong again
    Model dirty = c;
    std::get<BaseConvLayer>(dirty.layers[a.layers.size() - 1]) = std::get<BaseConvLayer>(a.layers.back());
    CHECK_FALSE(stacking_holds(a, b, dirty, k, why));
  }
  CHECK(naive_differs >= 3);  // random weights: a zero column block is possible, not likely
  // Non-causal with N' > N: rows >= N wrap into rows < N, so no stack is offered.
  Model a = random_baseconv(4, 1, 6, 3, 1, ConvMode::Cyclic, 5), b = random_baseconv(4, 1, 6, 3, 1, ConvMode::Cyclic, 6);
  CHECK_THROWS_AS(stack_composing(a, b), std::invalid_argument);
}
