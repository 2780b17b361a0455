// The block path (verify/construction.h BlockWorker, issue 10) against the scalar run(k) path, the
// reference: on every construction's default domain and on mutants, the same number of failures
// and the same first counterexample (same index, same JSON) for several block sizes and thread
// counts. Mutants must fail on both paths (a block path that passes everything fails here).
#include <doctest/doctest.h>

#include "constructions/mqar/solvers.h"
#include "constructions/gar/via_sd_block.h"
#include "constructions/sd/based_jrt.h"
#include "constructions/sd/recurrent_jrt.h"
#include "tasks/gar.h"
#include "tests/lean.h"
#include "tests/seed.h"
#include "app/engine/engine.h"

using namespace cz;

namespace {

nlohmann::json failure_json(const Failure& f) {
  return {{"instance", f.instance}, {"input", f.input}, {"expected", f.expected}, {"got", f.got}, {"message", f.message}};
}

// Returns the scalar result; CHECKs every (threads, block size) of the block path against it.
RunResult same_paths(Check c, const std::string& what) {
  INFO(what << " (" << c.instances << " instances, block path: " << c.block_kind << ")");
  if (!c.block) c.block = scalar_blocks(c.run);  // checks without a block path: the engine's blocks over run(k)
  const RunResult ref = run_domain(c, 2, "", RunPlan{true, 0});
  // Under the sanitizers (tests/lean.h) the grid keeps one of each kind: one thread and several,
  // blocks of one instance, of a few and of thousands; threads=2 and B=500 repeat those kinds.
  const bool lean = test::lean();
  for (unsigned threads : {1u, 2u, 3u})
    for (std::uint64_t B : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{500}, std::uint64_t{4096}}) {
      if (B == 1 && c.instances > 20000) continue;  // one instance per block is slow on big domains; covered below
      if (lean && (threads == 2 || B == 500)) continue;
      INFO("threads=" << threads << " block=" << B);
      const RunResult got = run_domain(c, threads, "", RunPlan{false, B});
      CHECK(got.failed == ref.failed);
      REQUIRE(got.first.has_value() == ref.first.has_value());
      if (ref.first) {
        CHECK(got.first->first == ref.first->first);
        CHECK(failure_json(got.first->second) == failure_json(ref.first->second));
      }
    }
  return ref;
}

Check check_of(const std::string& name, const std::map<std::string, std::string>& given, DomainOptions o = {}) {
  const Construction& c = find_construction(name);
  Params p = Params::parse(c.params, given);
  Built b = c.build(p);
  return c.check(p, b, o);
}

}  // namespace

TEST_CASE("block path equals the scalar path on every construction's default domain") {
  for (const Construction& c : registry()) {
    INFO(c.name);
    Params p = Params::parse(c.params, {});
    Built b = c.build(p);
    Check chk = c.check(p, b, DomainOptions{});
    if (chk.instances > 200000) {  // keep the scalar reference runs short: a seeded sample instead
      DomainOptions o;
      o.samples = 5000;
      o.seed = test::seed();
      INFO("seed " << o.seed);
      chk = c.check(p, b, o);
    }
    same_paths(chk, c.name + " default");
  }
}

