// The two compilers, each checked by exhaustive equivalence on all 0/1 inputs.
#include <doctest/doctest.h>

#include "circuits/circuit_to_model.h"
#include "circuits/equiv.h"
#include "circuits/gadgets_compare.h"
#include "circuits/model_to_circuit.h"
#include "circuits/stats.h"
#include "constructions/mqar/dyadic_circuit.h"
#include "constructions/primitives/builders.h"
#include "tests/circuits/random_circuit.h"
#include "tests/seed.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

Model random_model(std::mt19937_64& rng, std::size_t N, std::size_t d, std::size_t Np, std::size_t dp, ConvMode conv,
                   std::size_t layers) {
  Model m;
  m.N = N; m.d = d; m.inner_N = Np; m.inner_d = dp; m.conv = conv;
  auto rnd = [&](RatMatrix& x, int density) {
    for (auto& e : x.data()) e = (static_cast<int>(rng() % 10) < density) ? Rat(static_cast<std::int64_t>(rng() % 5) - 2) : Rat(0);
  };
  for (std::size_t l = 0; l < layers; ++l) {
    BaseConvLayer L = zero_baseconv(m);
    rnd(L.W, 4); rnd(L.b1, 3); rnd(L.h, 3); rnd(L.b2, 3);
    m.layers.push_back(L);
  }
  return m;
}

}  // namespace

TEST_CASE("model -> circuit agrees with the model on all 0/1 inputs (primitives, every conv mode)") {
  std::vector<Model> ms = {build::shift_down(4, 2, 1), build::cumsum(5, 2), build::shift_up(4, 2, 1, ConvMode::Cyclic),
                           build::shift_up(4, 2, 2, ConvMode::Anticausal), build::hadamard_blocks(3, 2),
                           build::remember(6, 1, 1, 4, build::cumsum(3, 1))};
  for (const auto& m : ms) {
    Circuit c = model_to_circuit(m);
    CHECK(c.input_name(0) == "u[0][0]");
    CHECK(c.outputs()[0].name == "y[0][0]");
    auto r = equivalent_on_01(c, m, 2);
    CHECK(r.equivalent);
    CHECK(r.instances == (std::uint64_t{1} << (m.N * m.d)));
  }
}

TEST_CASE("model -> circuit on random dense models, all conv modes, 2 layers") {
  auto rng = test::rng(21);
  INFO("seed " << test::seed());
  for (ConvMode mode : {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal})
    for (int t = 0; t < 3; ++t) {
      Model m = random_model(rng, 3, 2, 4, 3, mode, 2);
      Circuit c = model_to_circuit(m);
      CHECK(equivalent_on_01(c, m, 2).equivalent);
      auto s = compute_stats(c, {false, false});
      CHECK(s.mul_depth <= 2);  // one gating per layer
    }
}

TEST_CASE("model -> circuit: linear attention layer, and MLP is refused") {
  Model m;
  m.N = 4; m.d = 2; m.inner_N = 4; m.inner_d = 2;
  LinearAttentionLayer la{RatMatrix(2, 2), RatMatrix(2, 2), RatMatrix(2, 2)};
  la.Wq(0, 0) = 1; la.Wq(1, 1) = 2; la.Wk(0, 1) = 1; la.Wk(1, 0) = -1; la.Wv(0, 0) = 1; la.Wv(1, 0) = 1; la.Wv(1, 1) = 3;
  m.layers.push_back(la);
  Circuit c = model_to_circuit(m);
  CHECK(equivalent_on_01(c, m, 2).equivalent);
  Model bad = m;
  bad.layers[0] = MlpLayer{RatMatrix(2, 2), RatMatrix(4, 2), RatMatrix(2, 2), RatMatrix(4, 2)};
  CHECK_THROWS_AS(model_to_circuit(bad), std::invalid_argument);
}

TEST_CASE("a corrupted weight is caught by the circuit-vs-model check (mutant)") {
  Model m = build::cumsum(4, 1);
  Circuit c = model_to_circuit(m);
  auto& L = std::get<BaseConvLayer>(m.layers[0]);
  L.h(3, 0) = Rat(2);  // the last tap doubled: only row 3 changes, only when u[0] = 1
  auto r = equivalent_on_01(c, m, 1);
  REQUIRE(!r.equivalent);
  CHECK(r.counterexample->instance == 1);
  CHECK(r.counterexample->output == "y[3][0]");
}

TEST_CASE("circuit -> model on random circuits in one row: equal on all inputs, shape report") {
  auto rng = test::rng(31);
  INFO("seed " << test::seed());
  for (int t = 0; t < 6; ++t) {
    Circuit c = test::random_circuit(rng, 4, 25, 3, t % 2 == 1);
    ToModel tm = circuit_to_model(c, default_layout(c));
    auto s = compute_stats(c, {false, false});
    CHECK(tm.model.layers.size() == 2 * s.mul_depth + 4);
    CHECK(tm.model.inner_N == 1);
    CHECK(tm.model.N == 1);
    CHECK(tm.model.d == 4);
    CHECK(equivalent_on_01(c, tm.model, 2).equivalent);
  }
}

