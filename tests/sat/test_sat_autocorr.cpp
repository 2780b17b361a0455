// --method sat for mqar/autocorrelation (app/engine/sat/sat_data.h), at sizes that take well under a
// second each:
//   - the one circuit (constructions/mqar/autocorrelation_circuit.h: lags → kernels → model) gives
//     the per-instance model's exact output (autocorr_model, eval_exact) on sampled instances, for
//     every variant, lag rule, t, conv mode, paper offset and mutant;
//   - mutants (no smear, a wrong lag) refuted, each counterexample confirmed by the construction's
//     own check; the paper's row stacking (Errata E2) refuted, the fixed variant proved at n = 5;
//   - differential: --method sat proves exactly the configurations enumeration verifies.
#include <doctest/doctest.h>

#include <random>

#include "app/engine/engine.h"
#include "app/engine/sat/sat_data.h"
#include "circuits/eval.h"
#include "circuits/sat/int_miter.h"
#include "circuits/sat/solver.h"
#include "constructions/mqar/autocorrelation_circuit.h"
#include "tasks/mqar_domain.h"
#include "util/error.h"

using namespace cz;
namespace sat = cz::circuits::sat;

namespace {

mqarc::AutoConfig config(std::map<std::string, std::string> given) {
  const Construction& c = find_construction("mqar/autocorrelation");
  return mqarc::autocorr_config(Params::parse(c.params, given));
}

SatOutcome solve(const mqarc::AutoConfig& cfg) {
  SatProblem pr = sat_autocorr_problem(cfg);
  SatOptions o;
  o.threads = 1;
  return solve_sat_problem(pr, o, nlohmann::json::object());
}

// The circuit's output words on instance x, read back from its y[r][j]#k bits (two's complement).
Matrix<Int> circuit_output(const sat::IntArtifact& a, const mqar::Instance& x) {
  const Matrix<std::int64_t> u = mqar::encode(mqar::make_codec(mqar::Encoding::OneHot, x.c), x);
  const std::vector<Int> out = circuits::eval_integer(a.circuit, u.data());
  Matrix<Int> y(a.width.rows(), a.width.cols(), Int(0));
  std::size_t k = 0;
  for (std::size_t i = 0; i < y.rows(); ++i)
    for (std::size_t j = 0; j < y.cols(); ++j) {
      const std::size_t w = a.width(i, j);
      Int v(0);
      for (std::size_t b = 0; b < w; ++b)
        if (!out.at(k + b).is_zero()) v += (b + 1 == w ? Int(-1) : Int(1)) * sat_power(Int(2), b);
      y(i, j) = v;
      k += w;
    }
  return y;
}

void require_solver() {
  REQUIRE_MESSAGE(circuits::sat::find_solver("cadical"), "cadical is not on PATH (scripts/setup.sh installs it)");
}

}  // namespace

TEST_CASE("sat-autocorr: the circuit equals the per-instance model on sampled instances") {
  std::vector<std::map<std::string, std::string>> configs;
  for (const char* lags : {"qk", "autocorr"})
    for (const char* t : {"0", "1", "2"})
      for (const char* conv : {"causal", "cyclic"}) {
        configs.push_back({{"variant", "fixed"}, {"lags", lags}, {"t", t}, {"conv", conv}});
        for (const char* off : {"printed", "block"})
          configs.push_back({{"variant", "paper"}, {"lags", lags}, {"t", t}, {"conv", conv}, {"paper_offset", off}});
      }
  int compared = 0;
  for (auto given : configs)
    for (const auto& [n, c] : std::vector<std::pair<int, int>>{{3, 3}, {4, 5}})
      for (auto mutant : {mqarc::Mutant::None, mqarc::Mutant::DropSmear, mqarc::Mutant::WrongLag}) {
        if (mutant != mqarc::Mutant::None && given["variant"] == "paper") continue;
        given["n"] = std::to_string(n);
        given["c"] = std::to_string(c);
        mqarc::AutoConfig cfg = config(given);
        cfg.mutant = mutant;
        const sat::IntInputs in = sat::IntInputs::bits(3 * n, c, [](std::size_t, std::size_t) { return true; });
        const sat::IntArtifact a = sat::artifact_circuit(
            in, [&](sat::WordBuilder& wb, const Matrix<sat::Word>& u) { return mqarc::autocorr_words(wb, cfg, u); }, 1024);
        const mqar::Domain dom = mqar::triples_sampled(n, c, 40, 7);
        for (std::uint64_t k = 0; k < dom.count; ++k) {
          const mqar::Instance x = dom.instance(k);
          const Matrix<std::int64_t> u = mqar::encode(mqar::make_codec(mqar::Encoding::OneHot, c), x);
          INFO(given["variant"] << " " << given["lags"] << " t=" << given["t"] << " " << given["conv"] << " " << given["paper_offset"]
                                << " n=" << n << " mutant " << static_cast<int>(mutant) << " instance " << k);
          REQUIRE(circuit_output(a, x) == mqarc::eval_exact(mqarc::autocorr_model(cfg, x), u));
          ++compared;
        }
      }
  CHECK(compared == 2 * (12 * 3 + 24) * 40);
}

