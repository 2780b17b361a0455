// sim/retnet and sim/rwkv (constructions/sim/): the BaseConv simulations equal RetNet's and RWKV's
// own recurrences on every input of the {-1,0,1} box and on seeded signed samples, exactly over Q
// (rational decays) and over Z (integral ones); the tuples are as claimed; a wrong decay tap, a
// wrong routing entry or a wrong token-shift tap is caught. Also sim/hyena's narrow layout.
#include <doctest/doctest.h>

#include "app/engine/engine.h"
#include "constructions/sim/rational_check.h"
#include "constructions/sim/retnet_sim.h"
#include "constructions/sim/rwkv_sim.h"
#include "constructions/sim/hyena_sim.h"
#include "tests/seed.h"
#include "util/error.h"

using namespace cz;

namespace {
using PMap = std::map<std::string, std::string>;

// Exhaustive box, then seeded samples: both must pass.
void verifies(const std::string& name, const PMap& p, std::size_t layers, std::size_t inner_d) {
  DomainOptions box;
  box.threads = 1;
  box.force_exhaustive = true;
  const Report r = run_verify(find_construction(name), p, box);
  CHECK(r.domain == "exhaustive");
  CHECK(r.failed == 0);
  CHECK(r.instances >= 27);
  DomainOptions s = box;
  s.force_exhaustive = false;
  s.samples = 1000;
  s.seed = test::seed();
  const Report q = run_verify(find_construction(name), p, s);
  CHECK(q.failed == 0);
  CHECK(q.instances == 1000);
  REQUIRE(r.model);
  CHECK((*r.model)["L"] == layers);
  CHECK((*r.model)["inner_d"] == inner_d);
  for (const auto& c : r.claims)
    if (c.binding) CHECK(c.holds.value_or(false));
  CHECK(r.exit_code() == 0);
}

template <class Sem>
std::uint64_t failures(const Model& m, Sem sem, std::size_t N, std::size_t d) {
  DomainOptions o;
  o.samples = 300;
  o.seed = test::seed();
  const Check c = sim::exact_model_vs_semantics(m, sem, make_matrix_domain(N, d, o, 3));
  std::uint64_t f = 0;
  for (std::uint64_t k = 0; k < c.instances; ++k) f += c.run(k) ? 1 : 0;
  return f;
}
}  // namespace

TEST_CASE("sim/retnet verifies (N, 4, d, N, H·dk·dv + 2H·dk) over Q and Z, + 4H·dk with the rotation") {
  INFO("seed " << test::seed());
  verifies("sim/retnet", {{"N", "3"}, {"d", "2"}}, 4, 12);                                  // γ = 1/2, rotated, Q
  verifies("sim/retnet", {{"N", "3"}, {"d", "2"}, {"rotation", "none"}}, 4, 8);             // θ = 0
  verifies("sim/retnet", {{"N", "4"}, {"d", "1"}, {"heads", "2"}, {"dk", "1"}, {"dv", "2"}, {"rotation", "none"}}, 4, 8);
  verifies("sim/retnet", {{"N", "3"}, {"d", "2"}, {"gexp", "0"}, {"dk", "1"}, {"dv", "3"}, {"rotation", "none"}}, 4, 5);  // γ = 1, Z
  verifies("sim/retnet", {{"N", "4"}, {"d", "1"}, {"heads", "2"}, {"dk", "4"}, {"dv", "1"}}, 4, 40);  // two rotated pairs per head
  CHECK_THROWS_AS(find_construction("sim/retnet").build(Params::parse(find_construction("sim/retnet").params, {{"dk", "1"}})), InputError);
  const Built b = find_construction("sim/retnet").build(Params::parse(find_construction("sim/retnet").params, {}));
  CHECK(b.model->ring == "Q");
}

TEST_CASE("sim/retnet mutants: a wrong decay tap or routing entry fails") {
  const RetNetOperator op = random_retnet(4, 1, 1, 2, 2, 5, 2, 1);
  const Model good = sim::retnet_to_baseconv(op);
  auto sem = [&op](const auto& r, const auto& u) { return retnet_eval(r, op, u); };
  CHECK(failures(good, sem, 4, 1) == 0);
  Model m = good;
  std::get<BaseConvLayer>(m.layers[2]).h(1, 0) += Rat(Int(1), Int(4));  // γ^1 tap of pair (0,0,0)
  CHECK(failures(m, sem, 4, 1) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[1]).W(4, 0) = Rat(0);  // pair (0,0,0) no longer reads key 0
  CHECK(failures(m, sem, 4, 1) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[2]).W(6, 1) = Rat(0);  // nor query 0 into pair (0,0,1)
  CHECK(failures(m, sem, 4, 1) > 0);
}

