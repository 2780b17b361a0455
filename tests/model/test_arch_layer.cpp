// Architecture layers in model-json (model/arch_layer.h; contract "Architecture layers"): each kind
// read from JSON evaluates like the architecture's own evaluation (over Q, and in Z through the
// integer evaluator), layers compose, the layer written back reads back to the same model, a
// wrong tap in the expansion is caught by the architecture's reference, and bad layers are input errors.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "model/arch_layer.h"
#include "model/eval.h"
#include "model/model_json.h"
#include "tests/seed.h"
#include "util/error.h"

using namespace cz;
using json = nlohmann::json;

namespace {
json model_json(const std::string& ring, std::size_t N, std::size_t d, std::size_t inner_d, const json& layers) {
  return {{"format", "circuitzoo.model/1"}, {"ring", ring}, {"N", N}, {"d", d}, {"inner_N", N}, {"inner_d", inner_d}, {"conv", "causal"}, {"layers", layers}};
}

Matrix<Rat> random_input(std::mt19937_64& g, std::size_t N, std::size_t d) {
  Matrix<Rat> u(N, d);
  for (auto& x : u.data()) x = Rat(static_cast<std::int64_t>(g() % 7) - 3);
  return u;
}

// The reference: the architecture layers' own evaluations, one after another, on the embedded input.
Matrix<Rat> reference(const std::vector<ArchLayer>& ls, const Matrix<Rat>& u, std::size_t inner_d) {
  Matrix<Rat> x(u.rows(), inner_d);
  for (std::size_t i = 0; i < u.rows(); ++i)
    for (std::size_t j = 0; j < u.cols(); ++j) x(i, j) = u(i, j);
  for (const ArchLayer& a : ls) x = arch_eval(RingQ{}, a, x);
  return x;
}
}  // namespace

TEST_CASE("arch layers: every kind evaluates like its own operator and round-trips") {
  INFO("seed " << test::seed());
  auto g = test::rng(2842);
  const std::size_t N = 4;
  const std::vector<ArchLayer> kinds = {{random_hyena(N, 2, 2, g(), 2)}, {random_h3(N, 2, 2, g(), 2)},
                                        {random_retnet(N, 2, 2, 1, 2, g(), 2, 1)}, {random_rwkv(N, 1, g(), 2, true)}};
  for (const ArchLayer& a : kinds) {
    INFO(arch_kind(a));
    const std::size_t inner_d = arch_sim_width(a) + 1;  // one spare channel: stays 0
    const json j = model_json("Q", N, arch_width(a), inner_d, json::array({arch_to_json(a)}));
    const Model m = model_from_json(j, "m");
    CHECK(m.layers.size() == arch_expand(a, N, inner_d, "x").size());
    const auto p = prepare(RingQ{}, m);
    for (int it = 0; it < 20; ++it) {
      const Matrix<Rat> u = random_input(g, N, arch_width(a));
      CHECK(eval_inner(p, u) == reference({a}, u, inner_d));
    }
    const json back = model_to_json(m);  // the layer as written (its expansion is untouched)
    REQUIRE(back["layers"].size() == 1);
    CHECK(back["layers"][0] == arch_to_json(a));
    const Model again = model_from_json(back, "back");
    CHECK(model_to_json(again) == back);
    const Matrix<Rat> u = random_input(g, N, arch_width(a));
    CHECK(eval_inner(prepare(RingQ{}, again), u) == eval_inner(p, u));
  }
}

