// The modular device path of mqar/attention (gpu/modmodel_check.h, issue 12): its CPU twin over
// whole exhaustive triples domains decides what the CPU engine decides (failure count and smallest
// failing index), on the construction and on mutants that fail; its encoding bodies equal
// mqar::encode_token for every encoding.
#include <doctest/doctest.h>

#include "tests/lean.h"
#include "app/engine/run/device_path.h"
#include "app/engine/engine.h"
#include "constructions/mqar/common.h"
#include "constructions/mqar/solvers.h"
#include "gpu/modmodel_check.h"
#include "verify/mqar_task.h"

using namespace cz;

namespace {

struct Case {
  mqar::TaskShape shape;
  mqar::Domain dom;
};

Case triples(std::size_t n, std::size_t c) {
  const Construction& con = find_construction("mqar/attention");
  const Params p = Params::parse(con.params, {{"n", std::to_string(n)}, {"c", std::to_string(c)}});
  const mqar::TaskShape s = mqar::task_shape(p);
  return {s, mqar::triples_exhaustive(n, c)};
}

// CPU engine vs the twin of `prog` on the check `chk`: same failures, same smallest failing index.
RunResult same_verdicts(Check chk, const std::shared_ptr<const DeviceProgram>& prog) {
  REQUIRE(prog);
  const RunResult cpu = run_domain(chk, 2, "");
  chk.device = prog;
  DomainOptions o;
  o.device = "twin";
  const DevicePath dp = choose_device(chk, o, 2, "test");
  for (std::uint64_t block : {std::uint64_t{0}, std::uint64_t{77}}) {
    const RunResult twin = run_domain(dp.check, 2, "", RunPlan{false, block});
    CHECK(twin.failed == cpu.failed);
    REQUIRE(twin.first.has_value() == cpu.first.has_value());
    if (cpu.first) CHECK(twin.first->first == cpu.first->first);
  }
  return cpu;
}

// A solver evaluating `m` exactly (the CPU side of the one-weight mutant).
MqarSolver model_solver(const mqar::Codec& codec, const Model& m) {
  MqarSolver sol;
  sol.codec = codec;
  sol.run = [codec, m](const mqar::Instance& x) {
    MqarRun r;
    r.output = mqarc::eval_exact(m, mqar::encode(codec, x));
    return r;
  };
  return sol;
}

}  // namespace

TEST_CASE("encoding bodies equal mqar::encode_token") {
  const mqar::Codec codecs[] = {mqar::make_codec(mqar::Encoding::OneHot, 5), mqar::make_codec(mqar::Encoding::Binary, 5),
                                mqar::make_codec(mqar::Encoding::PHot, 9, 2), mqar::make_codec(mqar::Encoding::PHot, 8, 3)};
  for (const mqar::Codec& k : codecs) {
    const gpu::ModCodec mk = gpu::mod_codec(k);
    for (std::int64_t t = 0; t < static_cast<std::int64_t>(k.c); ++t) {
      const auto row = mqar::encode_token(k, t);
      for (std::size_t j = 0; j < k.d; ++j)
        CHECK(gpu::mod_encode_entry(mk, static_cast<std::int32_t>(t), static_cast<std::int32_t>(j)) ==
              static_cast<std::uint32_t>(row[j]));
    }
  }
}

TEST_CASE("mqar/attention has a device path on exhaustive and sampled triples domains") {
  const Construction& con = find_construction("mqar/attention");
  const Params p = Params::parse(con.params, {{"n", "2"}, {"c", "4"}});
  const Built b = con.build(p);
  CHECK(con.check(p, b, DomainOptions{}).device != nullptr);
  DomainOptions sampled;
  sampled.samples = 100;
  CHECK(con.check(p, b, sampled).device != nullptr);
  const Params z = Params::parse(con.params, {{"c", "16"}, {"layout", "zoology"}, {"N", "8"}, {"kv", "2"}});
  CHECK(con.check(z, con.build(z), sampled).device == nullptr);  // zoology batches stay on the CPU
}

TEST_CASE("mqar/attention twin equals the CPU engine on seeded samples") {
  const Construction& con = find_construction("mqar/attention");
  for (auto [n, c, seed] : {std::tuple{4, 16, 1}, std::tuple{6, 64, 7}}) {
    if (c == 64 && test::lean()) continue;  // tests/lean.h: c = 64 repeats c = 16's path, 4x wider
    INFO("n=" << n << " c=" << c << " seed=" << seed);
    const Params p = Params::parse(con.params, {{"n", std::to_string(n)}, {"c", std::to_string(c)}});
    DomainOptions o;
    o.samples = 3000;
    o.seed = static_cast<std::uint64_t>(seed);
    const Check chk = con.check(p, con.build(p), o);
    REQUIRE(chk.domain == "sampled");
    CHECK(same_verdicts(chk, chk.device).failed == 0);
    // The construction's mutant on the same samples: the same failures, the same first index.
    const mqar::TaskShape s = mqar::task_shape(p);
    const mqar::Domain dom = mqar::triples_sampled(n, c, 3000, o.seed);
    const MqarSolver sol = mqarc::attention_solver(s, mqarc::AttnMutant::SameTriple);
    const Model m = mqarc::to_model(mqarc::attention_model(mqarc::worst_case_instance(s), mqarc::AttnMutant::SameTriple));
    CHECK(same_verdicts(mqar_check(dom, sol), gpu::mqar_mod_program(dom, sol.codec, m)).failed > 0);
  }
}

