// Exact BaseConv layer, N = 2^10..2^16, d = 16, dense random filter: the FLINT path
// (fmpz_poly_mullow per channel) against the naive O(N^2) reference, both over Z.
// Ratio = naive time / FLINT time at the same N (target >= 20x at N = 2^14).
#include <benchmark/benchmark.h>

#include <random>

#include "model/eval.h"

namespace {
using namespace cz;

struct Layer {
  Matrix<Int> h, u;
};
Layer make(std::size_t N, std::size_t d) {
  std::mt19937_64 g(42);
  Layer L{Matrix<Int>(N, d), Matrix<Int>(N, d)};
  for (auto& x : L.h.data()) x = static_cast<std::int64_t>(g() % 17) - 8;
  for (auto& x : L.u.data()) x = static_cast<std::int64_t>(g() % 17) - 8;
  return L;
}

void BM_conv_flint(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0)), d = 16;
  Layer L = make(N, d);
  for (auto _ : st) benchmark::DoNotOptimize(conv_flint(RingZ{}, L.h, L.u, ConvMode::Causal));
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * N * d));
}

void BM_conv_naive(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0)), d = 16;
  Layer L = make(N, d);
  for (auto _ : st) benchmark::DoNotOptimize(conv_naive(RingZ{}, L.h, L.u, ConvMode::Causal));
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * N * d));
}

// A whole BaseConv layer (projection + conv + gating) through the model evaluator.
void BM_baseconv_layer(benchmark::State& st) {
  const std::size_t N = static_cast<std::size_t>(st.range(0)), d = 16;
  std::mt19937_64 g(7);
  Model m;
  m.N = m.inner_N = N;
  m.d = m.inner_d = d;
  BaseConvLayer layer = zero_baseconv(m);
  for (auto* x : {&layer.W, &layer.b1, &layer.h, &layer.b2})
    for (auto& e : x->data()) e = static_cast<std::int64_t>(g() % 5) - 2;
  m.layers.push_back(layer);
  auto p = prepare(RingZ{}, m);
  Matrix<Int> u(N, d);
  for (auto& x : u.data()) x = static_cast<std::int64_t>(g() % 3) - 1;
  for (auto _ : st) benchmark::DoNotOptimize(eval(p, u));
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * N * d));
}
}  // namespace

BENCHMARK(BM_conv_flint)->RangeMultiplier(4)->Range(1 << 10, 1 << 16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_conv_naive)->RangeMultiplier(4)->Range(1 << 10, 1 << 14)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_baseconv_layer)->RangeMultiplier(4)->Range(1 << 10, 1 << 16)->Unit(benchmark::kMillisecond);
