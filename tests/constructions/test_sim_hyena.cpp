// sim/hyena and sim/h3 (constructions/sim/): the BaseConv simulation of Hyena equals Hyena's own
// exact evaluation on every input of the default domains, has the claimed tuple, and a wrong
// weight in the compiled model (a long-filter tap, a routing entry, a dropped layer) is caught.
#include <doctest/doctest.h>

#include "app/engine/engine.h"
#include "constructions/sim/hyena_sim.h"
#include "model/h3.h"
#include "verify/model_check.h"
#include "tests/seed.h"

using namespace cz;

namespace {
std::uint64_t failures(const Model& m, const HyenaOperator& op, std::size_t N, std::size_t d) {
  DomainOptions o;
  o.samples = 2000;
  o.seed = test::seed();
  const Check c = model_vs_semantics(m, [&op](const auto& r, const auto& u) { return hyena_eval(r, op, u); },
                                     make_matrix_domain(N, d, o, 3));
  std::uint64_t f = 0;
  for (std::uint64_t k = 0; k < c.instances; ++k) f += c.run(k) ? 1 : 0;
  return f;
}
}  // namespace

TEST_CASE("sim/hyena verifies at orders 1..3 with the tuple (N, k+2, d, N, (k+1)d)") {
  DomainOptions dom;
  dom.threads = 1;
  for (const auto& [k, N, d] : {std::tuple{1, 4, 1}, std::tuple{2, 4, 2}, std::tuple{3, 5, 1}, std::tuple{3, 3, 3}}) {
    INFO("order " << k << ", N " << N << ", d " << d);
    const Report r = run_verify(find_construction("sim/hyena"),
                                {{"order", std::to_string(k)}, {"N", std::to_string(N)}, {"d", std::to_string(d)}}, dom);
    CHECK(r.failed == 0);
    CHECK(r.instances >= 10000);
    REQUIRE(r.model);
    CHECK((*r.model)["L"] == k + 2);
    CHECK((*r.model)["inner_d"] == (k + 1) * d);
    CHECK((*r.model)["inner_N"] == N);
    for (const auto& c : r.claims)
      if (c.binding) CHECK(c.holds.value_or(false));
  }
}

TEST_CASE("sim/hyena mutants: a wrong filter tap, routing entry or a dropped layer fails") {
  const std::size_t N = 4, d = 1, k = 2;
  const HyenaOperator op = random_hyena(N, d, k, 7, 2);
  const Model good = sim::hyena_to_baseconv(op);
  CHECK(failures(good, op, N, d) == 0);
  Model m = good;
  auto& g1 = std::get<BaseConvLayer>(m.layers[2]);
  g1.h(1, 0) += Rat(1);  // long filter h^1, tap 1
  CHECK(failures(m, op, N, d) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[3]).W(2 * d, 0) = Rat(0);  // gate 2 no longer reads p^2
  CHECK(failures(m, op, N, d) > 0);
  m = good;
  m.layers.pop_back();
  CHECK(failures(m, op, N, d) > 0);
}

TEST_CASE("sim/h3 verifies (N, 3, d, N, 3d) against the SSM recurrences, and a wrong kernel tap fails") {
  DomainOptions dom;
  dom.threads = 1;
  for (const auto& [N, d, m] : {std::tuple{4, 1, 2}, std::tuple{5, 2, 3}, std::tuple{3, 3, 1}}) {
    INFO("N " << N << ", d " << d << ", m " << m);
    const Report r = run_verify(find_construction("sim/h3"),
                                {{"N", std::to_string(N)}, {"d", std::to_string(d)}, {"m", std::to_string(m)}}, dom);
    CHECK(r.failed == 0);
    CHECK(r.instances >= 10000);
    REQUIRE(r.model);
    CHECK((*r.model)["L"] == 3);
    CHECK((*r.model)["inner_d"] == 3 * d);
  }
  const H3Operator op = random_h3(4, 1, 2, 3, 2);
  const Model good = sim::hyena_to_baseconv(h3_as_hyena(op), false);
  auto fails = [&](const Model& m) {
    DomainOptions o;
    o.samples = 2000;
    o.seed = test::seed();
    const Check c = model_vs_semantics(m, [&op](const auto& r, const auto& u) { return h3_eval(r, op, u); }, make_matrix_domain(4, 1, o, 3));
    std::uint64_t f = 0;
    for (std::uint64_t k = 0; k < c.instances; ++k) f += c.run(k) ? 1 : 0;
    return f;
  };
  CHECK(fails(good) == 0);
  Model bad = good;
  std::get<BaseConvLayer>(bad.layers[1]).h(0, 0) += Rat(1);  // the shift kernel's tap 0 (C[0] + D)
  CHECK(fails(bad) > 0);
  CHECK_THROWS_AS(sim::hyena_to_baseconv(random_hyena(4, 1, 2, 1, 2), false), std::invalid_argument);
}
