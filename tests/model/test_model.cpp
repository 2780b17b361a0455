// Model evaluation (all rings agree), parameter accounting, and model-json round trips and
// rejections.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "constructions/primitives/builders.h"
#include "model/eval.h"
#include "model/model_json.h"
#include "tests/seed.h"
#include "util/error.h"
#include "util/memory_budget.h"

using namespace cz;
using json = nlohmann::json;

namespace {
Model random_model(std::mt19937_64& g, std::size_t N, std::size_t d, std::size_t L, ConvMode conv) {
  Model m = build::shell(N, d, conv);
  m.inner_N = N + 1;
  m.inner_d = d + 1;
  for (std::size_t l = 0; l < L; ++l) {
    BaseConvLayer layer = zero_baseconv(m);
    for (auto* x : {&layer.W, &layer.b1, &layer.h, &layer.b2})
      for (auto& e : x->data()) e = static_cast<std::int64_t>(g() % 5) - 2;
    m.layers.push_back(layer);
  }
  return m;
}
}  // namespace

TEST_CASE("checked int64 evaluation, Z, Q and Fp agree on random models") {
  INFO("seed " << test::seed());
  auto g = test::rng(5);
  RingFp F(2305843009213693951ULL);  // 2^61 - 1
  for (int it = 0; it < 40; ++it) {
    ConvMode conv = static_cast<ConvMode>(it % 3);
    Model m = random_model(g, 3 + g() % 6, 1 + g() % 3, 1 + g() % 4, conv);
    Matrix<Int> u(m.N, m.d);
    for (auto& x : u.data()) x = static_cast<std::int64_t>(g() % 7) - 3;
    IntegerEvaluator ev(m);
    Matrix<Int> yz = eval(prepare(RingZ{}, m), u);
    CHECK(ev(u) == yz);
    auto yq = eval(prepare(RingQ{}, m), map_matrix(u, [](const Int& x) { return Rat(x); }));
    CHECK(yq == map_matrix(yz, [](const Int& x) { return Rat(x); }));
    auto yf = eval(prepare(F, m), map_matrix(u, [&](const Int& x) { return F.from_Int(x); }));
    CHECK(yf == map_matrix(yz, [&](const Int& x) { return F.from_Int(x); }));
  }
}

TEST_CASE("deep models overflow int64 and fall back to Z exactly") {
  Model m = build::shell(2, 1, ConvMode::Causal);
  for (int l = 0; l < 8; ++l) {  // each layer squares: y = u ⊙ u, so 10^(2^8) after 8 layers
    BaseConvLayer L = zero_baseconv(m);
    L.W(0, 0) = 1;
    L.h(0, 0) = 1;
    m.layers.push_back(L);
  }
  Matrix<Int> u(2, 1, Int(10));
  Matrix<Int> y = IntegerEvaluator(m)(u);
  CHECK(y(0, 0).str() == "1" + std::string(256, '0'));
}

TEST_CASE("parameter accounting: dense d'^2 + 3N'd' per BaseConv layer, nonzero counted") {
  Model m = build::shift_down(8, 2, 3);
  ParamCount pc = count_params(m);
  CHECK(pc.dense == 2 * 2 + 3 * 8 * 2);
  CHECK(pc.nonzero == 8 * 2 + 2);  // b1 all ones, one tap per channel
}

TEST_CASE("MLP and linear attention layers evaluate as defined") {
  Model m = build::shell(3, 2, ConvMode::Causal);
  MlpLayer mlp{RatMatrix(2, 2), RatMatrix(3, 2), RatMatrix(2, 2), RatMatrix(3, 2)};
  mlp.W1(0, 0) = 1;
  mlp.W1(1, 1) = -1;
  mlp.W2(0, 0) = 1;
  mlp.W2(1, 1) = 1;
  mlp.B1(0, 0) = Rat(Int(-1), Int(2));
  m.layers.push_back(mlp);
  LinearAttentionLayer la{RatMatrix(2, 1), RatMatrix(2, 1), RatMatrix(2, 2)};
  la.Wq(0, 0) = la.Wk(0, 0) = 1;
  la.Wv(0, 0) = la.Wv(1, 1) = 1;
  m.layers.push_back(la);
  Matrix<Rat> u(3, 2);
  u(0, 0) = 1; u(1, 0) = 2; u(2, 0) = 3; u(1, 1) = -5;
  auto y = eval(prepare(RingQ{}, m), u);
  // relu: row0 [1/2, 0], row1 [2, 5], row2 [3, 0]; attention z[i] = sum_{j<=i} x_i0 x_j0 x_j
  CHECK(y(0, 0) == Rat(Int(1), Int(8)));
  CHECK(y(1, 1) == Rat(2 * (2 * 5)));  // q1 = 2, k1 = 2, v1 = [2, 5]
  CHECK(y(2, 0) == Rat(3) * (Rat(Int(1), Int(4)) + Rat(4) + Rat(9)));
  CHECK_THROWS_AS(eval(prepare(RingFp(7), m), Matrix<std::uint64_t>(3, 2, 0)), std::domain_error);
}

