// Integer models under --method sat (app/engine/sat/sat_model_path.h):
//   - the word arithmetic (circuits/sat/bitvec.h) against exact integers on every input of small
//     boxes, so a wrong adder, multiplier, relu or comparison fails here before it can prove anything;
//   - the model bit-blast (model_bits.h) against IntegerEvaluator on random models (BaseConv in every
//     conv mode, MLP, LinearAttention) and random inputs;
//   - proofs: every primitive, circuit/to-model (compare, prefix-sum, prefix-product), mqar/attention
//     and mqar/dyadic artifact=model, a user's model-json against a task;
//   - refutations: every mutant of the primitives' and attention's tests, each confirmed by the
//     exact evaluator; refusals (Fp, non-integral Q, data-dependent constructions, zoology layout).
#include <doctest/doctest.h>

#include <random>

#include "app/engine/byo/byo.h"
#include "app/engine/sat/sat_layer_bounds.h"
#include "app/engine/sat/sat_model_path.h"
#include "app/engine/sat/sat_problem.h"
#include "circuits/reference/mqar_ref.h"
#include "tasks/mqar_domain.h"
#include "circuits/eval.h"
#include "circuits/sat/bitvec.h"
#include "circuits/sat/model_bits.h"
#include "circuits/sat/solver.h"
#include "constructions/mqar/solvers.h"
#include "model/eval.h"
#include "util/error.h"

using namespace cz;
namespace sat = cz::circuits::sat;

namespace {

SatOutcome prove(const std::string& name, std::map<std::string, std::string> p) {
  REQUIRE_MESSAGE(sat::find_solver("cadical"), "cadical is not on PATH (scripts/setup.sh installs it)");
  SatOptions o;
  o.threads = 1;
  return run_verify_sat(find_construction(name), p, o);
}

SatOutcome prove_file(const Model& m, const std::string& task, std::map<std::string, std::string> p) {
  SatOptions o;
  o.threads = 1;
  return run_model_task_sat(find_task(task), p, model_artifact(m, "mutant.json"), o);
}

Model built_model(const std::string& name, std::map<std::string, std::string> given = {}) {
  const Construction& c = find_construction(name);
  return *c.build(Params::parse(c.params, given)).model;
}

BaseConvLayer& layer(Model& m, std::size_t i) { return std::get<BaseConvLayer>(m.layers.at(i)); }

// The integer value of output word k of a circuit evaluated on 0/1 inputs (two's complement).
Int word_value(const std::vector<Int>& out, std::size_t first, std::size_t width) {
  Int v(0), p(1);
  for (std::size_t k = 0; k < width; ++k, p *= Int(2))
    if (out[first + k] == Int(1)) v += k + 1 == width ? -p : p;
  return v;
}

}  // namespace

TEST_CASE("sat-int: word arithmetic equals the integers on every input of small boxes") {
  namespace g = circuits::gadgets;
  // a in [-5, 6] (4 bits), b in [-3, 2] (3 bits): every pair, every operation.
  circuits::Builder b;
  sat::WordBuilder wb(b);
  g::Bits ab = g::input_bits(b, "a", 4), bb = g::input_bits(b, "b", 3);
  const sat::Word a = wb.from_bits(ab, Int(-5), Int(6)), c = wb.from_bits(bb, Int(-3), Int(2));
  const std::vector<sat::Word> res = {wb.add(a, c), wb.sub(a, c), wb.mul(a, c), wb.neg(a), wb.relu(a),
                                      wb.mul(a, wb.constant(Int(-7))), wb.mul(wb.constant(Int(13)), c), wb.mul(a, a),
                                      wb.sub(wb.constant(Int(3)), wb.mul(c, wb.add(a, wb.constant(Int(100)))))};
  std::vector<std::pair<std::size_t, std::size_t>> at;
  std::size_t next = 0;
  for (const auto& r : res) {
    at.push_back({next, r.bits.size()});
    for (auto w : r.bits) b.output("o" + std::to_string(next++), w);
  }
  b.output("eq", wb.equal(a, c));
  b.output("in", wb.raw_in_range(ab, Int(-2), Int(3)));
  const circuits::Circuit circ = std::move(b).finish();
  for (std::int64_t x = -5; x <= 6; ++x)
    for (std::int64_t y = -3; y <= 2; ++y) {
      std::vector<std::int64_t> in;
      for (std::size_t k = 0; k < 4; ++k) in.push_back((x >> k) & 1);
      for (std::size_t k = 0; k < 3; ++k) in.push_back((y >> k) & 1);
      const std::vector<Int> out = circ.outputs().empty() ? std::vector<Int>{} : circuits::eval_integer(circ, in);
      const std::vector<std::int64_t> want = {x + y, x - y, x * y, -x, std::max<std::int64_t>(x, 0), -7 * x, 13 * y, x * x,
                                              3 - y * (x + 100)};
      INFO("x=" << x << " y=" << y);
      for (std::size_t r = 0; r < want.size(); ++r) {
        CHECK(word_value(out, at[r].first, at[r].second) == Int(want[r]));
        CHECK(res[r].lo <= Int(want[r]));
        CHECK(Int(want[r]) <= res[r].hi);
      }
      CHECK(out[next] == Int(x == y));
      CHECK(out[next + 1] == Int(-2 <= x && x <= 3));
    }
  // raw_in_range reads the raw bits: patterns outside the word's interval too.
  CHECK(sat::width_for(Int(-4), Int(3)) == 3);
  CHECK(sat::width_for(Int(0), Int(1)) == 2);
  CHECK(sat::width_for(Int(-5), Int(3)) == 4);
}