TEST_CASE("arch layers: integral ones run in Z, and kinds compose with BaseConv layers between") {
  INFO("seed " << test::seed());
  auto g = test::rng(2843);
  const std::size_t N = 5;
  const ArchLayer rw{random_rwkv(N, 1, g(), 2, false)}, hy{random_hyena(N, 2, 1, g(), 2)};
  json mid = {{"kind", "baseconv"}, {"W", json::array()}, {"b1", json::array()}, {"h", json::array()}, {"b2", json::array()}};
  const std::size_t D = 4;
  for (const char* k : {"W", "b1", "h", "b2"}) {
    const std::size_t rows = std::string(k) == "W" ? D : N;
    for (std::size_t i = 0; i < rows; ++i) {
      json r = json::array();
      for (std::size_t c = 0; c < D; ++c) r.push_back(std::string(k) == "h" ? (i == 0 ? 1 : 0) : static_cast<int>(g() % 3) - 1);
      mid[k].push_back(r);
    }
  }
  const Model m = model_from_json(model_json("Z", N, 2, D, json::array({arch_to_json(rw), mid, arch_to_json(hy)})), "m");
  const std::size_t n_rw = arch_expand(rw, N, D, "x").size(), n_hy = arch_expand(hy, N, D, "x").size();
  CHECK(m.layers.size() == n_rw + 1 + n_hy);
  const IntegerEvaluator ev(m);
  const auto pq = prepare(RingQ{}, m);
  Model only_mid = m;  // the middle layer alone (input: the whole N×D state), the project's evaluator
  only_mid.layers = {m.layers[n_rw]};
  only_mid.d = D;
  const auto pmid = prepare(RingQ{}, only_mid);
  for (int it = 0; it < 20; ++it) {
    const Matrix<Rat> u = random_input(g, N, 2);
    Matrix<Rat> x = reference({rw}, u, D);
    x = eval_inner(pmid, x);
    x = arch_eval(RingQ{}, hy, x);
    CHECK(eval_inner(pq, u) == x);
    const Matrix<Int> uz = map_matrix(u, [](const Rat& q) { return q.num(); });
    const Matrix<Int> yz = ev(uz);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < 2; ++j) CHECK(Rat(yz(i, j)) == x(i, j));
  }
}

TEST_CASE("arch layers: a wrong decay tap in the expansion is caught by the architecture's reference") {
  const ArchLayer a{random_retnet(3, 1, 1, 2, 2, 9, 2, 1)};
  Model m = model_from_json(model_json("Q", 3, 1, 8, json::array({arch_to_json(a)})), "m");
  Matrix<Rat> u(3, 1);
  u(0, 0) = Rat(1), u(1, 0) = Rat(-2), u(2, 0) = Rat(3);
  CHECK(eval_inner(prepare(RingQ{}, m), u) == reference({a}, u, 8));
  for (std::size_t c = 0; c < 4; ++c) std::get<BaseConvLayer>(m.layers[2]).h(1, c) += Rat(1);  // wrong γ^1 taps
  CHECK_FALSE(eval_inner(prepare(RingQ{}, m), u) == reference({a}, u, 8));
}

TEST_CASE("arch layers: bad layers are input errors naming the layer") {
  const ArchLayer r{random_retnet(3, 1, 1, 2, 2, 9, 2, 1)};  // γ = 1/2
  auto msg = [](const json& j) {
    try {
      model_from_json(j, "m");
    } catch (const InputError& e) {
      return std::string(e.what()) + " @ " + e.where;
    }
    return std::string("accepted");
  };
  CHECK(msg(model_json("Z", 3, 1, 8, json::array({arch_to_json(r)}))).find("non-integer weight") != std::string::npos);
  CHECK(msg(model_json("Q", 3, 1, 7, json::array({arch_to_json(r)}))).find("needs inner_d >= 8") != std::string::npos);
  CHECK(msg(model_json("Q", 3, 1, 8, json::array({arch_to_json(r)}))) == "accepted");
  const json hy3 = arch_to_json(ArchLayer{random_hyena(3, 1, 2, 1, 2)});  // h_s has 3 rows: N = 3
  CHECK(msg(model_json("Q", 4, 1, 8, json::array({hy3}))).find("sequence length 3 in a model with inner_N 4") != std::string::npos);
  json cyc = model_json("Q", 3, 1, 8, json::array({arch_to_json(r)}));
  cyc["conv"] = "cyclic";
  CHECK(msg(cyc).find("causal") != std::string::npos);
  json bad = arch_to_json(r);
  bad["gamma"] = json::array({1, 2});
  CHECK(msg(model_json("Q", 3, 1, 8, json::array({bad}))).find("m.layers[0]") != std::string::npos);
  json hy = arch_to_json(ArchLayer{random_hyena(3, 1, 2, 1, 2)});
  hy["filters"].erase(1);
  CHECK(msg(model_json("Q", 3, 1, 8, json::array({hy}))).find("m.layers[0]") != std::string::npos);
}