TEST_CASE("mqar/attention twin equals the CPU engine on whole exhaustive triples domains") {
  const Construction& con = find_construction("mqar/attention");
  for (auto [n, c] : {std::pair{2, 4}, std::pair{3, 4}, std::pair{2, 3}}) {
    INFO("n=" << n << " c=" << c);
    const Params p = Params::parse(con.params, {{"n", std::to_string(n)}, {"c", std::to_string(c)}});
    const Built b = con.build(p);
    const Check chk = con.check(p, b, DomainOptions{});
    CHECK(chk.instances == mqar::triples_count(n, c));
    CHECK(same_verdicts(chk, chk.device).failed == 0);
  }
}

TEST_CASE("mutants: twin and CPU engine fail with the same smallest failing index") {
  for (auto [n, c] : {std::pair{2, 4}, std::pair{3, 4}}) {
    INFO("n=" << n << " c=" << c);
    const Case k = triples(n, c);
    SUBCASE("construction mutant: pairs published at their own value row") {
      const MqarSolver sol = mqarc::attention_solver(k.shape, mqarc::AttnMutant::SameTriple);
      const Model m = mqarc::to_model(mqarc::attention_model(mqarc::worst_case_instance(k.shape), mqarc::AttnMutant::SameTriple));
      CHECK(same_verdicts(mqar_check(k.dom, sol), gpu::mqar_mod_program(k.dom, sol.codec, m)).failed > 0);
    }
    SUBCASE("one weight changed") {
      Model m = mqarc::to_model(mqarc::attention_model(mqarc::worst_case_instance(k.shape)));
      auto& L = std::get<BaseConvLayer>(m.layers.back().index() == 2 ? m.layers[m.layers.size() - 2] : m.layers.back());
      L.b1(3, 0) = Rat(L.b1(3, 0).num() + Int(1));  // the key channel's mask at row 3: one more published key
      const mqar::Codec codec = mqar::make_codec(mqar::Encoding::OneHot, c);
      CHECK(same_verdicts(mqar_check(k.dom, model_solver(codec, m)), gpu::mqar_mod_program(k.dom, codec, m)).failed > 0);
    }
  }
}

TEST_CASE("every encoding: a query-mask model, twin equals the CPU engine") {
  // y = M_Q ⊙ u (query rows copied, others zeroed): it passes exactly where every query's own
  // encoding is its answer's (binary: also null answers to token 0, whose row is zero), so the
  // failures depend on the encoding and the instance.
  for (auto [enc, c, p] : {std::tuple{mqar::Encoding::Binary, 4, 1}, std::tuple{mqar::Encoding::OneHot, 4, 1},
                           std::tuple{mqar::Encoding::PHot, 4, 2}, std::tuple{mqar::Encoding::Binary, 5, 1}})
    for (std::size_t n : {2, 3}) {
      if (n == 3 && test::lean()) continue;  // tests/lean.h: n = 3 repeats n = 2's path on 60x the instances
      const mqar::Codec codec = mqar::make_codec(enc, c, p);
      INFO("encoding " << static_cast<int>(enc) << " c=" << c << " n=" << n);
      Model m;
      m.N = m.inner_N = 3 * n;
      m.d = m.inner_d = codec.d;
      BaseConvLayer L{RatMatrix(m.d, m.d, Rat(0)), RatMatrix(m.N, m.d, Rat(0)), RatMatrix(m.N, m.d, Rat(0)), RatMatrix(m.N, m.d, Rat(0))};
      for (std::size_t j = 0; j < m.d; ++j) {
        L.h(0, j) = Rat(1);
        for (std::size_t r = 2; r < m.N; r += 3) L.b1(r, j) = Rat(1);
      }
      m.layers.emplace_back(L);
      const mqar::Domain dom = mqar::triples_exhaustive(n, c);
      const RunResult r = same_verdicts(mqar_check(dom, model_solver(codec, m)), gpu::mqar_mod_program(dom, codec, m));
      CHECK(r.failed > 0);
      if (enc == mqar::Encoding::Binary) CHECK(r.failed < dom.count);
    }
}