TEST_CASE("sat-int: the model bit-blast equals the exact evaluator on random models") {
  std::mt19937_64 rng(20261202);
  auto small = [&](int k) { return Rat(static_cast<std::int64_t>(rng() % (2 * k + 1)) - k); };
  auto rnd = [&](std::size_t r, std::size_t c, int k, double density) {
    RatMatrix m(r, c, Rat(0));
    for (auto& e : m.data())
      if (std::uniform_real_distribution<double>(0, 1)(rng) < density) e = small(k);
    return m;
  };
  int models = 0;
  for (ConvMode mode : {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal})
    for (int kind = 0; kind < 3; ++kind) {
      Model m;
      m.N = 4, m.d = 2, m.inner_N = 5, m.inner_d = 3, m.conv = mode;
      m.layers.push_back(BaseConvLayer{rnd(3, 3, 2, 0.6), rnd(5, 3, 1, 0.5), rnd(5, 3, 2, 0.6), rnd(5, 3, 1, 0.5)});
      if (kind == 1) m.layers.push_back(MlpLayer{rnd(3, 3, 2, 0.7), rnd(5, 3, 2, 0.5), rnd(3, 3, 2, 0.7), rnd(5, 3, 1, 0.5)});
      if (kind == 2) m.layers.push_back(LinearAttentionLayer{rnd(3, 2, 1, 0.7), rnd(3, 2, 1, 0.7), rnd(3, 3, 1, 0.7)});
      m.layers.push_back(BaseConvLayer{rnd(3, 3, 1, 0.6), rnd(5, 3, 1, 0.5), rnd(5, 3, 1, 0.6), rnd(5, 3, 1, 0.5)});
      validate(m);
      ++models;
      circuits::Builder b;
      sat::WordBuilder wb(b);
      Matrix<sat::Word> u(m.N, m.d);
      for (std::size_t i = 0; i < m.N; ++i)
        for (std::size_t j = 0; j < m.d; ++j)
          u(i, j) = wb.from_bits(circuits::gadgets::input_bits(b, "u" + std::to_string(i) + "_" + std::to_string(j), 3), Int(-3), Int(3));
      const Matrix<sat::Word> y = sat::model_words(wb, m, u);
      std::vector<std::pair<std::size_t, std::size_t>> at;
      std::size_t next = 0;
      for (const auto& w : y.data()) {
        at.push_back({next, w.bits.size()});
        for (auto x : w.bits) b.output("o" + std::to_string(next++), x);
      }
      const circuits::Circuit circ = std::move(b).finish();
      IntegerEvaluator ev(m);
      for (int trial = 0; trial < 60; ++trial) {
        Matrix<std::int64_t> x(m.N, m.d);
        std::vector<std::int64_t> in;
        for (auto& e : x.data()) {
          e = static_cast<std::int64_t>(rng() % 7) - 3;
          for (std::size_t k = 0; k < 3; ++k) in.push_back((e >> k) & 1);
        }
        const Matrix<Int> want = ev(x);
        const std::vector<Int> out = next ? circuits::eval_integer(circ, in) : std::vector<Int>{};
        for (std::size_t k = 0; k < want.data().size(); ++k) {
          INFO("mode " << to_string(mode) << " kind " << kind << " entry " << k);
          REQUIRE(word_value(out, at[k].first, at[k].second) == want.data()[k]);
        }
      }
    }
  CHECK(models == 9);
}

