// Exact causal convolution, d = 16 channels, inputs (filter and signal) uniform in [-9, 9], the
// workload of /work/shared/bench/torch_fftconv.py (bench/conv_ratios.py runs both, same machine,
// and prints ratios). Times are thread CPU time (Google Benchmark's cpu_time).
//   BM_conv_ntt/N           multi-modular NTT, int64 in/out, filter transformed in the call (like
//                           the torch anchor, which transforms h every call)
//   BM_conv_ntt_prepared/N  the same with the filter's transform prepared once (NttFilter)
//   BM_conv_ntt_cold/N      BM_conv_ntt over a rotation of distinct instances, 64 MiB of inputs
//                           in all, so no size finds its inputs in cache (BM_conv_ntt reuses one
//                           pair: at N = 2^14 its 4 MiB stay in L3, at 2^16 the 16 MiB cannot)
//   BM_conv_io_floor/N      the input and output traffic BM_conv_ntt cannot avoid: one pass
//                           y = u + h over its matrices (read u and h, write an N×16 int64
//                           output), timed after an untimed conv, so the caches are as
//                           BM_conv_ntt leaves them (conv_ratios.py subtracts it for the slope)
//   BM_conv_ntt_scalar/N    BM_conv_ntt with the scalar kernels (likewise _avx2, _avx512; the
//                           default, BM_conv_ntt, is the best the CPU has). On AVX-512, d = 16
//                           runs lane-batched (tensor/ntt_lanes.h); _avx512_perchannel is the
//                           same ISA with the per-channel kernels, for the ratio between the two
//   BM_conv_ntt_Int/N       Z matrices (FLINT-backed Int) in and out, through conv()
//   BM_conv_ntt_flint/N     FLINT fmpz_poly_mullow per channel (the previous exact path)
//   BM_conv_ntt_naive/N     O(N^2) definitions over checked int64
//   BM_layer_ntt/N          a whole BaseConv layer (projection, conv, gating) through the model
//                           evaluator's eval_layer over int64 (projection: dense random d×d);
//                           bench/torch_layer.py is its anchor
// Over F_p for a model's own 62-bit prime (d = 16, causal, entries uniform in [0, p)):
//   BM_conv_fp62_ntt/N      p = 29·2^57 + 1 (NTT-friendly): conv_ntt_fp directly in F_p, 64-bit
//                           words, no lift (the filter transformed in the call)
//   BM_conv_fp62_prepared/N the same with the filter prepared once (NttFilterFp)
//   BM_conv_fp62_viaz/N     p = 2^62 − 57 (not friendly): conv_ntt_fp through Z (5 primes + CRT +
//                           reduction mod p), the route every p ≥ 2^30 took before
//   BM_conv_fp62_flint/N    FLINT nmod_poly per channel (conv_flint over RingFp), p = 29·2^57 + 1
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "model/eval.h"
#include "tensor/conv_ntt_fp64.h"
#include "tensor/ntt.h"

namespace {
using namespace cz;

struct Data {
  Matrix<std::int64_t> h, u;
};
Data make(std::size_t N, std::size_t d = 16, std::uint64_t seed = 1) {
  std::mt19937_64 g(seed);
  Data D{Matrix<std::int64_t>(N, d), Matrix<std::int64_t>(N, d)};
  for (auto& x : D.h.data()) x = static_cast<std::int64_t>(g() % 19) - 9;
  for (auto& x : D.u.data()) x = static_cast<std::int64_t>(g() % 19) - 9;
  return D;
}
Matrix<Int> widen(const Matrix<std::int64_t>& m) { return map_matrix(m, [](std::int64_t x) { return Int(x); }); }

void items(benchmark::State& st, std::size_t N) { st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * N * 16)); }

void BM_conv_ntt(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  Data D = make(N);
  NttConvPlan pl;
  for (auto _ : st) benchmark::DoNotOptimize(conv_ntt_i64(D.h, D.u, ConvMode::Causal, &pl));
  st.SetLabel(pl.str());
  items(st, N);
}

void BM_conv_ntt_cold(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  const std::size_t count = std::max<std::size_t>(2, (std::size_t{64} << 20) / (2 * N * 16 * sizeof(std::int64_t)));
  std::vector<Data> D;
  for (std::size_t i = 0; i < count; ++i) D.push_back(make(N, 16, 1 + i));
  std::size_t i = 0;
  for (auto _ : st) {
    const Data& d = D[i++ % count];
    benchmark::DoNotOptimize(conv_ntt_i64(d.h, d.u, ConvMode::Causal));
  }
  items(st, N);
}

