// Exhaustive verification throughput of primitive/shift_down at N·d = 20 (N = 10, d = 2,
// 2^20 instances), on one thread: instances/s per core.
#include <benchmark/benchmark.h>

#include "app/engine/engine.h"

namespace {
void BM_verify_shift_down_exhaustive(benchmark::State& st) {
  using namespace cz;
  const Construction& c = find_construction("primitive/shift_down");
  Params p = Params::parse(c.params, {{"N", "10"}, {"d", "2"}, {"s", "3"}});
  Built b = c.build(p);
  Check check = c.check(p, b, DomainOptions{});
  for (auto _ : st) {
    RunResult r = run_domain(check, 1, "bench");
    if (r.failed) st.SkipWithError("verification failed");
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * check.instances));
}
}  // namespace

BENCHMARK(BM_verify_shift_down_exhaustive)->Unit(benchmark::kSecond)->Iterations(1);
