// mqar/dyadic end to end (small domains; the big exhaustive runs are made with the CLI):
//   - variant=fixed and variant=merge verify exhaustively (n = 2) and on samples (n = 4, 8) in
//     binary, one-hot and p-hot encodings; the compiled BaseConv model verifies too;
//   - variant=paper (eq 17 as published) and prefix=lsb (E6) are refuted with counterexamples,
//     including the spec's own LSB-first one;
//   - mutants (a flipped comparator, an off-by-one dyadic block) are caught;
//   - the bit-sliced verdicts agree with exact evaluation of the circuit, instance by instance.
#include <doctest/doctest.h>

#include <algorithm>

#include "circuits/eval.h"
#include "constructions/mqar/dyadic_check.h"
#include "tasks/mqar_reference.h"
#include "tests/seed.h"
#include "util/error.h"
#include "app/engine/engine.h"

using namespace cz;
using namespace cz::mqarc;

namespace {
Report verify(std::map<std::string, std::string> p, DomainOptions o = {}) {
  o.threads = 2;
  return run_verify(find_construction("mqar/dyadic"), p, o);
}

DomainOptions samples(std::uint64_t k) {
  DomainOptions o;
  o.samples = k;
  o.seed = test::seed();
  return o;
}

RunResult run_mutant(std::size_t n, std::size_t c, DyVariant v, DyMutant mu, std::uint64_t count) {
  DyadicConfig cfg;
  cfg.n = n;
  cfg.codec = mqar::make_codec(mqar::Encoding::Binary, c);
  cfg.variant = v;
  cfg.mutant = mu;
  auto dc = std::make_shared<const DyadicCircuit>(build_dyadic(cfg));
  return run_domain(dyadic_check(mqar::triples_sampled(n, c, count, test::seed()), dc, cfg.codec), 2, "mutant");
}
}  // namespace

TEST_CASE("variant=fixed verifies exhaustively at n=2 in every encoding") {
  INFO("seed " << test::seed());
  for (auto [enc, c] : std::vector<std::pair<std::string, std::string>>{{"binary", "4"}, {"onehot", "4"}, {"phot", "4"}, {"binary", "5"}}) {
    INFO(enc << " c=" << c);
    Report r = verify({{"n", "2"}, {"c", c}, {"encoding", enc}});
    CHECK(r.domain == "exhaustive");
    CHECK(r.instances == mqar::triples_count(2, std::stoul(c)));
    CHECK(r.failed == 0);
    CHECK(r.exit_code() == 0);
  }
}

TEST_CASE("fixed and merge verify on seeded samples at n = 4, 8, 16") {
  INFO("seed " << test::seed());
  for (std::string v : {"fixed", "merge"})
    for (auto [n, c] : std::vector<std::pair<std::string, std::string>>{{"4", "4"}, {"8", "8"}, {"16", "32"}})
      for (std::string enc : {"binary", "onehot"}) {
        INFO(v << " n=" << n << " " << enc);
        Report r = verify({{"n", n}, {"c", c}, {"variant", v}, {"encoding", enc}}, samples(2048));
        CHECK(r.instances == 2048);
        CHECK(r.failed == 0);
      }
}

TEST_CASE("eq (17) as published fails inside Alg. 11 (n = 4), with a counterexample") {
  Report ok = verify({{"n", "2"}, {"variant", "paper"}});  // one key per block: eq (17)'s halves are empty
  CHECK(ok.failed == 0);
  Report r = verify({{"n", "4"}, {"variant", "paper"}}, samples(4096));
  CHECK(r.failed > 0);
  CHECK(r.exit_code() == 1);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->message.find("query") != std::string::npos);
  CHECK(r.counterexample->message.find("disagree") == std::string::npos);
}

TEST_CASE("inside Alg. 11 (n = 4, c = 4), eq (17) breaks 1,280 of the 6,144 key/query instances (spec §13)") {
  // Keys: the 24 orders of 0..3; queries: all 4^4; values fixed to (0, 1, 2, 3).
  auto xs = std::make_shared<std::vector<mqar::Instance>>();
  std::vector<std::int64_t> keys = {0, 1, 2, 3};
  do {
    for (int q = 0; q < 256; ++q)
      xs->push_back(mqar::make_triples(4, keys, {0, 1, 2, 3}, {q & 3, (q >> 2) & 3, (q >> 4) & 3, (q >> 6) & 3}));
  } while (std::next_permutation(keys.begin(), keys.end()));
  REQUIRE(xs->size() == 6144);
  auto failures = [&](DyVariant v, DyPrefix pre) {
    DyadicConfig cfg;
    cfg.n = 4;
    cfg.codec = mqar::make_codec(mqar::Encoding::Binary, 4);
    cfg.variant = v;
    cfg.prefix = pre;
    auto dc = std::make_shared<const DyadicCircuit>(build_dyadic(cfg));
    return run_domain(dyadic_check(mqar::from_list(xs, "n=4 key/query instances"), dc, cfg.codec), 2, "kq").failed;
  };
  CHECK(failures(DyVariant::PbsPaper, DyPrefix::Msb) == 1280);
  CHECK(failures(DyVariant::PbsFixed, DyPrefix::Msb) == 0);
  CHECK(failures(DyVariant::Merge, DyPrefix::Msb) == 0);
  CHECK(failures(DyVariant::PbsFixed, DyPrefix::Lsb) == 2688);  // E6; 688,128 = 2,688 · 4^4 with all values
}

