// --method algebra with the WEIGHTS as symbols (app/engine/algebra/algebra_weights.h) and over F_p
// (RingPolyFp, exact/poly_fp.h), issue 37 item 1:
//  - the compilers' Rat instantiation gives the shipped model: the symbolic layers evaluated at the
//    seeded weights equal it entry by entry (checked inside every weights proof; a model that is
//    not the compiler's output is refused);
//  - every sim proved for every weight at a small N;
//  - a compiler mutant right for the seeded weights only (a long-filter tap dropped where the seeded
//    operator has 0) passes the input-only proof and is refuted with weights as symbols, the
//    weight assignment and input confirmed by compiling and evaluating exactly;
//  - F_p: a model right only mod 7 proved over F_7 and refuted over Q; a model wrong mod 7 refuted
//    over F_7 with a confirmed counterexample; F_p[x] arithmetic against F_p evaluation.
#include <doctest/doctest.h>

#include "app/engine/algebra/algebra.h"
#include "app/engine/algebra/algebra_arch.h"
#include "app/engine/algebra/algebra_weights.h"
#include "exact/poly_fp.h"
#include "model/arch_layer.h"
#include "model/eval.h"
#include "model/model_json.h"
#include "util/error.h"
#include "verify/symbolic_reference.h"

using namespace cz;

namespace {

struct Sim {
  Built bt;
  std::shared_ptr<const SymbolicReference> ref;
};

Sim build(const std::string& name, const std::map<std::string, std::string>& given) {
  const Construction& c = find_construction(name);
  Built bt = c.build(Params::parse(c.params, given));
  auto ref = symbolic_of(bt);
  REQUIRE(ref);
  return {std::move(bt), std::move(ref)};
}

AlgebraOptions weights_options() {
  AlgebraOptions o;
  o.symbols = "weights";
  o.budget_bytes = std::uint64_t{1} << 30;
  return o;
}

}  // namespace

TEST_CASE("algebra weights: every sim proved for every weight at a small N") {
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> cases = {
      {"sim/hyena", {{"N", "4"}, {"d", "1"}, {"order", "2"}}},
      {"sim/hyena", {{"N", "3"}, {"d", "2"}, {"order", "2"}, {"layout", "narrow"}}},
      {"sim/h3", {{"N", "4"}, {"d", "1"}, {"m", "2"}}},
      {"sim/h3", {{"N", "3"}, {"d", "2"}, {"m", "2"}, {"form", "shift_v"}}},
      {"sim/retnet", {{"N", "4"}, {"d", "1"}, {"heads", "1"}, {"dk", "2"}, {"dv", "1"}}},
      {"sim/retnet", {{"N", "3"}, {"d", "2"}, {"rotation", "none"}}},
      {"sim/rwkv", {{"N", "4"}, {"d", "1"}}},
  };
  for (const auto& [name, given] : cases) {
    CAPTURE(name);
    const Sim s = build(name, given);
    REQUIRE(s.ref->weights);
    const AlgebraOutcome r = prove_model_identity(*s.bt.model, *s.ref, weights_options(), {{"construction", name}}, name);
    CHECK(r.verdict == "proved");
    CHECK(r.report["algebra"]["symbols_of"] == "inputs+weights");
    CHECK(r.report["algebra"]["weight_symbols"].get<std::size_t>() == s.ref->weights->names.size());
    CHECK(r.report["algebra"]["model_matches_seeded_weights"] == true);
  }
}

TEST_CASE("algebra weights: Hyena step by step with the weights as symbols, as the expansion decides") {
  const Sim s = build("sim/hyena", {{"N", "4"}, {"d", "2"}, {"order", "3"}});
  AlgebraOptions o = weights_options();
  o.route = "compositional";
  const AlgebraOutcome c = prove_model_identity(*s.bt.model, *s.ref, o, {}, "sim/hyena");
  CHECK(c.verdict == "proved");
  CHECK(c.report["algebra"]["route"] == "compositional");
  CHECK(c.report["algebra"]["steps"].size() == 4);  // the projection and 3 gates
  o.route = "expansion";
  CHECK(prove_model_identity(*s.bt.model, *s.ref, o, {}, "sim/hyena").verdict == "proved");
  // a tampered long-filter tap: a gate step fails, and the composition is refuted at a confirmed point
  Model bad = *s.bt.model;
  std::get<BaseConvLayer>(bad.layers[3]).h(2, 0) += Rat(1);
  o.route = "compositional";
  CHECK_THROWS_AS(prove_model_identity(bad, *s.ref, o, {}, "sim/hyena"), InputError);  // not the compiler's output
  const Sim h3 = build("sim/h3", {{"N", "4"}, {"d", "1"}});
  CHECK_THROWS_AS(prove_model_identity(*h3.bt.model, *h3.ref, o, {}, "sim/h3"), InputError);
}

