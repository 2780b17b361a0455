// The "arch" self-check (verify/arch_check.h, app/engine/byo/byo_arch.h; `verify --model F --task arch`):
// every kind's fresh expansion passes in Z, Q and Fp; one changed weight of an expansion (made in
// memory: a file's expansion is recomputed when read) fails with a counterexample naming the layer;
// the domain is the stated box then seeded states; a model without architecture layers is an input error.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/engine/byo/byo_arch.h"
#include "model/arch_layer.h"
#include "model/model_json.h"
#include "tests/seed.h"
#include "util/error.h"
#include "verify/arch_check.h"

using namespace cz;
using json = nlohmann::json;

namespace {
Model arch_model(const std::string& ring, const std::vector<ArchLayer>& ls, std::size_t N, std::size_t inner_d) {
  json layers = json::array();
  std::size_t d = 1;
  for (const ArchLayer& a : ls) layers.push_back(arch_to_json(a)), d = std::max(d, arch_width(a));
  return model_from_json({{"format", "circuitzoo.model/1"}, {"ring", ring}, {"N", N}, {"d", d}, {"inner_N", N}, {"inner_d", inner_d},
                          {"conv", "causal"}, {"layers", layers}},
                         "m");
}

// The first failing instance of the check, by running it in order (as the engine's scalar path).
std::optional<Failure> first_failure(const Check& c) {
  for (std::uint64_t k = 0; k < c.instances; ++k)
    if (auto f = c.run(k)) return f;
  return std::nullopt;
}

// Whether the layer's output at row N-1, column 0 is nonzero on the all-ones state (in the box of
// the default domain). Then one changed weight of the last layer's gate bias there (b1) changes
// the expansion's function: that output is (x·W + b1) ⊙ (h ∗ x + b2), and its second factor is
// nonzero on that state. Seeded operators can be degenerate (a zero projection makes Hyena 0).
bool nondegenerate(const ArchLayer& a, std::size_t N, std::size_t inner_d) {
  Matrix<Rat> x(N, inner_d);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < arch_width(a); ++j) x(i, j) = Rat(1);
  return !arch_eval(RingQ{}, a, x)(N - 1, 0).is_zero();
}

template <class Draw>
ArchLayer draw_nondegenerate(std::mt19937_64& g, std::size_t N, Draw draw) {
  for (int tries = 0;; ++tries) {
    ArchLayer a{draw(g())};
    if (nondegenerate(a, N, arch_sim_width(a)) || tries == 100) return a;
  }
}

DomainOptions samples(std::uint64_t n, std::uint64_t seed = 1) {
  DomainOptions o;
  o.samples = n;
  o.seed = seed;
  o.threads = 1;
  return o;
}
}  // namespace

TEST_CASE("arch check: each kind's expansion matches its operator in Z, Q and Fp") {
  INFO("seed " << test::seed());
  auto g = test::rng(2861);
  const std::size_t N = 3;
  const std::vector<ArchLayer> all = {{random_hyena(N, 1, 2, g(), 2)}, {random_h3(N, 1, 2, g(), 2)},
                                      {random_retnet(N, 1, 1, 1, 1, g(), 2, 1)}, {random_rwkv(N, 1, g(), 2, true)}};
  for (const ArchLayer& a : all) {
    INFO(arch_kind(a));
    for (const std::string ring : {"Q", "Fp:1000003"}) {
      const Model m = arch_model(ring, {a}, N, arch_sim_width(a) + 1);
      const Check c = arch_expansion_check(m, samples(200), "m");
      CHECK(c.instances == 200);
      CHECK(c.description.find("evaluated over " + std::string(ring == "Q" ? "Q" : "Fp:1000003")) != std::string::npos);
      CHECK_FALSE(first_failure(c));
    }
  }
  // Z: integral operators (γ = 1, integral RWKV), two layers in one model.
  const Model z = arch_model("Z", {ArchLayer{random_retnet(N, 2, 1, 1, 1, g(), 2, 0)}, ArchLayer{random_rwkv(N, 1, g(), 2, false)}}, N, 5);
  REQUIRE(z.arch.size() == 2);
  CHECK_FALSE(first_failure(arch_expansion_check(z, samples(300), "z")));
}

