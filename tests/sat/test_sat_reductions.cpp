// --method sat for the reductions (app/engine/sat/sat_reductions.h, sat_sd.h), at sizes well under a second:
//   - the EQ and GAR reference circuits (circuits/reference/eq_ref.h, gar_ref.h) equal src/tasks on
//     every instance of small domains, and their `domain` holds on exactly those instances' encodings;
//   - the gar/via-sd circuit gives gar_via_sd's answers on every small instance (oracles: Alg. 3,
//     a mutated Alg. 3, the plain intersection);
//   - eq/via-mqar, gar/via-sd and sd/via-gar proved at their defaults and beyond; mutants refuted
//     with counterexamples the construction's check confirms; a circuit-only mutant never reported;
//   - differential: --method sat proves exactly the configurations enumeration verifies.
#include <doctest/doctest.h>

#include <set>

#include "app/engine/engine.h"
#include "app/engine/sat/sat_reductions.h"
#include "app/engine/sat/sat_sd.h"
#include "circuits/eval.h"
#include "circuits/gadgets_bits.h"
#include "circuits/reference/eq_ref.h"
#include "circuits/reference/gar_ref.h"
#include "circuits/sat/solver.h"
#include "constructions/gar/gar_via_sd_circuit.h"
#include "constructions/gar/via_sd.h"
#include "constructions/mqar/solvers.h"
#include "constructions/mqar/sparse_model.h"
#include "constructions/sd/domain.h"
#include "util/error.h"

using namespace cz;
namespace ref = cz::circuits::reference;
namespace g = cz::circuits::gadgets;

namespace {

bool require_cadical() {
  REQUIRE_MESSAGE(circuits::sat::find_solver("cadical"), "cadical is not on PATH (scripts/setup.sh installs it)");
  return true;
}

void push_word(std::vector<std::int64_t>& v, std::uint64_t x, unsigned w) {
  for (unsigned k = 0; k < w; ++k) v.push_back((x >> k) & 1);
}

std::vector<std::int64_t> gar_bits(const gar::Instance& x) {
  const unsigned w = ref::token_width(x.c);
  std::vector<std::int64_t> v;
  for (auto t : x.keys) push_word(v, t, w);
  for (auto t : x.values) push_word(v, t, w);
  for (auto t : x.queries) push_word(v, t, w);
  return v;
}

SatOutcome solve(SatProblem pr) {
  SatOptions o;
  o.threads = 1;
  return solve_sat_problem(pr, o, nlohmann::json::object());
}

// Alg. 3 mutants (as test_sat_sd.cpp's): compare B reads the separator row too; store B skips B's first row.
sdc::Alg3Rules compare_b_off_by_one() {
  auto r = sdc::alg3_rules(sdc::Alg3Threshold::Fixed);
  r.compare_b = [](std::size_t i, std::size_t N, std::size_t isep) { return i >= N + isep; };
  return r;
}
sdc::Alg3Rules store_b_short() {
  auto r = sdc::alg3_rules(sdc::Alg3Threshold::Fixed);
  r.store_b = [](std::size_t i, std::size_t N, std::size_t isep) { return i > isep + 1 && i < N; };
  return r;
}

// eq/via-mqar's model for c (mqar/attention's one triples model for 4 triples), optionally mutated.
Model eq_model(std::uint32_t c, mqarc::AttnMutant mu = mqarc::AttnMutant::None) {
  mqar::TaskShape s;
  s.layout = mqar::Layout::Triples;
  s.n = s.K = 4;
  s.N = 12;
  s.c = c;
  return to_model(mqarc::attention_model(mqarc::worst_case_instance(s), mu));
}
// The check of one EQ instance on that solver, as eq/via-mqar's check decodes (q1 or any).
EqFailure eq_failure(std::uint32_t c, mqarc::AttnMutant mu, bool any) {
  mqar::TaskShape s;
  s.layout = mqar::Layout::Triples;
  s.n = s.K = 4;
  s.N = 12;
  s.c = c;
  auto sol = std::make_shared<const MqarSolver>(mqarc::attention_solver(s, mu));
  return [sol, any](const eq::Instance& x) -> std::optional<Failure> {
    const Matrix<Int> out = sol->run(eq::to_mqar(x)).output;
    bool got = false;
    if (!any) {
      const mqar::Decoded d = mqar::decode_row(sol->codec, out, 5);
      got = d.kind == mqar::Decoded::Token && d.token == 1;
    } else {
      for (std::size_t r : {5, 8, 11})
        for (std::size_t j = 0; j < out.cols(); ++j) got = got || !out(r, j).is_zero();
    }
    if (got == eq::equal(x)) return std::nullopt;
    Failure f;
    f.message = "EQ decoded wrongly";
    return f;
  };
}

// SD via GAR (solver=reference) mutant: a GAR solver that ignores the keys' top bit, as wires and as C++.
const garc::GarAnsweredWires low_wires = [](circuits::Builder& b, const std::vector<g::Bits>& keys, const std::vector<g::Bits>&,
                                            const std::vector<g::Bits>& queries) {
  std::vector<circuits::Wire> found;
  for (const auto& q : queries) {
    std::vector<circuits::Wire> hit;
    for (const auto& k : keys) {
      std::vector<circuits::Wire> same;
      for (std::size_t t = 0; t + 1 < q.size(); ++t) same.push_back(g::xnor_(b, q[t], k[t]));
      hit.push_back(g::and_all(b, same));
    }
    found.push_back(g::or_all(b, hit));
  }
  return found;
};
const garc::GarSolver low = [](const gar::Instance& x) {
  std::vector<std::optional<std::uint32_t>> a;
  const std::uint32_t mask = (x.c - 1) >> 1;
  for (auto q : x.queries) {
    std::optional<std::uint32_t> v;
    for (std::size_t j = 0; j < x.keys.size(); ++j)
      if ((x.keys[j] & mask) == (q & mask)) v = x.values[j];
    a.push_back(v);
  }
  return a;
};
const garc::GarAnsweredWires ref_wires = [](circuits::Builder& b, const std::vector<g::Bits>& keys, const std::vector<g::Bits>& values,
                                            const std::vector<g::Bits>& queries) {
  return ref::gar_answers(b, keys, values, queries).found;
};

}  // namespace

