// mqar/dyadic throughput (the target: building and bit-sliced-verifying n = 1024 takes
// seconds, not minutes):
//   BM_dyadic_build/n         build the Alg. 11 circuit (variant=merge, binary, c = n): gates/s
//   BM_dyadic_verify/n        bit-sliced verification of 1,024 seeded instances on one thread
//                             (instance generation, encoding and the Alg. 9 reference included):
//                             instances/s
//   BM_dyadic_exhaustive_n4   every distinct-key instance of n = 4, c = 4 (1,572,864), variant=fixed,
//                             one thread
#include <benchmark/benchmark.h>

#include "constructions/mqar/dyadic_check.h"
#include "app/engine/engine.h"

namespace {
using namespace cz;
using namespace cz::mqarc;

DyadicConfig config(std::size_t n, DyVariant v) {
  DyadicConfig cfg;
  cfg.n = n;
  cfg.codec = mqar::make_codec(mqar::Encoding::Binary, std::max<std::size_t>(n, 4));
  cfg.variant = v;
  return cfg;
}

void BM_dyadic_build(benchmark::State& st) {
  const auto cfg = config(static_cast<std::size_t>(st.range(0)), DyVariant::Merge);
  std::size_t gates = 0;
  for (auto _ : st) {
    DyadicCircuit dc = build_dyadic(cfg);
    gates = dc.circuit->size();
    benchmark::DoNotOptimize(gates);
  }
  st.counters["gates"] = static_cast<double>(gates);
  st.counters["gates_per_s"] = benchmark::Counter(static_cast<double>(gates * st.iterations()), benchmark::Counter::kIsRate);
}

void BM_dyadic_verify(benchmark::State& st) {
  const std::size_t n = static_cast<std::size_t>(st.range(0));
  const auto cfg = config(n, DyVariant::Merge);
  auto dc = std::make_shared<const DyadicCircuit>(build_dyadic(cfg));
  const std::uint64_t count = 1024;
  for (auto _ : st) {
    Check check = dyadic_check(mqar::triples_sampled(n, cfg.codec.c, count, 1), dc, cfg.codec);
    RunResult r = run_domain(check, 1, "bench");
    if (r.failed) st.SkipWithError("verification failed");
  }
  st.counters["instances_per_s"] =
      benchmark::Counter(static_cast<double>(count * st.iterations()), benchmark::Counter::kIsRate);
}

void BM_dyadic_exhaustive_n4(benchmark::State& st) {
  const auto cfg = config(4, DyVariant::PbsFixed);
  auto dc = std::make_shared<const DyadicCircuit>(build_dyadic(cfg));
  std::uint64_t count = 0;
  for (auto _ : st) {
    Check check = dyadic_check(mqar::triples_exhaustive(4, 4), dc, cfg.codec);
    count = check.instances;
    RunResult r = run_domain(check, 1, "bench");
    if (r.failed) st.SkipWithError("verification failed");
  }
  st.counters["instances_per_s"] =
      benchmark::Counter(static_cast<double>(count * st.iterations()), benchmark::Counter::kIsRate);
}
}  // namespace

BENCHMARK(BM_dyadic_build)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_dyadic_verify)->Arg(64)->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_dyadic_exhaustive_n4)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_MAIN();
