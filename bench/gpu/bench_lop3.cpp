// The bit-sliced device path (issue 12), in AND·patterns/s: AIG ANDs of the circuit (circuits/aig.h
// to_aig) × instances checked per second, instance generation and reference included.
//   BM_lop3_{twin,cuda}_sort        circuit/sort n=64 d=16 (oddeven), 0/1 instances (bit i of k),
//                                   checked against the sort acceptance (gpu/lop_kernel.h)
//   BM_lop3_{twin,cuda}_dyadic256   mqar/dyadic n=256 variant=merge (binary, c = 256): evaluation
//                                   only (no reference: the device triples domain holds n <= 16)
//   BM_lop3_{twin,cuda}_dyadic8     mqar/dyadic n=8 c=8 variant=merge on the exhaustive triples
//                                   domain, checked against the MQAR reference
// twin = the kernel body on one CPU thread (small blocks, seconds in all); cuda = one launch per
// iteration on the current device (skipped with an error where there is none).
#include <benchmark/benchmark.h>

#include "circuits/aig.h"
#include "constructions/mqar/dyadic_circuit.h"
#include "gpu/device.h"
#include "gpu/lop_check.h"
#include "gpu/lop_device_program.h"
#include "verify/construction.h"

namespace {
using namespace cz;

struct Subject {
  Subject(std::shared_ptr<const DeviceProgram> p, std::size_t a) : check(std::dynamic_pointer_cast<const gpu::LopCheck>(p)), ands(a) {}
  std::shared_ptr<const gpu::LopCheck> check;
  std::size_t ands = 0;
};

Subject sort64() {
  static const Subject s = [] {
    const Construction& k = find_construction("circuit/sort");
    const Params p = Params::parse(k.params, {{"n", "64"}, {"d", "16"}});
    const Built b = k.build(p);
    return Subject{gpu::lop_sort_check(*b.circuit_ir, 64, 16, 6), circuits::to_aig(*b.circuit_ir).num_ands()};
  }();
  return s;
}

mqarc::DyadicConfig dyadic_config(std::size_t n) {
  mqarc::DyadicConfig cfg;
  cfg.n = n;
  cfg.codec = mqar::make_codec(mqar::Encoding::Binary, std::max<std::size_t>(n, 4));
  cfg.variant = mqarc::DyVariant::Merge;
  return cfg;
}

Subject dyadic256() {
  static const Subject s = [] {
    const mqarc::DyadicCircuit dc = mqarc::build_dyadic(dyadic_config(256));
    return Subject{gpu::lop_eval_only_check(*dc.circuit), circuits::to_aig(*dc.circuit).num_ands()};
  }();
  return s;
}

Subject dyadic8() {
  static const Subject s = [] {
    const mqarc::DyadicConfig cfg = dyadic_config(8);
    const mqarc::DyadicCircuit dc = mqarc::build_dyadic(cfg);
    std::vector<std::vector<int>> codes;
    for (std::size_t t = 0; t < cfg.codec.c; ++t) {
      auto e = mqar::encode_token(cfg.codec, static_cast<std::int64_t>(t));
      codes.emplace_back(e.begin(), e.end());
    }
    return Subject{gpu::lop_triples_check(*dc.circuit, gpu::TriplesSource{gpu::triples_shape(8, static_cast<int>(cfg.codec.c))}, dc.d,
                                           dc.out_cols, dc.found_output, codes),
                   circuits::to_aig(*dc.circuit).num_ands()};
  }();
  return s;
}

void run(benchmark::State& st, const Subject& s, bool cuda, std::uint64_t per_iter) {
  if (!s.check) {
    st.SkipWithError("no device path for this circuit");
    return;
  }
  if (cuda && !gpu::cuda_device().present) {
    st.SkipWithError(("no CUDA device: " + gpu::cuda_device().why_not).c_str());
    return;
  }
  std::unique_ptr<BlockWorker> w = cuda ? s.check->cuda() : s.check->twin();
  std::uint64_t k0 = 0, failed = 0;
  for (auto _ : st) {
    BlockResult r;
    w->run(k0, per_iter, r);
    failed += r.failed;
    k0 += per_iter;
  }
  if (failed) st.SkipWithError("the check failed");
  st.counters["lop3_ops"] = static_cast<double>(s.check->program().ops().size());
  st.counters["slots"] = static_cast<double>(s.check->program().slots());
  st.counters["AND_patterns_per_s"] =
      benchmark::Counter(static_cast<double>(s.ands) * static_cast<double>(per_iter * st.iterations()), benchmark::Counter::kIsRate);
  st.counters["instances_per_s"] = benchmark::Counter(static_cast<double>(per_iter * st.iterations()), benchmark::Counter::kIsRate);
}

void BM_lop3_twin_sort(benchmark::State& st) { run(st, sort64(), false, 32); }
void BM_lop3_cuda_sort(benchmark::State& st) { run(st, sort64(), true, std::uint64_t{1} << 22); }
void BM_lop3_twin_dyadic256(benchmark::State& st) { run(st, dyadic256(), false, 32); }
void BM_lop3_cuda_dyadic256(benchmark::State& st) { run(st, dyadic256(), true, std::uint64_t{1} << 20); }
void BM_lop3_twin_dyadic8(benchmark::State& st) { run(st, dyadic8(), false, 1024); }
void BM_lop3_cuda_dyadic8(benchmark::State& st) { run(st, dyadic8(), true, std::uint64_t{1} << 24); }

}  // namespace

BENCHMARK(BM_lop3_twin_sort)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_lop3_cuda_sort)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_lop3_twin_dyadic256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_lop3_cuda_dyadic256)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_lop3_twin_dyadic8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_lop3_cuda_dyadic8)->Unit(benchmark::kMillisecond);
