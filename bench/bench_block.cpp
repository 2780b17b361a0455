// The block path of the engine (issue 10) against the scalar run(k) path, one thread, thread CPU
// time (Google Benchmark's default): exhaustive MQAR n=4 c=4 (1,572,864 instances) for each MQAR
// construction, and sd/based-jrt n=3 exhaustive (65,536). items_per_second = instances/s per core.
// Scalar runs of the slow constructions take tens of seconds: they are registered under the
// name prefix "scalar/" so a filter can leave them out (bench/ratios.py runs what it needs).
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "app/engine/engine.h"

namespace {
using namespace cz;

struct Case {
  const char* name;
  std::map<std::string, std::string> params;
};

void run(benchmark::State& st, const Case& k, bool scalar) {
  const Construction& c = find_construction(k.name);
  Params p = Params::parse(c.params, k.params);
  Built b = c.build(p);
  DomainOptions o;
  o.force_exhaustive = true;
  Check check = c.check(p, b, o);
  std::uint64_t failed = 0;
  for (auto _ : st) {
    RunResult r = run_domain(check, 1, "", RunPlan{scalar, 0});
    failed = r.failed;
  }
  if (failed) st.SkipWithError("verification failed");
  st.counters["instances"] = static_cast<double>(check.instances);
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * check.instances));
}

const Case kCases[] = {
    {"mqar/dyadic", {{"n", "4"}, {"c", "4"}, {"variant", "fixed"}}},
    {"mqar/attention", {{"n", "4"}, {"c", "4"}}},
    {"mqar/autocorrelation", {{"n", "4"}, {"c", "4"}, {"variant", "fixed"}}},
    {"sd/based-jrt", {{"n", "3"}}},
};

const bool registered = [] {
  for (const Case& k : kCases) {
    benchmark::RegisterBenchmark((std::string("block/") + k.name).c_str(), [&k](benchmark::State& st) { run(st, k, false); })
        ->Unit(benchmark::kSecond)
        ->Iterations(1);
    benchmark::RegisterBenchmark((std::string("scalar/") + k.name).c_str(), [&k](benchmark::State& st) { run(st, k, true); })
        ->Unit(benchmark::kSecond)
        ->Iterations(1);
  }
  // The 88,080,384-instance GAR run of the issue (minutes): only with CZ_BENCH_GAR=1.
  if (std::getenv("CZ_BENCH_GAR"))
    benchmark::RegisterBenchmark("block/gar/via-sd c=8 nk=3 m=3", [](benchmark::State& st) {
      run(st, Case{"gar/via-sd", {{"c", "8"}, {"nk", "3"}, {"m", "3"}}}, false);
    })->Unit(benchmark::kSecond)->Iterations(1);
  return true;
}();
}  // namespace

BENCHMARK_MAIN();