TEST_CASE("MQAR block paths on exhaustive triples domains and their mutants") {
  using namespace mqarc;
  // exhaustive triples: the arrays-and-odometer unranking, every kind of block boundary
  CHECK(same_paths(check_of("mqar/dyadic", {{"n", "2"}, {"c", "5"}}), "dyadic n=2 c=5").failed == 0);
  CHECK(same_paths(check_of("mqar/dyadic", {{"n", "2"}, {"c", "4"}, {"encoding", "onehot"}}), "dyadic onehot").failed == 0);
  CHECK(same_paths(check_of("mqar/dyadic", {{"n", "2"}, {"c", "4"}, {"variant", "merge"}}), "dyadic merge").failed == 0);
  DomainOptions sampled;
  sampled.samples = 20000;
  sampled.seed = test::seed();
  INFO("seed " << sampled.seed);
  CHECK(same_paths(check_of("mqar/dyadic", {{"n", "4"}, {"c", "4"}, {"variant", "paper"}}, sampled), "dyadic variant=paper")
            .failed > 0);
  // E6 needs two prefix bits (n >= 4): exhaustive n=4 c=4 is the dyadic domain of the issue
  DomainOptions all;
  all.force_exhaustive = true;
  CHECK(same_paths(check_of("mqar/dyadic", {{"n", "4"}, {"c", "4"}, {"prefix", "lsb"}}, all), "dyadic prefix=lsb").failed > 0);
  CHECK(same_paths(check_of("mqar/attention", {{"n", "3"}, {"c", "4"}}), "attention n=3 c=4").failed == 0);
  CHECK(same_paths(check_of("mqar/autocorrelation", {{"n", "3"}, {"c", "4"}}), "autocorrelation n=3 c=4").failed == 0);
  CHECK(same_paths(check_of("mqar/autocorrelation", {{"n", "3"}, {"c", "3"}, {"variant", "paper"}}), "autocorrelation paper")
            .failed > 0);
  CHECK(same_paths(check_of("mqar/autocorrelation", {{"n", "3"}, {"c", "3"}, {"lags", "autocorr"}, {"t", "1"}}),
                   "autocorrelation lags=autocorr t=1")
            .failed > 0);

  const Construction& ac = find_construction("mqar/autocorrelation");
  TaskShape s = task_shape(Params::parse(ac.params, {{"n", "3"}, {"c", "3"}}));
  const mqar::Domain d = mqar::triples_exhaustive(3, 3);
  CHECK(same_paths(mqar_check(d, attention_solver(s, AttnMutant::SameTriple)), "attention SameTriple").failed > 0);
  CHECK(same_paths(mqar_check(d, attention_solver(s, AttnMutant::NoQueryMask)), "attention NoQueryMask").failed > 0);
  AutoConfig cfg = autocorr_config(Params::parse(ac.params, {{"n", "3"}, {"c", "3"}}));
  cfg.mutant = Mutant::WrongLag;
  CHECK(same_paths(mqar_check(d, autocorr_solver(cfg)), "autocorrelation WrongLag").failed > 0);
  cfg.mutant = Mutant::DropSmear;
  CHECK(same_paths(mqar_check(d, autocorr_solver(cfg)), "autocorrelation DropSmear").failed > 0);
}

TEST_CASE("sd/based-jrt block path (cached G.18 and shift models) equals the scalar path, mutants too") {
  const Construction& c = find_construction("sd/based-jrt");
  for (const char* kernel : {"dd", "random", "exp"})
    CHECK(same_paths(check_of("sd/based-jrt", {{"kernel", kernel}}), std::string("based-jrt ") + kernel).failed == 0);
  // a G.18 mutant (query neuron bias off by one) and a G.21 one (kernel read the wrong way)
  auto mutant = [&](std::map<std::string, std::string> given, sdc::StageMutator m) {
    Params p = Params::parse(c.params, given);
    Built b = c.build(p);
    auto art = *std::static_pointer_cast<const sdc::BasedArtifact>(b.state);
    sdc::PipelineConfig cfg = art.pipeline->config();
    cfg.mutate = std::move(m);
    art.pipeline = std::make_shared<const sdc::Pipeline>(cfg);
    b.state = std::make_shared<const sdc::BasedArtifact>(art);
    return c.check(p, b, DomainOptions{});
  };
  CHECK(same_paths(mutant({{"stage", "g18"}},
                          [](const std::string& s, Model& m) {
                            if (s != "g18-pre") return;
                            auto& M = std::get<MlpLayer>(m.layers.back());
                            for (std::size_t i = 0; i < M.B1.rows(); ++i)
                              for (std::size_t k = 0; k < M.B1.cols(); ++k) M.B1(i, k) += 1;
                          }),
                   "based-jrt G.18 bias mutant")
            .failed > 0);
  CHECK(same_paths(mutant({{"stage", "all"}},
                          [](const std::string& s, Model& m) {
                            if (s == "g21-shift") m.conv = m.conv == ConvMode::Anticausal ? ConvMode::Causal : ConvMode::Anticausal;
                          }),
                   "based-jrt G.21 shift mutant")
            .failed > 0);
}