TEST_CASE("sim/rwkv verifies (N, 3, 2d, N, 2d) over Q and Z, and the ratio claim holds") {
  INFO("seed " << test::seed());
  verifies("sim/rwkv", {{"N", "3"}, {"d", "1"}}, 3, 2);
  verifies("sim/rwkv", {{"N", "4"}, {"d", "1"}, {"rational", "0"}}, 3, 2);
  verifies("sim/rwkv", {{"N", "2"}, {"d", "2"}, {"ratio_degree", "8"}}, 3, 4);
  const Built b = find_construction("sim/rwkv").build(Params::parse(find_construction("sim/rwkv").params, {}));
  CHECK(b.model->ring == "Q");
  CHECK(b.metrics["ratio_not_polynomial_up_to_degree"] == 64);
  CHECK(b.metrics["ratio_entries_checked"] == 3);  // 3 lines × 1 channel
  CHECK(b.metrics["numerator_degree_on_line"] == 2);  // E and v are linear along a line
  // The lines come from the model's own weights: other weights, other lines, same verdict; d = 3
  // checks every channel.
  const Built b3 = find_construction("sim/rwkv").build(Params::parse(find_construction("sim/rwkv").params, {{"d", "3"}, {"wseed", "7"}}));
  CHECK(b3.metrics["ratio_entries_checked"] == 9);
  CHECK(b3.metrics["ratio_not_polynomial_up_to_degree"] == 64);
  // The check can fail: at N = 1, wkv = v, a polynomial, and every entry fits (the claim fails).
  const Built b1 = find_construction("sim/rwkv").build(Params::parse(find_construction("sim/rwkv").params, {{"N", "1"}, {"ratio_degree", "8"}}));
  CHECK(b1.metrics["ratio_not_polynomial_up_to_degree"].is_null());
  for (const auto& c : b1.claims)
    if (c.quantity == "ratio_polynomial_fits") CHECK(c.achieved == 1);  // the one channel, on every line
}

TEST_CASE("sim/* stack=S: S architecture layers, each simulated, composed, and S times the layers") {
  INFO("seed " << test::seed());
  verifies("sim/retnet", {{"N", "3"}, {"d", "1"}, {"stack", "2"}}, 8, 12);
  verifies("sim/rwkv", {{"N", "3"}, {"d", "1"}, {"stack", "2"}, {"ratio_degree", "4"}}, 6, 2);
  verifies("sim/h3", {{"N", "3"}, {"d", "1"}, {"stack", "3"}}, 9, 3);
  verifies("sim/hyena", {{"N", "3"}, {"d", "1"}, {"stack", "2"}, {"order", "1"}}, 6, 2);
  // The reference really composes: stack = 2 is not layer 0 alone (a model of layer 0 fails it).
  const Construction& c = find_construction("sim/retnet");
  const Built two = c.build(Params::parse(c.params, {{"N", "3"}, {"d", "1"}, {"stack", "2"}}));
  const Built one = c.build(Params::parse(c.params, {{"N", "3"}, {"d", "1"}}));
  Built mixed = two;
  mixed.model = one.model;
  DomainOptions o;
  o.samples = 200;
  o.seed = test::seed();
  const Check chk = c.check(Params::parse(c.params, {{"N", "3"}, {"d", "1"}, {"stack", "2"}}), mixed, o);
  std::uint64_t f = 0;
  for (std::uint64_t k = 0; k < chk.instances; ++k) f += chk.run(k) ? 1 : 0;
  CHECK(f > 0);
}