TEST_CASE("sat-reductions: the EQ reference circuit equals src/tasks and its domain is exactly the c^2 pairs") {
  for (std::uint32_t c : {2u, 3u, 5u, 8u}) {
    INFO("c=" << c);
    const circuits::Circuit rc = ref::eq_reference_circuit(c);
    const unsigned w = ref::token_width(c);
    std::uint64_t in_domain = 0;
    for (std::uint64_t a = 0; a < (std::uint64_t(1) << w); ++a)
      for (std::uint64_t b = 0; b < (std::uint64_t(1) << w); ++b) {
        std::vector<std::int64_t> in;
        push_word(in, a, w);
        push_word(in, b, w);
        const auto out = circuits::eval_integer(rc, in);
        const bool dom = a < c && b < c;
        CHECK(out[0] == Int(dom ? 1 : 0));
        if (dom) {
          ++in_domain;
          CHECK(out[1] == Int(eq::equal(eq::Instance{c, std::uint32_t(a), std::uint32_t(b)}) ? 1 : 0));
        }
      }
    CHECK(in_domain == std::uint64_t(c) * c);
  }
}

TEST_CASE("sat-reductions: the GAR reference circuit equals gar::solve on every small instance") {
  struct S {
    std::uint32_t c;
    std::size_t nk, m;
  };
  for (const S s : {S{3, 2, 2}, S{4, 1, 2}, S{2, 2, 1}, S{4, 3, 1}}) {
    INFO("c=" << s.c << " nk=" << s.nk << " m=" << s.m);
    const circuits::Circuit rc = ref::gar_reference_circuit({s.c, s.nk, s.m});
    const unsigned w = ref::token_width(s.c);
    const std::uint64_t count = *gar::count(s.c, s.nk, s.m);
    for (std::uint64_t k = 0; k < count; ++k) {
      const gar::Instance x = gar::instance(s.c, s.nk, s.m, k);
      const auto out = circuits::eval_integer(rc, gar_bits(x));
      REQUIRE(out[0] == Int(1));
      const auto want = gar::solve(x);
      for (std::size_t i = 0; i < s.m; ++i) {
        CHECK(out[1 + i] == Int(want[i] ? 1 : 0));
        std::uint32_t v = 0;
        for (unsigned t = 0; t < w; ++t) v |= static_cast<std::uint32_t>(out[1 + s.m + i * w + t] == Int(1)) << t;
        CHECK(v == (want[i] ? *want[i] : 0u));
      }
    }
    // Every bit pattern: domain = 1 exactly count times (each such input is one of the instances above).
    const std::size_t bits = (2 * s.nk + s.m) * w;
    REQUIRE(bits <= 16);
    std::uint64_t got = 0;
    for (std::uint64_t pat = 0; pat < (std::uint64_t(1) << bits); ++pat) {
      std::vector<std::int64_t> in(bits);
      for (std::size_t t = 0; t < bits; ++t) in[t] = (pat >> t) & 1;
      got += circuits::eval_integer(rc, in)[0] == Int(1);
    }
    CHECK(got == count);
  }
}

