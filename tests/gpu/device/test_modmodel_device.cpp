// The modular model on a CUDA device (gpu/modmodel_launch.h, issue 12): the kernels' residues equal
// the CPU twin's on random models of every conv mode, and the cuda() path of mqar/attention decides
// what the CPU engine decides (failure count and smallest failing index), on the construction and
// on a mutant. Runs only where a device is present (exit 77 otherwise, tests/test_main.cpp).
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "app/engine/run/device_path.h"
#include "app/engine/engine.h"
#include "constructions/mqar/solvers.h"
#include "gpu/modmodel_check.h"
#include "gpu/modmodel_launch.h"
#include "tests/seed.h"

using namespace cz;

namespace {

RatMatrix random_matrix(std::mt19937_64& g, std::size_t r, std::size_t c) {
  std::uniform_int_distribution<std::int64_t> val(-3, 3);
  RatMatrix m(r, c, Rat(0));
  for (auto& e : m.data()) e = Rat(val(g));
  return m;
}

RunResult cuda_vs_cpu(Check chk, const std::shared_ptr<const DeviceProgram>& prog) {
  REQUIRE(prog);
  const RunResult cpu = run_domain(chk, 2, "");
  chk.device = prog;
  DomainOptions o;
  o.device = "cuda";
  const DevicePath dp = choose_device(chk, o, 2, "test");
  const RunResult dev = run_domain(dp.check, dp.threads, "", RunPlan{false, 1000});
  CHECK(dev.failed == cpu.failed);
  REQUIRE(dev.first.has_value() == cpu.first.has_value());
  if (cpu.first) CHECK(dev.first->first == cpu.first->first);
  return cpu;
}

}  // namespace

TEST_CASE("device residues equal the twin's on random models") {
  auto g = test::rng(131);
  for (ConvMode mode : {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal}) {
    Model m;
    m.N = 11;
    m.inner_N = 13;
    m.d = 3;
    m.inner_d = 5;
    m.conv = mode;
    for (int l = 0; l < 2; ++l)
      m.layers.emplace_back(BaseConvLayer{random_matrix(g, 5, 5), random_matrix(g, 13, 5), random_matrix(g, 13, 5), random_matrix(g, 13, 5)});
    m.layers.emplace_back(LinearAttentionLayer{random_matrix(g, 5, 2), random_matrix(g, 5, 2), random_matrix(g, 5, 5)});
    const gpu::ModModel mm(m, 2);
    const gpu::ModModelView v = mm.view();
    const std::uint64_t count = 37, per = std::uint64_t(v.Np) * v.dp;
    std::vector<std::uint32_t> got(count * v.primes * per);
    auto dev = gpu::make_mod_device(v, mm.arena().size(), 8);  // several batches
    dev->eval_random(count, 5, 2, got.data());
    std::vector<std::uint32_t> scratch(v.scratch_words);
    for (std::uint64_t t = 0; t < count; ++t)
      for (int q = 0; q < v.primes; ++q) {
        gpu::ModScratch s = gpu::mod_scratch(v, scratch.data());
        for (int i = 0; i < v.Np; ++i)
          for (int j = 0; j < v.dp; ++j)
            s.x[i * v.dp + j] = (i < v.N && j < v.d) ? gpu::mod_of(gpu::mod_random_entry(5, t, i, j, 2), v.p[q]) : 0;
        gpu::mod_eval(v, q, s);
        for (std::uint64_t e = 0; e < per; ++e) REQUIRE(got[(t * v.primes + q) * per + e] == s.x[e]);
      }
  }
}

TEST_CASE("mqar/attention on the device equals the CPU engine, and a mutant fails the same") {
  const Construction& con = find_construction("mqar/attention");
  for (auto [n, c] : {std::pair{2, 4}, std::pair{3, 4}}) {
    const Params p = Params::parse(con.params, {{"n", std::to_string(n)}, {"c", std::to_string(c)}});
    const Built b = con.build(p);
    const Check chk = con.check(p, b, DomainOptions{});
    CHECK(cuda_vs_cpu(chk, chk.device).failed == 0);
    const mqar::TaskShape s = mqar::task_shape(p);
    const MqarSolver sol = mqarc::attention_solver(s, mqarc::AttnMutant::SameTriple);
    const Model m = mqarc::to_model(mqarc::attention_model(mqarc::worst_case_instance(s), mqarc::AttnMutant::SameTriple));
    const mqar::Domain dom = mqar::triples_exhaustive(n, c);
    CHECK(cuda_vs_cpu(mqar_check(dom, sol), gpu::mqar_mod_program(dom, sol.codec, m)).failed > 0);
  }
}