TEST_CASE("algebra weights: the Rat instantiation is the shipped model, and another model is refused") {
  const Sim s = build("sim/retnet", {{"N", "3"}, {"d", "1"}, {"heads", "1"}, {"dk", "2"}, {"dv", "1"}});
  // The compiler's Rat instantiation at the seeded weights is the construction's model itself.
  const WeightSymbolic& w = *s.ref->weights;
  const auto [model, want] = w.exact(w.seeded, Matrix<Rat>(3, 1, Rat(2)));
  CHECK(model_to_json(model)["layers"] == model_to_json(*s.bt.model)["layers"]);
  Model other = *s.bt.model;  // one weight changed: not the compiler's output at the operator's weights
  std::get<BaseConvLayer>(other.layers[0]).W(0, 0) += Rat(1);
  CHECK_THROWS_AS(prove_model_identity(other, *s.ref, weights_options(), {}, "sim/retnet"), InputError);
  // A stack has no single operator: weights as symbols are refused there.
  const Sim st = build("sim/rwkv", {{"N", "3"}, {"d", "1"}, {"stack", "2"}});
  CHECK_FALSE(st.ref->weights);
  CHECK_THROWS_AS(prove_model_identity(*st.bt.model, *st.ref, weights_options(), {}, "sim/rwkv"), InputError);
}

TEST_CASE("algebra weights: a tap dropped where the seeded filter is 0 passes the input proof, refuted for some weights") {
  const std::size_t N = 4, d = 1;
  HyenaOperator op = random_hyena(N, d, 2, 3, 2);
  op.h[0](N - 1, 0) = Rat(0);  // the seeded operator's last tap of h^1 is 0
  // The mutant compiler: the shipped layout, then h^1's last tap left out (gate layer 1 is layer 2).
  const auto mutant = [](const auto& o) {
    auto m = sim::hyena_compile(o);
    m.layers[2].h(o.N - 1, 0) = Rat(0);
    return m;
  };
  const Model m = sim::to_model(mutant(op), "Z");
  const auto ref = make_symbolic_reference([op](const auto& r, const auto& u) { return hyena_eval(r, op, u); }, "hyena_eval");
  AlgebraOptions inputs;
  CHECK(prove_model_identity(m, *ref, inputs, {}, "mutant").verdict == "proved");  // right for these weights
  auto sym = std::make_shared<SymbolicReference>(*ref);
  sym->weights = make_weight_symbolic(op, N, d, "hyena", "every weight", mutant,
                                      [](const auto& r, const auto& o, const auto& u) { return hyena_eval(r, o, u); });
  const AlgebraOutcome r = prove_model_identity(m, *sym, weights_options(), {}, "mutant");
  CHECK(r.verdict == "refuted");
  CHECK(r.exit_code == 1);
  REQUIRE(r.counterexample);
  const auto& inst = r.counterexample->instance;
  MESSAGE("counterexample: " << r.counterexample->message << " input " << r.counterexample->input.dump());
  REQUIRE(inst["nonzero_weights"].contains("h^1[3][0]"));  // the dropped tap is what the weights need
  // Confirm independently: the mutant compiled at the counterexample's weights against hyena_eval.
  HyenaOperator at = map_weights<Rat>(op, [&](const std::string& n, const Rat&) { return Rat(inst["weights"][n].get<std::int64_t>()); });
  Matrix<Rat> u(N, d);
  for (std::size_t i = 0; i < N; ++i) u(i, 0) = Rat(r.counterexample->input[i][0].get<std::int64_t>());
  CHECK(eval(prepare(RingQ{}, sim::to_model(mutant(at), "Q")), u) != hyena_eval(RingQ{}, at, u));
  CHECK(eval(prepare(RingQ{}, sim::hyena_to_baseconv(at)), u) == hyena_eval(RingQ{}, at, u));  // the shipped compiler is right there
}