TEST_CASE("sim/retnet rotation mutants: a wrong cos or sin gate, or a dropped sin channel, fails") {
  const RetNetOperator op = random_retnet(4, 1, 1, 2, 2, 5, 2, 1, true);
  REQUIRE(retnet_rotated(op));
  const Model good = sim::retnet_to_baseconv(op);
  auto sem = [&op](const auto& r, const auto& u) { return retnet_eval(r, op, u); };
  CHECK(failures(good, sem, 4, 1) == 0);
  const std::size_t P = 4;  // products (h, a, b): key cos at P, key sin at P + 2, query cos at P + 4, sin at P + 6
  Model m = good;
  std::get<BaseConvLayer>(m.layers[0]).b2(2, P) += Rat(Int(1), Int(5));  // cos(2θ) of key 0
  CHECK(failures(m, sem, 4, 1) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[0]).b2(1, P + 6) = -std::get<BaseConvLayer>(m.layers[0]).b2(1, P + 6);  // sin sign of query 0
  CHECK(failures(m, sem, 4, 1) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[1]).W(P + 2, 0) = Rat(0);  // key 0's sin channel not summed into pair (0,0,0)
  CHECK(failures(m, sem, 4, 1) > 0);
  // θ = 0 is the unrotated model, and that model fails a rotated operator.
  RetNetOperator flat = op;
  for (auto& head : flat.rotation)
    for (auto& cs : head) cs = {Rat(1), Rat(0)};
  CHECK_FALSE(retnet_rotated(flat));
  RetNetOperator none = op;
  none.rotation.clear();
  CHECK(sim::retnet_to_baseconv(flat).inner_d == sim::retnet_to_baseconv(none).inner_d);
  CHECK(failures(sim::retnet_to_baseconv(none), sem, 4, 1) > 0);
}

TEST_CASE("sim/rwkv mutants: a wrong decay tap, routing entry or token-shift tap fails") {
  const RwkvOperator op = random_rwkv(4, 1, 3, 2, true);
  const Model good = sim::rwkv_to_baseconv(op);
  auto sem = [&op](const auto& r, const auto& u) { return rwkv_eval(r, op, u); };
  CHECK(failures(good, sem, 4, 2) == 0);
  Model m = good;
  std::get<BaseConvLayer>(m.layers[2]).h(2, 0) += Rat(Int(1), Int(3));  // λ^1 tap of the numerator
  CHECK(failures(m, sem, 4, 2) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[2]).h(0, 1) += Rat(1);  // the denominator's bonus β
  CHECK(failures(m, sem, 4, 2) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[1]).W(0, 1) = Rat(0);  // E no longer routed to the denominator
  CHECK(failures(m, sem, 4, 2) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[0]).h(1, 1) += Rat(1);  // token shift's x[t−1] tap
  CHECK(failures(m, sem, 4, 2) > 0);
}

TEST_CASE("sim/hyena layout=narrow verifies (N, 2k+1, d, N, 3d), and a wrong tap or projection entry fails") {
  INFO("seed " << test::seed());
  verifies("sim/hyena", {{"N", "3"}, {"d", "1"}, {"order", "3"}, {"layout", "narrow"}}, 7, 3);
  verifies("sim/hyena", {{"N", "3"}, {"d", "2"}, {"order", "1"}, {"layout", "narrow"}}, 3, 6);
  const HyenaOperator op = random_hyena(4, 1, 3, 11, 2);
  const Model good = sim::hyena_to_baseconv_narrow(op);
  auto sem = [&op](const auto& r, const auto& u) { return hyena_eval(r, op, u); };
  CHECK(failures(good, sem, 4, 1) == 0);
  Model m = good;
  std::get<BaseConvLayer>(m.layers[4]).h(1, 0) += Rat(1);  // gate 2's long filter, tap 1
  CHECK(failures(m, sem, 4, 1) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[2]).W(1, 2) += Rat(1);  // gate 1's projection of p^2 from u
  CHECK(failures(m, sem, 4, 1) > 0);
  m = good;
  std::get<BaseConvLayer>(m.layers[3]).h(1, 2) += Rat(1);  // p^2's short filter
  CHECK(failures(m, sem, 4, 1) > 0);
  // Nonzero weights grow like k (the wide layout's like k²): orders 4 and 8 at N = 8, d = 2.
  auto nz = [](std::size_t k, bool narrow) {
    const HyenaOperator o = random_hyena(8, 2, k, 3, 2);
    return static_cast<double>(count_params(narrow ? sim::hyena_to_baseconv_narrow(o) : sim::hyena_to_baseconv(o)).nonzero);
  };
  CHECK(nz(8, true) / nz(4, true) < 2.2);
  CHECK(nz(8, false) / nz(4, false) > 2.8);
}