TEST_CASE("sat-autocorr: fixed proved, the paper's row stacking (E2) and mutants refuted, confirmed by the check") {
  require_solver();
  SatOptions o;
  o.threads = 1;
  const SatOutcome d = run_verify_sat(find_construction("mqar/autocorrelation"), {}, o);  // the defaults
  CHECK(d.verdict == "proved");
  CHECK(d.report["instances"] == 6 * 27 * 27);
  const SatOutcome r = solve(config({{"n", "5"}, {"c", "6"}}));
  CHECK(r.verdict == "proved");
  CHECK(r.report["instances"] == 720LL * 7776 * 7776);  // P(6,5)·6^5·6^5
  // E2: the row stacking loses every answer outside the first block once t >= 2 (causal).
  const SatOutcome e2 = run_verify_sat(find_construction("mqar/autocorrelation"), {{"variant", "paper"}, {"n", "4"}, {"c", "4"}}, o);
  CHECK(e2.verdict == "refuted");
  REQUIRE(e2.counterexample);
  CHECK(e2.counterexample->instance["artifact"]["t"].get<int>() >= 2);
  for (auto mutant : {mqarc::Mutant::DropSmear, mqarc::Mutant::WrongLag}) {
    mqarc::AutoConfig cfg = config({{"n", "4"}, {"c", "4"}});
    cfg.mutant = mutant;
    const SatOutcome m = solve(cfg);
    CHECK(m.verdict == "refuted");
    CHECK(m.exit_code == 1);
    REQUIRE(m.counterexample);
    CHECK(m.counterexample->instance.contains("tokens"));
  }
  CHECK_THROWS_AS(run_verify_sat(find_construction("mqar/autocorrelation"), {{"layout", "zoology"}}, o), InputError);
}

TEST_CASE("sat-autocorr: --method sat proves exactly the configurations enumeration verifies") {
  require_solver();
  const Construction& c = find_construction("mqar/autocorrelation");
  int proved = 0, refuted = 0;
  for (const char* variant : {"fixed", "paper"})
    for (const char* lags : {"qk", "autocorr"})
      for (const char* t : {"0", "1", "2"})
        for (const char* conv : {"causal", "cyclic"})
          for (const char* off : {"printed", "block"}) {
            if (std::string(variant) == "fixed" && std::string(off) == "block") continue;
            const std::map<std::string, std::string> given{{"n", "3"}, {"c", "3"},      {"variant", variant}, {"lags", lags},
                                                           {"t", t},   {"conv", conv}, {"paper_offset", off}};
            INFO(variant << " " << lags << " t=" << t << " " << conv << " " << off);
            const Params p = Params::parse(c.params, given);
            const Built bt = c.build(p);
            DomainOptions dopt;
            dopt.force_exhaustive = true;
            const Check chk = c.check(p, bt, dopt);
            const bool enum_ok = !run_domain(chk, 1, "differential").first.has_value();
            SatOptions o;
            o.threads = 1;
            const SatOutcome s = run_verify_sat(c, given, o);
            CHECK(s.report["instances"] == chk.instances);
            CHECK(s.verdict == (enum_ok ? "proved" : "refuted"));
            (enum_ok ? proved : refuted)++;
          }
  // Both verdicts occur: fixed with enough lags is right; t = 1, autocorr and E2 are not.
  CHECK(proved >= 2);
  CHECK(refuted >= 10);
}