TEST_CASE("eq/via-mqar, sd/recurrent-jrt and sd/via-gar block paths equal the scalar path, mutants too") {
  // eq/via-mqar: the lane program of mqar/attention's model; decode=any is refuted (JRT Prop G.8's
  // literal decoding), so both paths must fail the same instances
  CHECK(same_paths(check_of("eq/via-mqar", {}), "eq q1").failed == 0);
  CHECK(same_paths(check_of("eq/via-mqar", {{"c", "37"}}), "eq q1 c=37").failed == 0);
  CHECK(same_paths(check_of("eq/via-mqar", {{"decode", "any"}}), "eq decode=any").failed > 0);
  DomainOptions sampled;
  sampled.samples = 3000;
  sampled.seed = test::seed();
  INFO("seed " << sampled.seed);
  CHECK(same_paths(check_of("eq/via-mqar", {{"c", "50"}, {"decode", "any"}}, sampled), "eq decode=any sampled").failed > 0);
  CHECK(same_paths(check_of("eq/via-mqar", {{"solver", "reference"}}), "eq reference solver").failed == 0);

  // sd/recurrent-jrt: Alg. 3 (fixed, paper threshold: Errata E8) and the plain prompt, then a
  // mutant whose separator test misses separators with a nonzero first bit
  for (const auto& given : std::vector<std::map<std::string, std::string>>{
           {{"n", "2"}}, {{"n", "2"}, {"variant", "paper"}}, {{"n", "2"}, {"prompt", "plain"}}, {{"n", "3"}}})
    CHECK(same_paths(check_of("sd/recurrent-jrt", given), "recurrent-jrt " + nlohmann::json(given).dump()).failed == 0);
  {
    const Construction& c = find_construction("sd/recurrent-jrt");
    Params p = Params::parse(c.params, {{"n", "2"}});
    sdc::RecurrentArtifact art;
    art.n = 2;
    art.program = sdc::alg3_program(2, sdc::Alg3Threshold::Fixed, [](const std::vector<std::int64_t>& row, unsigned n) {
      return sdc::flag_separator(row, n) || row[0] != 0;  // element rows with bit 0 set read as separators
    });
    CHECK(same_paths(sdc::recurrent_check(art, sdc::make_sd_domain(p, DomainOptions{})), "recurrent-jrt separator mutant")
              .failed > 0);
    art.program = sdc::alg3_program(2, sdc::Alg3Threshold::Paper);  // stores more than n*min(|A|,|B|) bits (E8)
    CHECK(same_paths(sdc::recurrent_check(art, sdc::make_sd_domain(p, DomainOptions{})), "recurrent-jrt E8 as binding")
              .failed > 0);
  }

  // sd/via-gar: both GAR solvers (via-sd memoises the Alg. 3 oracle on the block path)
  CHECK(same_paths(check_of("sd/via-gar", {{"n", "2"}}), "sd/via-gar reference").failed == 0);
  CHECK(same_paths(check_of("sd/via-gar", {{"n", "3"}, {"solver", "via-sd"}}), "sd/via-gar via-sd").failed == 0);
}

TEST_CASE("gar/via-sd block path (arrays and a memo of the oracle) equals the scalar reduction, mutant oracles too") {
  CHECK(same_paths(check_of("gar/via-sd", {{"c", "5"}, {"nk", "2"}, {"m", "3"}}), "gar c=5 nk=2 m=3").failed == 0);
  CHECK(same_paths(check_of("gar/via-sd", {{"c", "4"}, {"nk", "3"}, {"m", "2"}, {"oracle", "based"}}), "gar based").failed == 0);
  DomainOptions sampled;
  sampled.samples = 4000;
  sampled.seed = test::seed();
  INFO("seed " << sampled.seed);
  CHECK(same_paths(check_of("gar/via-sd", {{"c", "9"}, {"nk", "3"}, {"m", "3"}}, sampled), "gar sampled c=9").failed == 0);
  // mutant oracles: drop the largest common element; answer one token too many
  using garc::SdOracle;
  const std::vector<std::pair<std::string, SdOracle>> mutants = {
      {"drop last", [](const sd::Instance& x) { auto r = sd::intersection(x); if (!r.empty()) r.pop_back(); return r; }},
      {"extra token 0", [](const sd::Instance& x) { auto r = sd::intersection(x); r.push_back(0); return r; }},
      {"beyond 2^n", [](const sd::Instance& x) { auto r = sd::intersection(x); r.push_back((std::uint32_t{1} << x.n) - 1); return r; }}};
  for (const auto& [name, oracle] : mutants) {
    const std::uint32_t c = 5;
    const std::size_t nk = 2, m = 2;
    Check chk;
    chk.instances = *gar::count(c, nk, m);
    chk.run = [=, o = oracle](std::uint64_t k) -> std::optional<Failure> {
      const gar::Instance x = gar::instance(c, nk, m, k);
      if (garc::gar_via_sd(x, o).answers == gar::solve(x)) return std::nullopt;
      Failure f;
      f.instance = gar::to_json(x);
      f.message = "mutant";
      return f;
    };
    garc::GarBlockDomain bd{c, nk, m, true, [=](std::uint64_t k) { return gar::instance(c, nk, m, k); }};
    chk.block = [bd, o = oracle] { return garc::via_sd_block_worker(bd, o); };
    const RunResult res = same_paths(chk, "gar mutant oracle " + name);
    if (name != "beyond 2^n") CHECK(res.failed > 0);  // a token in [c, 2^n) is never a query: harmless
  }
}
