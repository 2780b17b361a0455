// The modular BaseConv layer (gpu/modmodel_*.h, issue 12): one layer N = 2^16, d = 16 on the CUDA
// device for a batch of 256 inputs (skipped without a device), and the CPU twin on small cases so
// the binary has something to run anywhere. bytes_moved counts each instance's input and output
// activations per prime (2·N'·d'·4 bytes): a floor on the traffic, for comparing runs.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "constructions/mqar/solvers.h"
#include "gpu/device.h"
#include "gpu/modmodel_check.h"
#include "gpu/modmodel_launch.h"

using namespace cz;

namespace {

Model layer_model(std::size_t N, std::size_t d) {
  std::mt19937_64 g(7);
  std::uniform_int_distribution<std::int64_t> val(-1, 1);
  auto mat = [&](std::size_t r, std::size_t c) {
    RatMatrix m(r, c, Rat(0));
    for (auto& e : m.data()) e = Rat(val(g));
    return m;
  };
  Model m;
  m.N = m.inner_N = N;
  m.d = m.inner_d = d;
  m.conv = ConvMode::Causal;
  m.layers.emplace_back(BaseConvLayer{mat(d, d), mat(N, d), mat(N, d), mat(N, d)});
  return m;
}

void bytes_moved(benchmark::State& state, const gpu::ModModel& mm, std::uint64_t batch) {
  const gpu::ModModelView v = mm.view();
  const double bytes = 2.0 * v.Np * v.dp * 4 * v.primes * static_cast<double>(batch);
  state.counters["bytes_moved"] = benchmark::Counter(bytes, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["primes"] = v.primes;
}

void BM_ModLayerCuda(benchmark::State& state) {
  if (!gpu::cuda_device().present) {
    state.SkipWithError(gpu::cuda_device().why_not.c_str());
    return;
  }
  const std::uint64_t batch = 256;
  const gpu::ModModel mm(layer_model(std::size_t{1} << 16, 16), 1);
  auto dev = gpu::make_mod_device(mm.view(), mm.arena().size(), batch);
  std::uint64_t seed = 1;
  for (auto _ : state) dev->eval_random(batch, seed++, 1, nullptr);  // synchronises after each batch
  bytes_moved(state, mm, batch);
}
BENCHMARK(BM_ModLayerCuda)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ModLayerTwin(benchmark::State& state) {
  const gpu::ModModel mm(layer_model(static_cast<std::size_t>(state.range(0)), 16), 1);
  const gpu::ModModelView v = mm.view();
  std::vector<std::uint32_t> scratch(v.scratch_words);
  std::uint64_t t = 0;
  for (auto _ : state) {
    gpu::ModScratch s = gpu::mod_scratch(v, scratch.data());
    for (int i = 0; i < v.Np; ++i)
      for (int j = 0; j < v.dp; ++j) s.x[i * v.dp + j] = gpu::mod_of(gpu::mod_random_entry(1, t, i, j, 1), v.p[0]);
    gpu::mod_eval(v, 0, s);
    benchmark::DoNotOptimize(scratch.data());
    ++t;
  }
  bytes_moved(state, mm, 1);
}
BENCHMARK(BM_ModLayerTwin)->Arg(1 << 10)->Arg(1 << 12)->Unit(benchmark::kMillisecond);

// mqar/attention n=3 c=4 through the twin's block worker: instances per second.
void BM_AttentionTwin(benchmark::State& state) {
  const mqar::Domain dom = mqar::triples_exhaustive(3, 4);
  const Params p = Params::parse(find_construction("mqar/attention").params, {{"n", "3"}, {"c", "4"}});
  const mqar::TaskShape s = mqar::task_shape(p);
  const auto prog = gpu::mqar_mod_program(dom, mqar::make_codec(mqar::Encoding::OneHot, 4),
                                          mqarc::to_model(mqarc::attention_model(mqarc::worst_case_instance(s))));
  auto w = prog->twin();
  const std::uint64_t n = 4096;
  std::uint64_t k0 = 0;
  for (auto _ : state) {
    BlockResult r;
    w->run(k0, n, r);
    k0 = (k0 + n) % (dom.count - n);
    benchmark::DoNotOptimize(r.failed);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}
BENCHMARK(BM_AttentionTwin)->Unit(benchmark::kMillisecond);

}  // namespace
