// K-matrix projections in model-json (docs/contract.md "K-matrix projections"): a BaseConv W given
// by its butterfly factors is expanded exactly, evaluates like the dense W, is written back as
// given while it still expands to W, and counted both ways; malformed forms are InputErrors.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "model/eval.h"
#include "model/kmatrix_projection.h"
#include "model/model_json.h"
#include "tensor/kmatrix_route.h"
#include "tensor/kmatrix_sparse.h"
#include "tests/seed.h"
#include "util/error.h"

using namespace cz;
using json = nlohmann::json;

namespace {

// d' = 4, N' = 4: a one-layer model whose W is the cyclic shift of channels by one (a permutation
// in BB*, Dao Thm 2) or a sparse matrix (Thm 3, e = 4), given as a K-matrix.
json model_with(const json& W, const std::string& ring = "Z") {
  json zeros = json::array(), ones = json::array(), delta = json::array();
  for (int i = 0; i < 4; ++i) {
    zeros.push_back({0, 0, 0, 0});
    ones.push_back({1, 1, 1, 1});
    delta.push_back(i == 0 ? json{1, 1, 1, 1} : json{0, 0, 0, 0});
  }
  // y = (u·W + 0) ⊙ (δ0 * u + 0) = (u·W) ⊙ u.
  return {{"format", "circuitzoo.model/1"}, {"ring", ring}, {"N", 4}, {"d", 4}, {"inner_N", 4}, {"inner_d", 4}, {"conv", "causal"},
          {"layers", json::array({{{"kind", "baseconv"}, {"W", W}, {"b1", zeros}, {"h", delta}, {"b2", zeros}}})}};
}

KMatrix<Rat> shift_kmatrix() {
  KMatrix<int> c;
  c.n = 4;
  c.elements.push_back(kroute::permutation_bbstar({1, 2, 3, 0}));
  return materialize(RingQ{}, c);
}

RatMatrix sparse4() {
  RatMatrix a(4, 4);
  a(0, 3) = Rat(Int(5), Int(3));
  a(2, 2) = Rat(-2);
  a(3, 0) = Rat(7);
  a(3, 1) = Rat(1);
  a(3, 2) = Rat(-1);
  return a;
}

}  // namespace

TEST_CASE("model-json: a W given as a K-matrix is expanded exactly, evaluates like dense W, round-trips") {
  const KMatrix<Rat> k = shift_kmatrix();
  const Model m = model_from_json(model_with(kmatrix_to_json(k)), "test");
  const auto& L = std::get<BaseConvLayer>(m.layers[0]);
  // P[i][pi[i]] = 1 with pi = (1, 2, 3, 0).
  RatMatrix P(4, 4);
  for (std::size_t i = 0; i < 4; ++i) P(i, (i + 1) % 4) = Rat(1);
  CHECK(L.W == P);
  REQUIRE(kmatrix_form(L) != nullptr);
  // Same outputs as the dense file.
  json dense_W = json::array();
  for (std::size_t i = 0; i < 4; ++i) dense_W.push_back({P(i, 0).num().to_int64(), P(i, 1).num().to_int64(), P(i, 2).num().to_int64(), P(i, 3).num().to_int64()});
  const Model md = model_from_json(model_with(dense_W), "test");
  Matrix<Int> u(4, 4);
  auto g = test::rng(2810);
  for (auto& x : u.data()) x = static_cast<std::int64_t>(g() % 7) - 3;
  CHECK(IntegerEvaluator(m)(u) == IntegerEvaluator(md)(u));
  // Parameter counts: dense 16 + 3·16 = 64; K-matrix 3·16 + 4·1·1·4·log2 4 = 48 + 32.
  const KMatrixParamCount pc = count_params_kmatrix(m);
  CHECK(pc.dense == 64);
  CHECK(pc.kmatrix == 48 + 32);
  REQUIRE(pc.projections.size() == 1);
  CHECK(pc.projections[0].params == pc.projections[0].params_formula);
  CHECK(count_params_kmatrix(md).projections.empty());
  CHECK(count_params_kmatrix(md).kmatrix == 64);
  // Written back as a K-matrix, and read again to the same model.
  const json back = model_to_json(m);
  CHECK(back["layers"][0]["W"].is_object());
  CHECK(back["layers"][0]["W"]["kind"] == "kmatrix");
  const Model m2 = model_from_json(back, "test");
  CHECK(std::get<BaseConvLayer>(m2.layers[0]).W == P);
  CHECK(model_to_json(m2) == back);
}

TEST_CASE("model-json: a sparse W as a K-matrix (Thm 3, e = 4) over Q, and an edited W drops the stale form") {
  const RatMatrix a = sparse4();
  const KMatrix<Rat> k = sparse_to_kmatrix(RingQ{}, a);
  Model m = model_from_json(model_with(kmatrix_to_json(k), "Q"), "test");
  auto& L = std::get<BaseConvLayer>(m.layers[0]);
  CHECK(L.W == a);
  CHECK(count_params_kmatrix(m).projections.at(0).e == 4);
  CHECK(count_params_kmatrix(m).projections.at(0).width == 7);  // s = 5, n = 4: 3·⌈5/4⌉ + 1 <= Dao's 4·⌈5/4⌉ = 8
  // Edit W: the K-matrix no longer expands to it, so it is neither counted nor written.
  L.W(0, 0) = Rat(9);
  CHECK(kmatrix_form(L) == nullptr);
  CHECK(count_params_kmatrix(m).projections.empty());
  CHECK(model_to_json(m)["layers"][0]["W"].is_array());
}

TEST_CASE("model-json: malformed K-matrix projections are input errors naming the field") {
  const json good = kmatrix_to_json(shift_kmatrix());
  auto refuse = [&](json W, const std::string& where_part, const std::string& ring = "Z") {
    INFO(W.dump().substr(0, 120));
    try {
      (void)model_from_json(model_with(W, ring), "f.json");
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK(e.where.find(where_part) != std::string::npos);
    }
  };
  json w = good;
  w["kind"] = "toeplitz";
  refuse(w, "layers[0].W.kind");
  w = good;
  w["n"] = 8;
  refuse(w, "layers[0].W.n");
  w = good;
  w["e"] = 3;
  refuse(w, "layers[0].W.e");
  w = good;
  w["elements"][0]["M1"].erase(1);
  refuse(w, "elements[0].M1");
  w = good;
  w["elements"][0]["M2"][1]["d3"].push_back(0);
  refuse(w, "elements[0].M2[1].d3");
  w = good;
  w["elements"][0]["M1"][0]["d1"][0] = "1/2";
  refuse(w, "elements[0].M1[0].d1[0]");        // not in Z
  w = good;
  w["elements"][0]["M1"][0]["d1"][0] = 0.5;
  refuse(w, "elements[0].M1[0].d1[0]");        // floats are never exact entries
  w = good;
  w["elements"][0]["M1"][0]["d1"][0] = "1/7";
  refuse(w, "elements[0].M1[0].d1[0]", "Fp:7");  // 7 divides the denominator
  w = good;
  w["elements"][0].erase("M2");
  refuse(w, "elements[0]");
  // Q accepts 1/2 (the expansion then has rationals, which a Q model may hold).
  w = good;
  w["elements"][0]["M1"][0]["d1"][0] = "1/2";
  CHECK_NOTHROW((void)model_from_json(model_with(w, "Q"), "f.json"));
}