TEST_CASE("sat-int: every primitive and circuit/to-model proved on the whole range box") {
  for (auto [name, p] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
           {"primitive/identity", {{"N", "4"}}},
           {"primitive/shift_down", {{"N", "5"}, {"s", "2"}}},
           {"primitive/shift_up", {{"N", "5"}, {"s", "2"}}},
           {"primitive/cumsum", {{"N", "5"}}},
           {"primitive/add", {{"N", "4"}, {"d", "4"}}},
           {"primitive/hadamard", {{"N", "3"}, {"d", "2"}}},
           {"primitive/remember", {{"N", "6"}, {"s", "1"}, {"t", "4"}}},
           {"circuit/to-model", {{"source", "compare"}, {"D", "2"}}},
           {"circuit/to-model", {{"source", "prefix-sum"}, {"N", "4"}}},
           {"circuit/to-model", {{"source", "prefix-product"}, {"N", "3"}, {"range", "2"}}}}) {
    INFO(name << " " << nlohmann::json(p).dump());
    const SatOutcome r = prove(name, p);
    CHECK(r.verdict == "proved");
    CHECK(r.exit_code == 0);
  }
  // The exact count: shift_down N=5 d=2 range=3 covers 7^10 matrices.
  CHECK(prove("primitive/shift_down", {{"N", "5"}, {"s", "2"}}).report["instances"] == 282475249);
}

TEST_CASE("sat-int: mutants of every primitive are refuted, confirmed by the exact evaluator") {
  struct M {
    std::string name, task;
    std::map<std::string, std::string> p;
    std::function<void(Model&)> mutate;
  };
  const std::vector<M> ms = {
      {"primitive/shift_down", "shift_down", {}, [](Model& m) { for (std::size_t j = 0; j < m.d; ++j) { layer(m, 0).h(3, j) = 0; layer(m, 0).h(2, j) = 1; } }},
      {"primitive/shift_up", "shift_up", {}, [](Model& m) { layer(m, 0).b1(7, 1) = 1; }},
      {"primitive/identity", "identity", {}, [](Model& m) { layer(m, 0).h(1, 0) = 1; }},
      {"primitive/cumsum", "cumsum", {}, [](Model& m) { layer(m, 0).h(5, 1) = 0; }},
      {"primitive/add", "add", {}, [](Model& m) { layer(m, 0).W(1, 0) = 0; }},
      {"primitive/hadamard", "hadamard", {}, [](Model& m) { layer(m, 0).b2(4, 0) = 1; }},
      {"primitive/remember", "remember", {}, [](Model& m) { m.layers.erase(m.layers.begin()); }},
      {"primitive/remember", "remember", {}, [](Model& m) { layer(m, 1).b1(7, 0) = 1; layer(m, 1).b1(6, 0) = 1; }},
  };
  for (const auto& mu : ms) {
    INFO(mu.name);
    Model m = built_model(mu.name, mu.p);
    mu.mutate(m);
    const SatOutcome r = prove_file(m, mu.task, {});
    CHECK(r.verdict == "refuted");
    CHECK(r.exit_code == 1);
    REQUIRE(r.counterexample);
    CHECK(r.counterexample->instance["shrunk"] == true);
  }
}

TEST_CASE("sat-int: mqar/attention and mqar/dyadic artifact=model proved, attention mutants refuted") {
  const SatOutcome a = prove("mqar/attention", {{"n", "3"}, {"c", "4"}});
  CHECK(a.verdict == "proved");
  CHECK(a.report["instances"] == 24 * 64 * 64);  // P(4,3)·4^3·4^3
  for (const char* enc : {"binary", "onehot"}) {
    INFO(enc);
    CHECK(prove("mqar/dyadic", {{"n", "2"}, {"c", "3"}, {"encoding", enc}, {"artifact", "model"}, {"queries", "each"}}).verdict == "proved");
  }
  const mqar::TaskShape s = mqar::task_shape(Params::parse(mqar::task_params(), {{"n", "3"}, {"c", "4"}}));
  for (auto mu : {mqarc::AttnMutant::SameTriple, mqarc::AttnMutant::NoQueryMask}) {
    const Model m = mqarc::to_model(mqarc::attention_model(mqarc::worst_case_instance(s), mu));
    const SatOutcome r = prove_file(m, "mqar", {{"n", "3"}, {"c", "4"}, {"encoding", "onehot"}});
    CHECK(r.verdict == "refuted");
    REQUIRE(r.counterexample);
    CHECK(r.counterexample->instance.contains("tokens"));
  }
  // The unmutated attention model as a user's file: proved against task mqar.
  const Model good = mqarc::to_model(mqarc::attention_model(mqarc::worst_case_instance(s)));
  CHECK(prove_file(good, "mqar", {{"n", "3"}, {"c", "4"}, {"encoding", "onehot"}}).verdict == "proved");
}