TEST_CASE("circuit -> model with rows: a comparator circuit, and model -> circuit -> model") {
  // y[1][0] = [u[0] < u[1]] as 2-bit words (row 0 holds x, row 1 holds y): causal, output at row 1.
  Builder b;
  g::Bits x = {b.input("u[0][0]", Type::Bit), b.input("u[0][1]", Type::Bit)};
  g::Bits y = {b.input("u[1][0]", Type::Bit), b.input("u[1][1]", Type::Bit)};
  b.output("y[0][0]", b.zero());
  b.output("y[0][1]", x[0]);
  b.output("y[1][0]", g::less_than(b, x, y));
  b.output("y[1][1]", g::equal(b, x, y));
  Circuit c = std::move(b).finish();
  ToModel tm = circuit_to_model(c, default_layout(c));
  CHECK(tm.model.N == 2);
  CHECK(tm.model.d == 2);
  CHECK(equivalent_on_01(c, tm.model, 2).equivalent);

  Model m = build::remember(5, 1, 1, 3, build::cumsum(2, 1));
  Circuit mc = model_to_circuit(m);
  ToModel back = circuit_to_model(mc, default_layout(mc));
  CHECK(equivalent_on_01(mc, back.model, 2).equivalent);
}

TEST_CASE("circuit -> model refuses a non-causal placement, naming output and input") {
  Builder b;
  Wire u0 = b.input("u[0][0]"), u1 = b.input("u[1][0]");
  b.output("y[0][0]", b.mul(u0, u1));  // row 0 needs row 1: shift_up
  b.output("y[1][0]", u0);
  Circuit c = std::move(b).finish();
  try {
    circuit_to_model(c, default_layout(c));
    FAIL("expected CausalityError");
  } catch (const CausalityError& e) {
    std::string w = e.what();
    CHECK(w.find("y[0][0]") != std::string::npos);
    CHECK(w.find("u[1][0]") != std::string::npos);
  }
}

TEST_CASE("a compiled model with one weight changed is caught (mutant)") {
  Builder b;
  Wire x = b.input("x"), y = b.input("y"), z = b.input("z");
  b.output("o", b.add(b.mul(x, y), b.mul(y, z)));
  Circuit c = std::move(b).finish();
  ToModel tm = circuit_to_model(c, default_layout(c));
  CHECK(equivalent_on_01(c, tm.model).equivalent);
  auto& L = std::get<BaseConvLayer>(tm.model.layers[tm.model.layers.size() - 2]);  // E1
  for (std::size_t k = 0; k < L.W.rows(); ++k)
    if (!L.W(k, 0).is_zero()) { L.W(k, 0) = Rat(3); break; }
  CHECK(!equivalent_on_01(c, tm.model).equivalent);
}

TEST_CASE("the compiler's plan is the built model's shape and dense count (random circuits, rows, mqar/dyadic)") {
  auto same = [](const Circuit& c, const Layout& lay) {
    const ModelPlan p = plan_circuit_to_model(c, lay);
    const ToModel tm = circuit_to_model(c, lay);
    CHECK(p.layers == tm.model.layers.size());
    CHECK(p.inner_N == tm.model.inner_N);
    CHECK(p.inner_d == tm.model.inner_d);
    CHECK(p.stages == tm.stages);
    CHECK(p.params_dense == count_params(tm.model).dense);
  };
  auto rng = test::rng(37);
  INFO("seed " << test::seed());
  for (int t = 0; t < 6; ++t) {
    const Circuit c = test::random_circuit(rng, 4, 25, 3, t % 2 == 1);
    same(c, default_layout(c));
  }
  Builder b;  // two rows: the comparator of rows 0 and 1 placed at row 1
  const g::Bits x = g::input_bits(b, "x", 3), y = g::input_bits(b, "y", 3);
  b.output("lt", g::less_than(b, x, y));
  const Circuit c = std::move(b).finish();
  Layout lay;
  lay.N = 2;
  lay.d = 3;
  for (std::size_t k = 0; k < 6; ++k) lay.in_pos.emplace_back(k / 3, k % 3);
  lay.out_pos.emplace_back(1, 0);
  same(c, lay);
  for (std::size_t n : {2, 4}) {
    mqarc::DyadicConfig cfg;
    cfg.n = n;
    cfg.codec = mqar::make_codec(mqar::Encoding::Binary, n);
    cfg.sort_queries = false;
    cfg.found_output = false;
    const mqarc::DyadicCircuit dc = mqarc::build_dyadic(cfg);
    same(*dc.circuit, layout_for(*dc.circuit, dc.N, dc.d));
  }
}
