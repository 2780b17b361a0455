// A user's BaseConv model against an operator given by its weights (app/engine/algebra/algebra_operator.h,
// issue 47 item 3): proved over all of Q^(N×w) for Hyena, H3, RetNet (rotated) and RWKV (numerator
// and denominator); a one-tap mutant refuted at a point that exact evaluation of the model and of
// the operator confirms independently here; the compositional route and weights as symbols; the
// enumerating check; refusals.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/engine/algebra/algebra_operator.h"
#include "model/arch_layer.h"
#include "model/eval.h"
#include "model/model_json.h"
#include "model/zoo_compile.h"
#include "util/error.h"
#include "verify/construction.h"

using namespace cz;

namespace {

// The BaseConv simulation of the layer, as a user's own model file would hold it (no arch record).
Model user_of(const ArchLayer& a) {
  return std::visit(
      [](const auto& op) -> Model {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, HyenaOperator>) return sim::hyena_to_baseconv(op);
        else if constexpr (std::is_same_v<T, H3Operator>) return sim::hyena_to_baseconv(h3_as_hyena(op), false);
        else if constexpr (std::is_same_v<T, RetNetOperator>) return sim::retnet_to_baseconv(op);
        else return sim::rwkv_to_baseconv(op);
      },
      a.op);
}

// One nonzero tap of the last layer's filter (or W entry) moved by 1.
Model one_tap_mutant(Model m) {
  for (std::size_t l = m.layers.size(); l-- > 0;) {
    auto& L = std::get<BaseConvLayer>(m.layers[l]);
    for (RatMatrix* M : {&L.h, &L.W})
      for (Rat& x : M->data())
        if (!x.is_zero()) {
          x += Rat(1);
          return m;
        }
  }
  FAIL("no nonzero weight");
  return m;
}

// The counterexample's input, evaluated here by the model and by the operator: they differ.
bool confirmed(const Model& m, const ArchLayer& a, const Failure& f) {
  const RatMatrix u = matrix_from_json(f.input, "counterexample.input");
  return eval(prepare(RingQ{}, m), u) != arch_eval(RingQ{}, a, u);
}

std::vector<ArchLayer> operators(std::size_t N) {
  return {{random_hyena(N, 2, 2, 3, 2)}, {random_h3(N, 2, 2, 4, 2)}, {random_retnet(N, 2, 1, 2, 2, 5, 2, 1, true)},
          {random_rwkv(N, 2, 6, 2, true)}};
}

}  // namespace

TEST_CASE("a user's BaseConv model proved against each operator file, a one-tap mutant refuted and confirmed") {
  for (const ArchLayer& a : operators(6)) {
    INFO(arch_kind(a));
    const Model mine = user_of(a);
    AlgebraOptions o;
    const AlgebraOutcome good = run_operator_algebra(mine, "mine.json", a, "op.json", o);
    CHECK(good.verdict == "proved");
    CHECK(good.exit_code == 0);
    CHECK(good.report["task"] == arch_kind(a));
    CHECK(good.report["operator"]["file"] == "op.json");
    CHECK(good.report["algebra"]["route"] == "expansion");
    const Model bad = one_tap_mutant(mine);
    const AlgebraOutcome r = run_operator_algebra(bad, "mine.json", a, "op.json", o);
    CHECK(r.verdict == "refuted");
    CHECK(r.exit_code == 1);
    REQUIRE(r.counterexample);
    CHECK(confirmed(bad, a, *r.counterexample));
    CHECK(!confirmed(mine, a, *r.counterexample));
  }
}

TEST_CASE("operator files: the compositional route for Hyena and H3, weights as symbols, the enumerating check") {
  const auto ops = operators(5);
  AlgebraOptions comp;
  comp.route = "compositional";
  for (std::size_t i : {0u, 1u}) {  // hyena, h3: the wide layout
    INFO(arch_kind(ops[i]));
    const Model mine = user_of(ops[i]);
    const AlgebraOutcome good = run_operator_algebra(mine, "mine.json", ops[i], "op.json", comp);
    CHECK(good.verdict == "proved");
    CHECK(good.report["algebra"]["route"] == "compositional");
    const AlgebraOutcome bad = run_operator_algebra(one_tap_mutant(mine), "mine.json", ops[i], "op.json", comp);
    CHECK(bad.verdict == "refuted");
  }
  // RetNet has no compositional route; a model of another layout neither.
  CHECK_THROWS_AS(run_operator_algebra(user_of(ops[2]), "mine.json", ops[2], "op.json", comp), InputError);
  AlgebraOptions w;
  w.symbols = "weights";
  for (std::size_t i : {1u, 3u}) {  // h3, rwkv: every weight a symbol
    INFO(arch_kind(ops[i]));
    const AlgebraOutcome r = run_operator_algebra(user_of(ops[i]), "mine.json", ops[i], "op.json", w);
    CHECK(r.verdict == "proved");
    CHECK(r.report["algebra"]["weight_symbols"].get<std::size_t>() > 0);
    // A model that is not the compiler's output at the file's weights: nothing to prove for every weight.
    CHECK_THROWS_AS(run_operator_algebra(one_tap_mutant(user_of(ops[i])), "mine.json", ops[i], "op.json", w), InputError);
  }
  DomainOptions d;
  d.threads = 1;
  d.samples = 50;
  for (const ArchLayer& a : ops) {
    INFO(arch_kind(a));
    CHECK(run_operator_check(user_of(a), "mine.json", a, "op.json", d).failed == 0);
    CHECK(run_operator_check(one_tap_mutant(user_of(a)), "mine.json", a, "op.json", d).failed > 0);
  }
}

TEST_CASE("operator files: refusals name the file") {
  const auto ops = operators(4);
  // The operator file must be one architecture layer of the task's kind.
  Model f;
  f.ring = "Q", f.N = f.inner_N = 4, f.d = 2, f.inner_d = arch_sim_width(ops[0]);
  append_arch(f, ops[0], "op.json");
  CHECK(operator_of(f, "op.json", "hyena") != nullptr);
  CHECK_THROWS_WITH_AS(operator_of(f, "op.json", "h3"), doctest::Contains("holds a hyena layer"), InputError);
  CHECK_THROWS_AS(operator_of(user_of(ops[0]), "mine.json", "hyena"), InputError);
  // The user's model must take the operator's input (RWKV: N×2d).
  AlgebraOptions o;
  CHECK_THROWS_WITH_AS(run_operator_algebra(user_of(ops[0]), "mine.json", ops[3], "op.json", o), doctest::Contains("takes 4×4"), InputError);
  // -p values must agree with the file's.
  CHECK_NOTHROW(check_operator_params({{"order", "2"}, {"N", "4"}}, ops[0], "op.json"));
  CHECK_THROWS_AS(check_operator_params({{"order", "3"}}, ops[0], "op.json"), InputError);
}
