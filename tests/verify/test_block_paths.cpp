// The block path (verify/construction.h BlockWorker, issue 10) against the scalar run(k) path, the
// reference: on every construction's default domain and on mutants, the same number of failures
// and the same first counterexample (same index, same JSON) for several block sizes and thread
// counts. Mutants must fail on both paths (a block path that passes everything fails here).
#include <doctest/doctest.h>

#include "constructions/mqar/solvers.h"
#include "constructions/sd/based_jrt.h"
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
  for (unsigned threads : {1u, 2u, 3u})
    for (std::uint64_t B : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{500}, std::uint64_t{4096}}) {
      if (B == 1 && c.instances > 20000) continue;  // one instance per block is slow on big domains; covered below
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