TEST_CASE("LSB-first dyadic prefixes miss pairs (Errata E6), e.g. the spec's instance") {
  Report r = verify({{"n", "4"}, {"prefix", "lsb"}}, samples(4096));
  CHECK(r.failed > 0);
  // keys (0,1,2,3), queries (0,0,1,0): query 2 must find key 1 (value 1); LSB-first gives null.
  auto xs = std::make_shared<std::vector<mqar::Instance>>();
  xs->push_back(mqar::make_triples(4, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 0, 1, 0}));
  for (auto prefix : {DyPrefix::Lsb, DyPrefix::Msb}) {
    DyadicConfig cfg;
    cfg.n = 4;
    cfg.codec = mqar::make_codec(mqar::Encoding::Binary, 4);
    cfg.prefix = prefix;
    auto dc = std::make_shared<const DyadicCircuit>(build_dyadic(cfg));
    RunResult rr = run_domain(dyadic_check(mqar::from_list(xs, "spec E6 instance"), dc, cfg.codec), 1, "e6");
    CHECK(rr.failed == (prefix == DyPrefix::Lsb ? 1u : 0u));
    if (rr.first) CHECK(rr.first->second.message.find("query 2 (row 8) answers token 0 (found=0), want token 1") != std::string::npos);
  }
}

TEST_CASE("mutants are caught: a flipped comparator, an off-by-one dyadic block") {
  INFO("seed " << test::seed());
  for (DyVariant v : {DyVariant::PbsFixed, DyVariant::Merge}) {
    CHECK(run_mutant(4, 4, v, DyMutant::None, 4096).failed == 0);
    RunResult flip = run_mutant(4, 4, v, DyMutant::FlipComparator, 4096);
    CHECK(flip.failed > 0);
    RunResult off = run_mutant(4, 4, v, DyMutant::BlockOffByOne, 4096);
    CHECK(off.failed > 0);
    REQUIRE(off.first);
    CHECK(!off.first->second.message.empty());
  }
}

TEST_CASE("bit-sliced verdicts agree with exact evaluation and with the reference") {
  auto rng = test::rng(41);
  INFO("seed " << test::seed());
  for (DyVariant v : {DyVariant::PbsFixed, DyVariant::Merge, DyVariant::PbsPaper}) {
    DyadicConfig cfg;
    cfg.n = 8;
    cfg.codec = mqar::make_codec(mqar::Encoding::Binary, 8);
    cfg.variant = v;
    const DyadicCircuit dc = build_dyadic(cfg);
    CHECK(dc.circuit->all_outputs_bit());
    std::size_t disagreements = 0;
    for (int t = 0; t < 200; ++t) {
      const mqar::Instance x = mqar::triples_sample(8, 8, rng(), 0);
      const auto u = mqar::encode(cfg.codec, x);
      const auto out = circuits::eval_integer(*dc.circuit, std::vector<std::int64_t>(u.data().begin(), u.data().end()));
      const auto ans = mqar::reference_answers(x);
      bool ok = true;
      for (std::size_t i = 0; i < 8; ++i) {
        std::int64_t val = 0;
        for (std::size_t j = 0; j < 3; ++j) val |= out[i * 4 + j].to_int64() << j;
        ok = ok && out[i * 4 + 3].to_int64() == (ans[i] ? 1 : 0) && val == ans[i].value_or(0);
      }
      disagreements += !ok;
    }
    if (v == DyVariant::PbsPaper) CHECK(disagreements > 0);
    else CHECK(disagreements == 0);
  }
}

TEST_CASE("the compiled BaseConv model verifies exhaustively at n=2 (binary, whole matrices)") {
  Report r = verify({{"n", "2"}, {"c", "4"}, {"artifact", "model"}});
  CHECK(r.domain == "exhaustive");
  CHECK(r.failed == 0);
  REQUIRE(r.model);
  CHECK((*r.model)["N"] == 6);
  CHECK((*r.model)["d"] == 2);
  bool layers_claim = false;
  for (const auto& c : r.claims)
    if (c.quantity == "layers" && c.binding) layers_claim = c.holds.value_or(false);
  CHECK(layers_claim);
}

TEST_CASE("query sorting is not causal: artifact=model needs queries=each, which verifies at n=4") {
  try {
    verify({{"n", "4"}, {"artifact", "model"}});
    FAIL("compiled a non-causal circuit");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("causal") != std::string::npos);
  }
  Report r = verify({{"n", "4"}, {"artifact", "model"}, {"queries", "each"}}, samples(1000));
  CHECK(r.failed == 0);
  REQUIRE(r.model);
  CHECK((*r.model)["N"] == 12);
  Report c = verify({{"n", "8"}, {"c", "8"}, {"queries", "each"}}, samples(2048));
  CHECK(c.failed == 0);
}

TEST_CASE("dyadic: bad parameters are input errors") {
  CHECK_THROWS_AS(verify({{"variant", "merge"}, {"queries", "each"}}), InputError);
  CHECK_THROWS_AS(verify({{"n", "3"}}), InputError);
  CHECK_THROWS_AS(verify({{"n", "8"}, {"c", "4"}}), InputError);
  CHECK_THROWS_AS(verify({{"n", "64"}, {"artifact", "model"}, {"c", "64"}}), InputError);
}
