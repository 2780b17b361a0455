// sim/hyena (constructions/sim/hyena_sim.h): the BaseConv simulation of Hyena equals Hyena's own
// exact evaluation on every input of the default domains, has the claimed tuple, and a wrong
// weight in the compiled model (a long-filter tap, a routing entry, a dropped layer) is caught.
#include <doctest/doctest.h>

#include "app/engine/engine.h"
#include "constructions/sim/hyena_sim.h"
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