TEST_CASE("sat-reductions: the gar/via-sd circuit gives the reduction's answers on every small instance") {
  struct O {
    const char* name;
    garc::SdOracleWires wires;
    garc::SdOracle oracle;
  };
  const std::vector<O> oracles = {
      {"alg3", garc::alg3_oracle_wires(sdc::alg3_rules(sdc::Alg3Threshold::Fixed)), garc::recurrent_oracle(2)},
      {"alg3 compare_b off by one", garc::alg3_oracle_wires(compare_b_off_by_one()), garc::recurrent_oracle(2, compare_b_off_by_one())},
      {"intersection", garc::reference_oracle_wires(), garc::reference_oracle()}};
  for (const auto& o : oracles)
    for (std::size_t m : {1u, 3u}) {
      INFO(o.name << " m=" << m);
      const std::uint32_t c = 4;
      const std::size_t nk = 2;
      const circuits::Circuit circ = garc::gar_via_sd_circuit(c, nk, m, o.wires);
      const unsigned d = garc::code_bits(c);
      const std::uint64_t count = *gar::count(c, nk, m);
      for (std::uint64_t k = 0; k < count; k += 7) {
        const gar::Instance x = gar::instance(c, nk, m, k);
        const auto out = circuits::eval_integer(circ, gar_bits(x));
        const auto want = garc::gar_via_sd(x, o.oracle).answers;
        for (std::size_t i = 0; i < m; ++i) {
          std::uint32_t v = 0;
          for (unsigned t = 0; t < d; ++t) v |= static_cast<std::uint32_t>(out[m + i * d + t] == Int(1)) << t;
          CHECK(out[i] == Int(want[i] ? 1 : 0));
          if (want[i]) CHECK(v == *want[i]);
        }
      }
    }
}

TEST_CASE("sat-reductions: proved at the defaults and beyond, and list shows sat") {
  require_cadical();
  SatOptions o;
  o.threads = 1;
  struct R {
    const char* name;
    std::map<std::string, std::string> p;
    long long instances;
  };
  for (const R& r : {R{"eq/via-mqar", {}, 64}, R{"gar/via-sd", {}, 3072}, R{"sd/via-gar", {}, 256},
                     R{"eq/via-mqar", {{"c", "32"}}, 1024}, R{"gar/via-sd", {{"c", "64"}}, 67645734912LL},
                     R{"gar/via-sd", {{"c", "16"}, {"nk", "3"}, {"m", "3"}, {"oracle", "reference"}}, 56371445760LL},
                     R{"sd/via-gar", {{"n", "8"}, {"domain", "orders"}, {"kmax", "3"}}, 277111189275649LL}}) {
    INFO(r.name);
    const Construction& c = find_construction(r.name);
    const SatOutcome s = run_verify_sat(c, r.p, o);
    CHECK(s.verdict == "proved");
    CHECK(s.report["instances"] == r.instances);
    const Params p = Params::parse(c.params, r.p);
    CHECK(sat_covers(c, p, c.build(p)));
  }
  // Refusals, each with its reason (exit 2).
  CHECK_THROWS_AS(run_verify_sat(find_construction("eq/via-mqar"), {{"solver", "reference"}}, o), InputError);
  CHECK_THROWS_AS(run_verify_sat(find_construction("gar/via-sd"), {{"oracle", "based"}}, o), InputError);
  CHECK_THROWS_AS(run_verify_sat(find_construction("gar/via-sd"), {{"nk", "8"}, {"m", "8"}, {"c", "8"}}, o), InputError);
}

TEST_CASE("eq/via-mqar at c = 2 and 3 (more triples than tokens) verifies and proves, decode=any refuted") {
  // The 4-triple JRT prompt's MQAR model is sized on a worst-case instance; its keys wrap below c = 4
  // (was: an input error, key token 2 outside [0, 2)).
  require_cadical();
  SatOptions o;
  o.threads = 1;
  const Construction& c = find_construction("eq/via-mqar");
  for (const char* cv : {"2", "3"}) {
    INFO("c = " << cv);
    const std::map<std::string, std::string> given = {{"c", cv}};
    const SatOutcome s = run_verify_sat(c, given, o);
    CHECK(s.verdict == "proved");
    const long long cc = std::stoll(cv);
    CHECK(s.report["instances"] == cc * cc);
    const Params p = Params::parse(c.params, given);
    const Built b = c.build(p);
    const RunResult r = run_domain(c.check(p, b, DomainOptions{}), 1, "", RunPlan{true, 0});
    CHECK(r.failed == 0);
    std::map<std::string, std::string> any = given;
    any["decode"] = "any";
    CHECK(run_verify_sat(c, any, o).verdict == "refuted");
    const Params pa = Params::parse(c.params, any);
    CHECK(run_domain(c.check(pa, c.build(pa), DomainOptions{}), 1, "", RunPlan{true, 0}).failed > 0);
  }
}