TEST_CASE("sat-int: refusals say why") {
  auto refused = [](const std::string& name, std::map<std::string, std::string> p, const std::string& why) {
    INFO(name);
    try {
      prove(name, p);
      CHECK_MESSAGE(false, "not refused");
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  };
  refused("mqar/autocorrelation", {{"layout", "zoology"}}, "layout=zoology");
  refused("sd/based-jrt", {{"kernel", "exp"}}, "kernel=exp");
  refused("sd/recurrent-jrt", {{"n", "5"}}, "n <= 4");
  refused("mqar/attention", {{"layout", "zoology"}}, "data-dependent");
  Model m = built_model("primitive/cumsum");
  m.ring = "Fp:7";
  CHECK_THROWS_WITH_AS(sat::require_integral(m, "f"), doctest::Contains("mod p"), InputError);
  m.ring = "Q";
  layer(m, 0).h(0, 0) = Rat(Int(1), Int(2));
  CHECK_THROWS_WITH_AS(sat::require_integral(m, "f"), doctest::Contains("is not an integer"), InputError);
}

TEST_CASE("sat-int: per-layer bounds proved by SAT narrow the dyadic model, refined from one sample, a mutant refuted") {
  // n = 4, c = 4: interval arithmetic alone needs words of hundreds of bits (the values are bits).
  const std::map<std::string, std::string> p = {{"n", "4"}, {"c", "4"}, {"encoding", "binary"}, {"artifact", "model"}, {"queries", "each"}};
  const SatOutcome r = prove("mqar/dyadic", p);
  CHECK(r.verdict == "proved");
  CHECK(r.report["instances"] == 24 * 256 * 256);
  bool noted = false;
  for (const auto& n : r.report["notes"]) noted = noted || n.get<std::string>().find("per-layer bounds proved by SAT") != std::string::npos;
  CHECK(noted);

  // From a single sample the observed ranges are too narrow: the solver's inputs widen them
  // (refinements), and every layer still ends proved.
  const Model m = built_model("mqar/dyadic", p);
  const mqar::Codec codec = mqar::make_codec(mqar::Encoding::Binary, 4);
  const sat::IntInputs in = sat::IntInputs::bits(m.N, m.d, [](std::size_t, std::size_t) { return true; });
  const mqar::Domain dom = mqar::triples_sampled(4, 4, 1, 3);
  const LayerBoundsResult lb = prove_layer_bounds(
      m, in, circuits::reference::mqar_checker(sat_mqar_spec(codec, 4), {"y[0][0]"}, "test"), {mqar::encode(codec, dom.instance(0))}, 120,
      1024);
  CHECK(lb.refinements > 0);
  CHECK(lb.layers_proved == m.layers.size());
  // The narrowed bit-blast equals the exact evaluator on domain instances the ranges were not read
  // from (a bound that did not hold would wrap a word here).
  const sat::IntArtifact art = sat::artifact_circuit(
      in, [&](sat::WordBuilder& wb, const Matrix<sat::Word>& u) { return sat::model_words(wb, m, u, &lb.bounds); }, 1024);
  CHECK(art.widest <= 4);
  const IntegerEvaluator ev(m);
  const mqar::Domain fresh = mqar::triples_sampled(4, 4, 200, 99);
  for (std::uint64_t k = 0; k < fresh.count; ++k) {
    const Matrix<std::int64_t> x = mqar::encode(codec, fresh.instance(k));
    std::vector<std::int64_t> bits(x.data().begin(), x.data().end());
    const std::vector<Int> out = circuits::eval_integer(art.circuit, bits);
    const Matrix<Int> want = ev(x);
    std::size_t at = 0;
    for (std::size_t e = 0; e < want.data().size(); ++e) {
      const std::size_t w = art.width.data()[e];
      REQUIRE(word_value(out, at, w) == want.data()[e]);
      at += w;
    }
  }

  // A mutant: one more layer adds 1 to the query cell y[2][0] (a bit: 1 or 2 is never right there).
  Model bad = m;
  BaseConvLayer L{RatMatrix(m.inner_d, m.inner_d, Rat(0)), RatMatrix(m.inner_N, m.inner_d, Rat(1)), RatMatrix(m.inner_N, m.inner_d, Rat(0)),
                  RatMatrix(m.inner_N, m.inner_d, Rat(0))};
  for (std::size_t j = 0; j < m.inner_d; ++j) L.h(0, j) = Rat(1);
  L.b2(2, 0) = Rat(1);
  bad.layers.emplace_back(L);
  const SatOutcome rb = prove_file(bad, "mqar", {{"n", "4"}, {"c", "4"}, {"encoding", "binary"}});
  CHECK(rb.verdict == "refuted");
  REQUIRE(rb.counterexample);
}
