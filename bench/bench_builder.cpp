// Builder throughput and memory (issue 10 item 5: >= 5M gates/s and <= 24 bytes a gate at the
// builder's peak, its hash table included) on the two circuits the issue names:
//   BM_build_dyadic/1024   mqar/dyadic n = c = 1024, variant=merge, binary (build_dyadic, as the
//                          construction builds it): 19.5M gates
//   BM_build_sort/1024/20  circuit/sort of 1024 keys x 20 bits, odd-even merge, index payload
//                          (the construction's gadget calls): 11.0M gates
// Counters: gates_per_s over the benchmark's CPU time (the machine is shared); bytes_per_gate =
// Circuit::build_peak_bytes() / gates, the builder's own accounting of what it held at its peak
// (gate array, BitDefs, hash table, constant index, all by capacity); circuit_bytes_per_gate =
// what the finished circuit keeps; peak_rss_growth_MiB = the process's max RSS growth, which also
// counts the caller's vectors of wires (run one benchmark a process for a clean figure).
//   build/bench/bench_builder --benchmark_filter=BM_build_dyadic
//   build/bench/bench_builder --benchmark_filter=BM_build_sort
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <string>
#include <vector>

#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"
#include "circuits/gadgets_sort.h"
#include "constructions/mqar/dyadic_circuit.h"

#include "peak_rss.h"

namespace {
using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;


void report(benchmark::State& st, const Circuit& c, long rss0) {
  const double gates = static_cast<double>(c.size());
  st.counters["gates"] = gates;
  st.counters["gates_per_s"] = benchmark::Counter(gates * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["bytes_per_gate"] = static_cast<double>(c.build_peak_bytes()) / gates;
  st.counters["circuit_bytes_per_gate"] = static_cast<double>(c.memory_bytes()) / gates;
  st.counters["peak_rss_growth_MiB"] = static_cast<double>(peak_rss_kb() - rss0) / 1024.0;
}

void BM_build_dyadic(benchmark::State& st) {
  const std::size_t n = static_cast<std::size_t>(st.range(0));
  mqarc::DyadicConfig cfg;
  cfg.n = n;
  cfg.codec = mqar::make_codec(mqar::Encoding::Binary, std::max<std::size_t>(n, 4));
  cfg.variant = mqarc::DyVariant::Merge;
  const long rss0 = peak_rss_kb();
  std::shared_ptr<const Circuit> c;
  for (auto _ : st) {
    st.PauseTiming();
    c.reset();  // the previous iteration's circuit is not part of this one's peak
    st.ResumeTiming();
    c = mqarc::build_dyadic(cfg).circuit;
    benchmark::DoNotOptimize(c.get());
  }
  report(st, *c, rss0);
}
BENCHMARK(BM_build_dyadic)->Arg(1024)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_build_dyadic)->Arg(64)->Unit(benchmark::kMillisecond);

Circuit sort_circuit(std::size_t n, std::size_t d, std::size_t* overflow) {
  std::size_t w = 0;
  while ((std::size_t{1} << w) < n) ++w;
  w = std::max<std::size_t>(w, 1);
  Builder b;
  std::vector<g::Item> items;
  for (std::size_t i = 0; i < n; ++i) items.push_back({g::input_bits(b, "k" + std::to_string(i), d), g::const_bits(b, i, w)});
  auto out = g::odd_even_merge_sort(b, std::move(items));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < d; ++k) b.output("key" + std::to_string(i) + "[" + std::to_string(k) + "]", out[i].key[k]);
    for (std::size_t k = 0; k < w; ++k) b.output("idx" + std::to_string(i) + "[" + std::to_string(k) + "]", out[i].payload[k]);
  }
  *overflow = b.table_overflow_keys();
  return std::move(b).finish();
}

void BM_build_sort(benchmark::State& st) {
  const std::size_t n = static_cast<std::size_t>(st.range(0)), d = static_cast<std::size_t>(st.range(1));
  const long rss0 = peak_rss_kb();
  Circuit c;
  std::size_t overflow = 0;
  for (auto _ : st) {
    st.PauseTiming();
    c = Circuit();
    st.ResumeTiming();
    c = sort_circuit(n, d, &overflow);
    benchmark::DoNotOptimize(c.size());
  }
  report(st, c, rss0);
  st.counters["table_overflow_keys"] = static_cast<double>(overflow);  // keys in the GateTable's overflow map
}
BENCHMARK(BM_build_sort)->Args({1024, 20})->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_build_sort)->Args({64, 8})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