TEST_CASE("sat-reductions: mutants are refuted with confirmed counterexamples, and circuit-only mutants never reported") {
  require_cadical();
  // EQ: the paper's literal decoding (some query matches), and the attention model whose own
  // triple's key is visible (query 1 then always matches).
  for (const auto& [mu, any] : {std::pair{mqarc::AttnMutant::None, true}, std::pair{mqarc::AttnMutant::SameTriple, false}}) {
    const EqFailure fail = eq_failure(8, mu, any);
    const SatOutcome r = solve(sat_eq_problem(8, eq_model(8, mu), any, fail));
    REQUIRE(r.verdict == "refuted");
    const auto& ci = r.counterexample->instance;
    CHECK(ci["from"] == "the SAT model");
    CHECK(fail(eq::Instance{8, ci["u1"].get<std::uint32_t>(), ci["u2"].get<std::uint32_t>()}).has_value());
  }
  // ... the registered run (decode=any): confirmed by eq/via-mqar's own check.
  SatOptions o;
  o.threads = 1;
  CHECK(run_verify_sat(find_construction("eq/via-mqar"), {{"decode", "any"}}, o).verdict == "refuted");
  // A mutated model in the circuit only: its SAT model is an instance the construction gets right.
  CHECK_THROWS_AS(solve(sat_eq_problem(8, eq_model(8, mqarc::AttnMutant::SameTriple), false,
                                       eq_failure(8, mqarc::AttnMutant::None, false))),
                  std::runtime_error);

  // GAR via SD: Alg. 3 mutated in the oracle (circuit and confirming oracle alike).
  for (const auto& rules : {compare_b_off_by_one(), store_b_short()}) {
    const garc::SdOracle so = garc::recurrent_oracle(3, rules);
    const SatOutcome r = solve(sat_gar_problem(8, 2, 2, garc::alg3_oracle_wires(rules), "mutant",
                                               [so](const gar::Instance& x) { return garc::gar_via_sd_failure(so, x); }));
    REQUIRE(r.verdict == "refuted");
    const auto& ci = r.counterexample->instance;
    const gar::Instance x{8, ci["keys"].get<std::vector<std::uint32_t>>(), ci["values"].get<std::vector<std::uint32_t>>(),
                          ci["queries"].get<std::vector<std::uint32_t>>()};
    CHECK(garc::gar_via_sd_failure(so, x).has_value());
    CHECK(!garc::gar_via_sd_failure(garc::recurrent_oracle(3), x).has_value());
  }
  const garc::SdOracle good = garc::recurrent_oracle(3);
  CHECK_THROWS_AS(solve(sat_gar_problem(8, 2, 2, garc::alg3_oracle_wires(store_b_short()), "circuit-only mutant",
                                        [good](const gar::Instance& x) { return garc::gar_via_sd_failure(good, x); })),
                  std::runtime_error);

  const Construction& sg = find_construction("sd/via-gar");
  const Params p = Params::parse(sg.params, {{"n", "3"}, {"domain", "orders"}, {"kmax", "2"}});
  SatOutcome r = solve(sat_sd_via_gar_reference_problem(p, low_wires, low));
  REQUIRE(r.verdict == "refuted");
  const auto& ci = r.counterexample->instance;
  CHECK(garc::sd_via_gar_failure(low, sd::Instance{3, ci["A"].get<std::vector<std::uint32_t>>(), ci["B"].get<std::vector<std::uint32_t>>()})
            .has_value());
  CHECK_THROWS_AS(solve(sat_sd_via_gar_reference_problem(p, low_wires, garc::gar_solver_via(garc::SdOracle{}))), std::runtime_error);
}