void BM_conv_io_floor(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  Data D = make(N);
  std::vector<std::int64_t> y(N * 16);
  const std::int64_t *u = D.u.data().data(), *h = D.h.data().data();
  for (auto _ : st) {
    st.PauseTiming();
    benchmark::DoNotOptimize(conv_ntt_i64(D.h, D.u, ConvMode::Causal));
    st.ResumeTiming();
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = u[i] + h[i];
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  items(st, N);
}

void BM_conv_ntt_prepared(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  Data D = make(N);
  NttFilter f(D.h, ConvMode::Causal);
  benchmark::DoNotOptimize(f.apply_i64(D.u));  // the filter's transform, once
  for (auto _ : st) benchmark::DoNotOptimize(f.apply_i64(D.u));
  items(st, N);
}

void conv_ntt_isa(benchmark::State& st, NttIsa isa, detail::LanePolicy lanes = detail::LanePolicy::Auto) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  Data D = make(N);
  const NttIsa saved = ntt_isa();
  ntt_set_isa(isa);
  detail::ntt_set_lane_policy(lanes);
  if (ntt_isa() != isa) st.SkipWithError("the CPU lacks this ISA");
  for (auto _ : st) benchmark::DoNotOptimize(conv_ntt_i64(D.h, D.u, ConvMode::Causal));
  ntt_set_isa(saved);
  detail::ntt_set_lane_policy(detail::LanePolicy::Auto);
  items(st, N);
}
void BM_conv_ntt_scalar(benchmark::State& st) { conv_ntt_isa(st, NttIsa::Scalar); }
void BM_conv_ntt_avx2(benchmark::State& st) { conv_ntt_isa(st, NttIsa::Avx2); }
void BM_conv_ntt_avx512(benchmark::State& st) { conv_ntt_isa(st, NttIsa::Avx512); }
void BM_conv_ntt_avx512_perchannel(benchmark::State& st) {
  conv_ntt_isa(st, NttIsa::Avx512, detail::LanePolicy::Never);
}

void BM_conv_ntt_Int(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  Data D = make(N);
  const Matrix<Int> h = widen(D.h), u = widen(D.u);
  for (auto _ : st) benchmark::DoNotOptimize(conv(RingZ{}, h, u, ConvMode::Causal));
  items(st, N);
}

void BM_conv_ntt_flint(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  Data D = make(N);
  const Matrix<Int> h = widen(D.h), u = widen(D.u);
  for (auto _ : st) benchmark::DoNotOptimize(conv_flint(RingZ{}, h, u, ConvMode::Causal));
  items(st, N);
}

void BM_conv_ntt_naive(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  Data D = make(N);
  for (auto _ : st) benchmark::DoNotOptimize(conv_naive(RingI64{}, D.h, D.u, ConvMode::Causal));
  items(st, N);
}

// One BaseConv layer, y = (x·W + b1) ⊙ (h*x + b2), d = 16, all weights and inputs in [-9, 9],
// evaluated by eval_layer over int64 as the model evaluator does (the filter's transforms
// prepared once by prepare(), as for every input a verifier feeds the model).
void BM_layer_ntt(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0)), d = 16;
  std::mt19937_64 g(7);
  Model m;
  m.N = m.inner_N = N;
  m.d = m.inner_d = d;
  BaseConvLayer layer = zero_baseconv(m);
  for (auto* x : {&layer.W, &layer.b1, &layer.h, &layer.b2})
    for (auto& e : x->data()) e = static_cast<std::int64_t>(g() % 19) - 9;
  m.layers.push_back(layer);
  const auto p = prepare(RingI64{}, m);
  const auto& L = std::get<PreparedModel<RingI64>::BaseConv>(p.layers[0]);
  if (!L.ntt) st.SkipWithError("no prepared NTT filter");
  Matrix<std::int64_t> u(N, d);
  for (auto& x : u.data()) x = static_cast<std::int64_t>(g() % 19) - 9;
  benchmark::DoNotOptimize(eval_layer(p, L, u));  // the filter's transform, once
  for (auto _ : st) benchmark::DoNotOptimize(eval_layer(p, L, u));
  items(st, N);
}

constexpr std::uint64_t kP62 = 4179340454199820289ULL;          // 29·2^57 + 1
constexpr std::uint64_t kP62NotFriendly = 4611686018427387847ULL;  // 2^62 − 57
struct DataFp {
  Matrix<std::uint64_t> h, u;
};
DataFp make_fp(std::size_t N, std::uint64_t p, std::size_t d = 16) {
  std::mt19937_64 g(3);
  DataFp D{Matrix<std::uint64_t>(N, d), Matrix<std::uint64_t>(N, d)};
  for (auto& x : D.h.data()) x = g() % p;
  for (auto& x : D.u.data()) x = g() % p;
  return D;
}
void conv_fp62(benchmark::State& st, std::uint64_t p) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  DataFp D = make_fp(N, p);
  NttConvPlan pl;
  for (auto _ : st) benchmark::DoNotOptimize(conv_ntt_fp(p, D.h, D.u, ConvMode::Causal, &pl));
  st.SetLabel(pl.str());
  items(st, N);
}
void BM_conv_fp62_ntt(benchmark::State& st) { conv_fp62(st, kP62); }
void BM_conv_fp62_viaz(benchmark::State& st) { conv_fp62(st, kP62NotFriendly); }

void BM_conv_fp62_prepared(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  DataFp D = make_fp(N, kP62);
  NttFilterFp f(kP62, D.h, ConvMode::Causal);
  benchmark::DoNotOptimize(f.apply(D.u));  // the filter's transform, once
  for (auto _ : st) benchmark::DoNotOptimize(f.apply(D.u));
  items(st, N);
}

void BM_conv_fp62_flint(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0));
  DataFp D = make_fp(N, kP62);
  const RingFp F(kP62);
  for (auto _ : st) benchmark::DoNotOptimize(conv_flint(F, D.h, D.u, ConvMode::Causal));
  items(st, N);
}
}  // namespace

BENCHMARK(BM_conv_ntt)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_cold)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_io_floor)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_prepared)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_scalar)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_avx2)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_avx512)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_avx512_perchannel)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_Int)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_flint)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_ntt_naive)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_layer_ntt)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_fp62_ntt)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_fp62_prepared)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_fp62_viaz)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_fp62_flint)->Arg(4096)->Arg(16384)->Arg(65536)->Unit(benchmark::kMillisecond);