TEST_CASE("model-json round trip preserves the model exactly") {
  INFO("seed " << test::seed());
  auto g = test::rng(6);
  Model m = random_model(g, 5, 2, 3, ConvMode::Anticausal);
  std::get<BaseConvLayer>(m.layers[0]).W(0, 0) = Rat(Int::parse("123456789012345678901234567890").value(), Int(7));
  std::get<BaseConvLayer>(m.layers[1]).b1(1, 1) = Int::parse("-9007199254740993").value();  // 2^53 + 1
  m.ring = "Q";
  json j = model_to_json(m);
  CHECK(j["layers"][1]["b1"][1][1].is_string());
  Model back = model_from_json(json::parse(j.dump()), "t");
  CHECK(model_to_json(back) == j);
  Matrix<Rat> u(5, 2, Rat(1));
  CHECK(eval(prepare(RingQ{}, back), u) == eval(prepare(RingQ{}, m), u));
}

TEST_CASE("malformed model-json is rejected with the offending path") {
  json good = model_to_json(build::shift_down(4, 1, 1));
  auto expect_error = [&](json j, const std::string& where_part) {
    try {
      model_from_json(j, "m");
      FAIL("accepted a malformed model");
    } catch (const InputError& e) {
      INFO(e.what() << " @ " << e.where);
      CHECK(e.where.find(where_part) != std::string::npos);
    }
  };
  { json j = good; j["layers"][0]["W"] = json::array({json::array({1, 2})}); expect_error(j, "layers[0].W"); }
  { json j = good; j["layers"][0]["h"][0][0] = 0.5; expect_error(j, "layers[0].h[0][0]"); }
  { json j = good; j["layers"][0]["h"][0][0] = "abc"; expect_error(j, "layers[0].h[0][0]"); }
  { json j = good; j["layers"][0]["b1"][1][0] = "1/0"; expect_error(j, "layers[0].b1[1][0]"); }
  { json j = good; j["ring"] = "R"; expect_error(j, "ring"); }
  { json j = good; j["ring"] = "Z"; j["layers"][0]["b1"][1][0] = "1/2"; expect_error(j, "layers[0]"); }
  { json j = good; j["conv"] = "sideways"; expect_error(j, "conv"); }
  { json j = good; j["layers"][0]["kind"] = "transformer"; expect_error(j, "kind"); }
  { json j = good; j.erase("N"); expect_error(j, "m"); }
  { json j = good; j["inner_N"] = 2; expect_error(j, "m"); }
  { json j = good; j["layers"][0]["b2"][2] = json::array({1, 2}); expect_error(j, "b2[2]"); }
}

TEST_CASE("model-json ring must be Z or Q or Fp with a prime below 2^62") {
  json good = model_to_json(build::shift_down(4, 1, 1));
  for (const std::string ring : {"Fp:4", "Fp:99999999999999999999999", "Fp:", "Fp:1", "Fp:4611686018427387904", "Fpx"}) {
    INFO("ring " << ring);
    json j = good;
    j["ring"] = ring;
    try {
      model_from_json(j, "m");
      FAIL("accepted ring " << ring);
    } catch (const InputError& e) {
      CHECK(e.where == "m.ring");
    }
  }
  json j = good;
  j["ring"] = "Fp:1000003";
  CHECK(model_from_json(j, "m").ring == "Fp:1000003");
}

TEST_CASE("model-json with huge inner dimensions and no layers is refused by the memory budget") {
  json j = model_to_json(build::shift_down(4, 1, 1));
  j["inner_N"] = 20000;
  j["inner_d"] = 20000;
  j["layers"] = json::array();
  const auto budget = memory_budget();
  set_memory_budget(std::uint64_t(1) << 30);
  std::string what;
  try {
    model_from_json(j, "m");
  } catch (const InputError& e) {
    what = e.what();
  }
  set_memory_budget(budget);
  CHECK(what.find("memory budget") != std::string::npos);
}

TEST_CASE("malformed model-json never escapes as another exception and messages are printable") {
  auto check = [](const std::string& text) {
    INFO(text.substr(0, 80));
    try {
      model_from_json(parse_json_input(text, "m"), "m");
      FAIL("accepted");
    } catch (const InputError& e) {
      const std::string w = e.what();
      for (char ch : w) CHECK(static_cast<unsigned char>(ch) >= 0x20);
      CHECK(e.where.rfind("m", 0) == 0);
    }
  };
  check("{\"format\": \"\xff\"}");                                      // invalid UTF-8 in JSON
  check("{\n\"format\": \"circuitzoo.model/1\",\n \x01}");             // control byte, line 3
  check("{\"format\":" + std::string(100000, '[') + std::string(100000, ']') + "}");  // deep
  json good = model_to_json(build::shift_down(4, 1, 1));
  json j = good;
  // A 50000-deep value as the conv field, spliced into the text (dumping a deep json recurses per
  // level and overflows the stack under ASan; the reader under test must not).
  j["conv"] = "DEEP";
  std::string text = j.dump();
  text.replace(text.find("\"DEEP\""), 6, std::string(50000, '[') + std::string(50000, ']'));
  check(text);
  // A matrix whose first row is long and whose other rows are not rows: refused before
  // rows x cols entries are allocated.
  j = good;
  json rows = json::array();
  rows.push_back(json(std::vector<int>(100000, 0)));
  for (int k = 0; k < 100000; ++k) rows.push_back(0);
  j["layers"][0]["W"] = rows;
  check(j.dump());
}