TEST_CASE("arch layers: an h3 layer says its form, and the issue-35 example reads as published") {
  // ring Z, N = 2, d = 2, inner_d = 6: u = I, W_Q = W_K = I, W_V = [[0,1],[1,0]]; shift SSMs
  // B = [1,0], C = [0,1], D = 0; diagonal SSMs λ = [0,0], B = [1,0], C = [1,0], D = 0.
  const json shift = {{"B", {1, 0}}, {"C", {0, 1}}, {"D", 0}};
  const json diag = {{"lambda", {0, 0}}, {"B", {1, 0}}, {"C", {1, 0}}, {"D", 0}};
  json h3 = {{"kind", "h3"},           {"form", "published"},          {"WQ", {{1, 0}, {0, 1}}},
             {"WK", {{1, 0}, {0, 1}}}, {"WV", {{0, 1}, {1, 0}}},       {"shift", {shift, shift}},
             {"diag", {diag, diag}}};
  Matrix<Rat> u(2, 2);
  u(0, 0) = u(1, 1) = Rat(1);
  auto out = [&](const json& layer) {
    const Model m = model_from_json(model_json("Z", 2, 2, 6, json::array({layer})), "m");
    return eval_inner(prepare(RingQ{}, m), u);
  };
  Matrix<Rat> want(2, 6), want_old(2, 6);
  want_old(1, 1) = Rat(1);
  CHECK(out(h3) == want);  // Fu et al. 2023: [[0,0],[0,0]]
  h3["form"] = "shift_v";
  CHECK(out(h3) == want_old);  // the pre-12-03 reading: [[0,0],[0,1]]
  h3.erase("form");
  try {
    out(h3);
    FAIL("an h3 layer without \"form\" was read");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("published") != std::string::npos);
    CHECK(e.where == "m.layers[0].form");
  }
  h3["form"] = "fu";
  CHECK_THROWS_AS(out(h3), InputError);
}

TEST_CASE("arch layers: a retnet layer's rotation (rational points of the unit circle)") {
  const RetNetOperator op = random_retnet(3, 1, 1, 2, 2, 9, 2, 1, true);
  const ArchLayer a{op};
  const json j = arch_to_json(a);
  REQUIRE(j.contains("rotation"));
  Matrix<Rat> u(3, 1);
  u(0, 0) = Rat(1), u(1, 0) = Rat(-2), u(2, 0) = Rat(3);
  const std::size_t w = arch_sim_width(a);
  CHECK(w == 4 + 8);
  const Model m = model_from_json(model_json("Q", 3, 1, w, json::array({j})), "m");
  CHECK(eval_inner(prepare(RingQ{}, m), u) == reference({a}, u, w));
  CHECK(model_to_json(m)["layers"][0] == j);
  auto msg = [](const json& layer, const std::string& ring, std::size_t inner_d) {
    try {
      model_from_json(model_json(ring, 3, 1, inner_d, json::array({layer})), "m");
    } catch (const InputError& e) {
      return std::string(e.what()) + " @ " + e.where;
    }
    return std::string("accepted");
  };
  json one = j;  // one point for every pair of the head: the same operator as written in full
  one["rotation"] = json::array({j["rotation"][0][0]});
  CHECK(msg(one, "Q", w) == "accepted");
  json off = j;
  off["rotation"][0][0] = {"3/5", "1/2"};
  CHECK(msg(off, "Q", w).find("unit circle") != std::string::npos);
  CHECK(msg(off, "Q", w).find("m.layers[0].rotation[0]") != std::string::npos);
  CHECK(msg(j, "Z", w).find("non-integer weight") != std::string::npos);  // cos, sin not integers
  json quarter = j;  // (0, 1): integral powers, a Z-exact rotation when γ is integral too
  quarter["rotation"] = json::array({json::array({0, 1})});
  quarter["gamma"] = json::array({1});
  CHECK(msg(quarter, "Z", w) == "accepted");
  json odd = arch_to_json(ArchLayer{random_retnet(3, 1, 1, 1, 2, 9, 2, 1)});
  odd["rotation"] = json::array({json::array({"3/5", "4/5"})});
  CHECK(msg(odd, "Q", 8).find("even key width") != std::string::npos);
  json flat = j;  // θ = 0 everywhere: the unrotated expansion (narrower)
  flat["rotation"] = json::array({json::array({1, 0})});
  CHECK(msg(flat, "Q", 8) == "accepted");
}