TEST_CASE("arch check: one changed weight of a stored expansion fails with a counterexample") {
  INFO("seed " << test::seed());
  auto g = test::rng(2862);
  const std::size_t N = 3;
  const std::vector<ArchLayer> all = {draw_nondegenerate(g, N, [&](std::uint64_t s) { return random_hyena(N, 1, 2, s, 2); }),
                                      draw_nondegenerate(g, N, [&](std::uint64_t s) { return random_h3(N, 1, 2, s, 2); }),
                                      draw_nondegenerate(g, N, [&](std::uint64_t s) { return random_retnet(N, 1, 1, 1, 1, s, 2, 1); }),
                                      draw_nondegenerate(g, N, [&](std::uint64_t s) { return random_rwkv(N, 1, s, 2, true); })};
  for (const ArchLayer& a : all) {
    INFO(arch_kind(a));
    REQUIRE(nondegenerate(a, N, arch_sim_width(a)));
    Model m = arch_model("Q", {a}, N, arch_sim_width(a));
    DomainOptions o;  // the default domain: a box if it fits, then seeded states
    o.threads = 1;
    const Report good = run_arch_check(m, "good.json", o);
    CHECK(good.failed == 0);
    CHECK(good.instances > 0);
    // The mutant: the last layer's gate bias at the last row, output column 0 (the layer's own output).
    std::get<BaseConvLayer>(m.layers.back()).b1(N - 1, 0) += Rat(1);
    const auto f = first_failure(arch_expansion_check(m, o, "m"));
    REQUIRE(f);
    CHECK(f->instance["arch_layer"] == arch_kind(a));
    CHECK(f->message.find("the " + arch_kind(a) + " layer's expansion (model layers 0 to " + std::to_string(m.layers.size() - 1) + ")") == 0);
    const Report bad = run_arch_check(m, "bad.json", o);
    CHECK(bad.failed > 0);
    REQUIRE(bad.counterexample);
    CHECK(bad.counterexample->message.find("output[" + std::to_string(N - 1) + "][0]") != std::string::npos);
    CHECK(bad.exit_code() == 1);
  }
  // In Z (integral operators: Hyena and H3 here), through the checked int64 path, and with weights
  // of 2^40 whose products leave int64 (the check is redone in Z): the good model passes, the mutant fails.
  for (const std::int64_t scale : {std::int64_t{1}, std::int64_t{1} << 40})
    for (std::size_t k = 0; k < 2; ++k) {
      INFO(arch_kind(all[k]) << " in Z, weights times " << scale);
      ArchLayer a = all[k];
      if (auto* hy = std::get_if<HyenaOperator>(&a.op))
        for (Rat& w : hy->W.data()) w *= Rat(scale);
      else
        for (Rat& w : std::get<H3Operator>(a.op).WQ.data()) w *= Rat(scale);
      Model m = arch_model("Z", {a}, N, arch_sim_width(a));
      DomainOptions o;
      o.threads = 1;
      CHECK_FALSE(first_failure(arch_expansion_check(m, o, "m")));
      std::get<BaseConvLayer>(m.layers.back()).b1(N - 1, 0) += Rat(1);
      CHECK(first_failure(arch_expansion_check(m, o, "m")));
    }
  // A wrong middle tap of a decay filter (RetNet's γ^1), in Z's sibling Q: caught as well.
  Model r = arch_model("Q", {ArchLayer{random_retnet(N, 1, 1, 2, 2, 9, 2, 1)}}, N, 8);
  for (std::size_t c = 0; c < 4; ++c) std::get<BaseConvLayer>(r.layers[2]).h(1, c) += Rat(1);
  CHECK(first_failure(arch_expansion_check(r, samples(1000), "r")));
}

TEST_CASE("arch check: the domain is the small signed box then seeded whole states") {
  const std::size_t N = 3;
  const Model m = arch_model("Q", {ArchLayer{random_retnet(N, 1, 1, 1, 1, 5, 2, 1)}}, N, 4);  // width 1
  DomainOptions o;
  const ArchStateDomain d = make_arch_domain(m, o, "m");
  CHECK(d.box.count == 27);  // {-1,0,1}^(3x1)
  CHECK(d.samples.count == 1000);
  CHECK(d.count == 1027);
  CHECK(d.kind() == "exhaustive+sampled");
  CHECK(d.instance(26)(2, 0) == 1);  // the box's last state: every entry 1 in column 0 ...
  CHECK(d.instance(26)(2, 3) == 0);  // ... and 0 beyond the layer's width
  CHECK(d.describe().find("all 27 matrices in {-1,0,1}^(3x1) as the first 1 columns of the 3x4 state") == 0);
  o.force_exhaustive = true;
  CHECK(make_arch_domain(m, o, "m").kind() == "exhaustive");
  const ArchStateDomain s = make_arch_domain(m, samples(5, 7), "m");
  CHECK(s.count == 5);
  CHECK(s.instance(0).cols() == 4);
  CHECK(s.instance(0) == make_arch_domain(m, samples(9, 7), "m").instance(0));  // sample j is the same for every count
  // A wide state: no box fits 2^20 (3^(N·w) with N·w = 16 * 2): seeded states alone.
  const Model wide = arch_model("Q", {ArchLayer{random_rwkv(16, 1, 3, 2, true)}}, 16, 2);
  CHECK(make_arch_domain(wide, DomainOptions{}, "w").box.count == 0);
  CHECK(make_arch_domain(wide, DomainOptions{}, "w").count == 10000);
}

TEST_CASE("arch check: a model without architecture layers is an input error") {
  Model m = arch_model("Q", {ArchLayer{random_retnet(3, 1, 1, 1, 1, 5, 2, 1)}}, 3, 4);
  m.arch.clear();
  CHECK_THROWS_AS(arch_expansion_check(m, DomainOptions{}, "m"), InputError);
  Model past = arch_model("Q", {ArchLayer{random_retnet(3, 1, 1, 1, 1, 5, 2, 1)}}, 3, 4);
  past.layers.pop_back();  // a record beyond the layers
  CHECK_THROWS_AS(arch_expansion_check(past, DomainOptions{}, "m"), InputError);
}