TEST_CASE("sat-reductions: --method sat proves exactly the configurations enumeration verifies") {
  require_cadical();
  int verified = 0, failed = 0;
  // eq/via-mqar: decodings and attention mutants; enumeration = every pair through the solver.
  for (std::uint32_t c : {4u, 5u})  // c >= 4: mqar/attention's 4-triple model needs 4 distinct keys (c = 2, 3 refused)
    for (bool any : {false, true})
      for (auto mu : {mqarc::AttnMutant::None, mqarc::AttnMutant::SameTriple, mqarc::AttnMutant::NoQueryMask}) {
        INFO("eq c=" << c << " any=" << any << " mutant=" << int(mu));
        const EqFailure fail = eq_failure(c, mu, any);
        bool enum_ok = true;
        for (std::uint32_t k = 0; k < c * c && enum_ok; ++k) enum_ok = !fail(eq::instance(c, k));
        if (mu == mqarc::AttnMutant::None) {  // the registered check agrees
          const Construction& ec = find_construction("eq/via-mqar");
          const Params p = Params::parse(ec.params, {{"c", std::to_string(c)}, {"decode", any ? "any" : "q1"}});
          DomainOptions dopt;
          dopt.force_exhaustive = true;
          CHECK(!run_domain(ec.check(p, ec.build(p), dopt), 1, "differential").first.has_value() == enum_ok);
        }
        const SatOutcome s = solve(sat_eq_problem(c, eq_model(c, mu), any, fail));
        CHECK(s.report["instances"] == c * c);
        CHECK(s.verdict == (enum_ok ? "proved" : "refuted"));
        (enum_ok ? verified : failed)++;
      }
  // gar/via-sd: oracles (Alg. 3 and its mutants, the intersection) on small domains.
  struct G {
    std::uint32_t c;
    std::size_t nk, m;
  };
  for (const G gd : {G{3, 2, 2}, G{4, 1, 2}, G{4, 2, 1}})
    for (const auto& rules : {sdc::alg3_rules(sdc::Alg3Threshold::Fixed), compare_b_off_by_one(), store_b_short()}) {
      INFO("gar c=" << gd.c << " nk=" << gd.nk << " m=" << gd.m);
      const garc::SdOracle so = garc::recurrent_oracle(garc::token_bits(gd.c), rules);
      const GarFailure fail = [so](const gar::Instance& x) { return garc::gar_via_sd_failure(so, x); };
      bool enum_ok = true;
      const std::uint64_t count = *gar::count(gd.c, gd.nk, gd.m);
      for (std::uint64_t k = 0; k < count && enum_ok; ++k) enum_ok = !fail(gar::instance(gd.c, gd.nk, gd.m, k));
      const SatOutcome s = solve(sat_gar_problem(gd.c, gd.nk, gd.m, garc::alg3_oracle_wires(rules), "alg3", fail));
      CHECK(s.report["instances"] == count);
      CHECK(s.verdict == (enum_ok ? "proved" : "refuted"));
      (enum_ok ? verified : failed)++;
    }
  // gar/via-sd as registered (oracle recurrent and reference): the construction's enumeration agrees.
  for (const char* oracle : {"recurrent", "reference"}) {
    const Construction& gc = find_construction("gar/via-sd");
    const Params p = Params::parse(gc.params, {{"c", "3"}, {"oracle", oracle}});
    DomainOptions dopt;
    dopt.force_exhaustive = true;
    const bool enum_ok = !run_domain(gc.check(p, gc.build(p), dopt), 1, "differential").first.has_value();
    SatOptions o;
    o.threads = 1;
    CHECK(run_verify_sat(gc, {{"c", "3"}, {"oracle", oracle}}, o).verdict == (enum_ok ? "proved" : "refuted"));
  }
  // sd/via-gar solver=reference: the GAR reference circuit (and a mutant GAR solver) around Prop G.25.
  for (const auto& given : {std::map<std::string, std::string>{{"n", "2"}}, {{"n", "3"}, {"domain", "orders"}, {"kmax", "2"}}})
    for (bool mutant : {false, true}) {
      INFO("sd/via-gar n=" << given.at("n") << " mutant=" << mutant);
      const Construction& sg = find_construction("sd/via-gar");
      const Params p = Params::parse(sg.params, given);
      const garc::GarSolver solver = mutant ? low : garc::gar_solver_via(garc::SdOracle{});
      DomainOptions dopt;
      dopt.force_exhaustive = true;
      const sdc::SdDomain dom = sdc::make_sd_domain(p, dopt);
      bool enum_ok = true;
      for (std::uint64_t k = 0; k < dom.count && enum_ok; ++k) enum_ok = !garc::sd_via_gar_failure(solver, dom.instance(k));
      if (!mutant) CHECK(!run_domain(sg.check(p, sg.build(p), dopt), 1, "differential").first.has_value() == enum_ok);
      const SatOutcome s = solve(sat_sd_via_gar_reference_problem(p, mutant ? low_wires : ref_wires, solver));
      CHECK(s.report["instances"] == dom.count);
      CHECK(s.verdict == (enum_ok ? "proved" : "refuted"));
      (enum_ok ? verified : failed)++;
    }
  CHECK(verified > 0);
  CHECK(failed > 0);
}