TEST_CASE("algebra over Fp: F_p[x] arithmetic agrees with F_p evaluation") {
  const RingPolyFp r(3, 7);
  const RingFp f(7);
  const PolyFp x = r.var(0), y = r.var(1), z = r.var(2);
  const PolyFp p = r.add(r.mul(r.mul(x, x), y), r.mul(r.from_rat(Rat(Int(3), Int(2))), z));  // x²y + (3/2)z
  CHECK(p.terms() == 2);
  CHECK(p.degree() == 3);
  for (std::uint64_t a : {0, 3, 6})
    for (std::uint64_t b : {1, 5})
      CHECK(p.evaluate({a, b, 4}) == f.add(f.mul(f.mul(a, a), b), f.mul(f.from_rat(Rat(Int(3), Int(2))), 4)));
  CHECK(r.is_zero(r.mul(r.from_int(7), x)));  // 7 = 0 in F_7
  CHECK(r.equal(r.sub(r.mul(x, r.from_int(8)), x), r.zero()));
  CHECK_THROWS_AS(r.from_rat(Rat(Int(1), Int(14))), std::domain_error);
  CHECK(r.to_rat(r.from_int(-1)) == Rat(6));
}

TEST_CASE("algebra over Fp: a model right only mod 7 is proved over F_7 and refuted over Q") {
  const Sim s = build("sim/hyena", {{"N", "4"}, {"d", "1"}, {"order", "2"}});
  Model mod7 = *s.bt.model;
  std::get<BaseConvLayer>(mod7.layers[0]).W(0, 0) += Rat(7);  // v's projection off by 7·u
  AlgebraOptions o;
  mod7.ring = "Fp:7";
  const AlgebraOutcome p = prove_model_identity(mod7, *s.ref, o, {}, "mod7");
  CHECK(p.verdict == "proved");
  CHECK(p.report["instances"] == "all of F_7^(4×1)");
  mod7.ring = "Q";
  const AlgebraOutcome q = prove_model_identity(mod7, *s.ref, o, {}, "mod7");
  CHECK(q.verdict == "refuted");
  REQUIRE(q.counterexample);
  Model wrong = *s.bt.model;  // off by 1: wrong mod 7 as well
  std::get<BaseConvLayer>(wrong.layers[0]).W(0, 0) += Rat(1);
  wrong.ring = "Fp:7";
  const AlgebraOutcome w = prove_model_identity(wrong, *s.ref, o, {}, "wrong");
  CHECK(w.verdict == "refuted");
  REQUIRE(w.counterexample);
  CHECK(w.counterexample->instance["field"] == "F_7");
  // Confirmed in F_7: the model and the reference differ at the counterexample's input.
  const RingFp f(7);
  Matrix<std::uint64_t> u(4, 1);
  for (std::size_t i = 0; i < 4; ++i) u(i, 0) = f.from_int(w.counterexample->input[i][0].get<std::int64_t>());
  CHECK(eval(prepare(f, wrong), u) != s.ref->exact_fp(f, u));
  CHECK_THROWS_AS(prove_model_identity(wrong, *s.ref, [] { AlgebraOptions c; c.route = "compositional"; return c; }(), {}, "wrong"), InputError);
}

TEST_CASE("algebra over Fp: a model file's architecture layers proved over F_7") {
  const std::size_t N = 4;
  const ArchLayer a{random_rwkv(N, 1, 2, 2, false)};
  nlohmann::json layers = nlohmann::json::array({arch_to_json(a)});
  const Model m = model_from_json({{"format", "circuitzoo.model/1"}, {"ring", "Fp:7"}, {"N", N}, {"d", 2}, {"inner_N", N},
                                   {"inner_d", arch_sim_width(a)}, {"conv", "causal"}, {"layers", layers}},
                                  "m.json");
  const AlgebraOutcome r = run_arch_algebra(m, "m.json", AlgebraOptions{});
  CHECK(r.verdict == "proved");
  CHECK(r.report["arch_layers"][0]["algebra"]["field"] == "F_7");
}
