// The cyclic circuit -> BaseConv compiler (circuits/circuit_to_model_cyclic.h, Theorem H.21 with
// d' = d) and the K-matrix row layers it rests on (circuits/kmatrix_rows.h): the one-gate circuit
// "output row 0 := input row 1" fails the causal compiler (exact counterexample) and passes the
// cyclic one; random circuits compile to models equal on every 0/1 input with inner_d = d; a
// changed weight is caught (mutant).
#include <doctest/doctest.h>

#include "circuits/builder.h"
#include "circuits/circuit_to_model.h"
#include "circuits/circuit_to_model_cyclic.h"
#include "circuits/equiv.h"
#include "circuits/kmatrix_rows.h"
#include "circuits/layout.h"
#include "model/eval.h"
#include "tensor/kmatrix_forms.h"
#include "tests/circuits/random_circuit.h"
#include "tests/seed.h"

using namespace cz;
using namespace cz::circuits;

namespace {

Circuit lookahead() {  // y[0][0] := u[1][0], N = 2, d = 1
  Builder b;
  b.input("u[0][0]");
  b.output("y[0][0]", b.input("u[1][0]"));
  return std::move(b).finish();
}

Matrix<Int> run(const Model& m, std::initializer_list<std::int64_t> col) {
  Matrix<Int> u(m.N, 1, Int(0));
  std::size_t i = 0;
  for (auto v : col) u(i++, 0) = Int(v);
  return eval(prepare(RingZ{}, m), u);
}

}  // namespace

TEST_CASE("output row 0 := input row 1 fails the causal compiler and passes the cyclic one") {
  const Circuit c = lookahead();
  const Layout lay = default_layout(c);
  REQUIRE(lay.N == 2);
  REQUIRE(lay.d == 1);
  CHECK_THROWS_AS(circuit_to_model(c, lay), CausalityError);
  const ToModelCyclic tm = circuit_to_model_cyclic(c, lay);
  CHECK(tm.model.conv == ConvMode::Cyclic);
  CHECK(tm.model.inner_d == 1);  // d' = d
  CHECK(equivalent_on_01(c, tm.model).equivalent);
  for (std::int64_t a = -2; a <= 2; ++a)
    for (std::int64_t v = -2; v <= 2; ++v) CHECK(run(tm.model, {a, v})(0, 0) == Int(v));
  // The exact counterexample for causal models: u = (0, 0) and u = (0, 1) agree on row 0, so a
  // causal model's y[0][0] is the same on both (causality lemma, spec §2.1), while the circuit
  // gives 0 and 1. The same weights read causally show it.
  Model causal = tm.model;
  causal.conv = ConvMode::Causal;
  CHECK(run(causal, {0, 0})(0, 0) == run(causal, {0, 1})(0, 0));
  CHECK(run(tm.model, {0, 0})(0, 0) == Int(0));
  CHECK(run(tm.model, {0, 1})(0, 0) == Int(1));
}

TEST_CASE("cyclic compiler: random circuits equal on every 0/1 input, inner_d = d, and a changed weight is caught (mutant)") {
  auto rng = test::rng(47);
  INFO("seed " << test::seed());
  for (int t = 0; t < 2; ++t) {
    const Circuit c = test::random_circuit(rng, 3, 6, 2, t % 2 == 1);
    const Layout lay = default_layout(c);
    ToModelCyclic tm = circuit_to_model_cyclic(c, lay);
    CHECK(tm.model.inner_d == lay.d);
    CHECK(tm.routing_maps == tm.stages + 1);
    CHECK(equivalent_on_01(c, tm.model, 2).equivalent);
    if (t == 0) {
      // The multiply layer of the first level: its δ_H tap doubled doubles every product there.
      for (auto& layer : tm.model.layers) {
        auto& L = std::get<BaseConvLayer>(layer);
        bool tap = false;  // the multiply layer: W(0,0) = 1 and a δ_H tap (copy/move layers have W = 0)
        for (std::size_t r = 1; r < L.h.rows(); ++r) tap = tap || !L.h(r, 0).is_zero();
        if (!L.W(0, 0).is_zero() && tap) {
          for (std::size_t r = 1; r < L.h.rows(); ++r)
            if (!L.h(r, 0).is_zero()) L.h(r, 0) = Rat(2);
          break;
        }
      }
      if (tm.stages > 0) CHECK(!equivalent_on_01(c, tm.model, 2).equivalent);
    }
  }
}

TEST_CASE("K-matrix row layers: a random K-matrix on vec(u) equals its product, and a wrong copy weight is caught (mutant)") {
  auto g = test::rng(53);
  INFO("seed " << test::seed());
  RingQ Q;
  for (std::size_t N : {2, 3}) {
    const std::size_t d = 2, nh = pad_pow2(N * d);
    KMatrix<Rat> k;
    k.n = nh, k.e = 2;
    for (int w = 0; w < 2; ++w) {
      BBStar<Rat> el;
      for (Butterfly<Rat>* b : {&el.M1, &el.M2}) {
        *b = Butterfly<Rat>(k.inner(), Rat(), Rat(1));
        for (auto& F : b->factors)
          for (std::vector<Rat>* dv : {&F.d1, &F.d2, &F.d3, &F.d4})
            for (Rat& x : *dv) x = Rat(Int(static_cast<std::int64_t>(g() % 7) - 3));
      }
      k.elements.push_back(std::move(el));
    }
    Model m = kmatrix_to_model(k, N, d, "Z");
    CHECK(m.inner_d == d);
    CHECK(m.layers.size() == 4 * k.width() * log2_exact(k.inner()) + 4);
    auto agree = [&](const Model& mm) {
      for (int t = 0; t < 20; ++t) {
        Matrix<Int> u(N, d, Int(0));
        std::vector<Rat> v(k.n);
        for (std::size_t j = 0; j < d; ++j)
          for (std::size_t i = 0; i < N; ++i) u(i, j) = Int(static_cast<std::int64_t>(g() % 7) - 3), v[j * N + i] = Rat(u(i, j));
        const auto y = eval(prepare(RingZ{}, mm), u);
        const auto want = apply(Q, k, v);
        for (std::size_t j = 0; j < d; ++j)
          for (std::size_t i = 0; i < N; ++i)
            if (!(Rat(y(i, j)) == want[j * N + i])) return false;
      }
      return true;
    };
    CHECK(agree(m));
    auto& copy = std::get<BaseConvLayer>(m.layers[2]);  // the first factor's copy layer
    copy.b1(0, 0) = copy.b1(0, 0) + Rat(1);
    CHECK(!agree(m));
  }
}
