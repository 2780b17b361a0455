// Writing architecture layers back (model/model_json.h, Model::arch; contract "Architecture
// layers"): read -> write -> read gives an identical model and the written JSON has the layer's kind;
// a model changed after reading (a weight edited, layers removed, conv mode changed) is written as
// its BaseConv layers, never as a stale architecture layer; stack() shifts the second model's records.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "model/arch_layer.h"
#include "model/model_json.h"
#include "tests/seed.h"

using namespace cz;
using json = nlohmann::json;

namespace {
json model_json(const std::string& ring, std::size_t N, std::size_t d, std::size_t inner_d, const json& layers) {
  return {{"format", "circuitzoo.model/1"}, {"ring", ring}, {"N", N}, {"d", d}, {"inner_N", N}, {"inner_d", inner_d}, {"conv", "causal"}, {"layers", layers}};
}

// Every field of the model, the architecture records included (their layers compared as written).
bool same_model(const Model& a, const Model& b) {
  if (a.ring != b.ring || a.N != b.N || a.d != b.d || a.inner_N != b.inner_N || a.inner_d != b.inner_d || a.conv != b.conv ||
      a.layers.size() != b.layers.size() || a.arch.size() != b.arch.size())
    return false;
  for (std::size_t l = 0; l < a.layers.size(); ++l) {
    const auto* x = std::get_if<BaseConvLayer>(&a.layers[l]);
    const auto* y = std::get_if<BaseConvLayer>(&b.layers[l]);
    if (!x || !y || !(x->W == y->W && x->b1 == y->b1 && x->h == y->h && x->b2 == y->b2) || bool(x->W_kmatrix) != bool(y->W_kmatrix))
      return false;
  }
  for (std::size_t k = 0; k < a.arch.size(); ++k)
    if (a.arch[k].first != b.arch[k].first || a.arch[k].count != b.arch[k].count ||
        arch_to_json(*a.arch[k].layer) != arch_to_json(*b.arch[k].layer))
      return false;
  return true;
}

json kinds(const json& j) {
  json k = json::array();
  for (const json& L : j["layers"]) k.push_back(L["kind"]);
  return k;
}

// A BaseConv layer of inner width D on N rows with small seeded weights (h: the identity tap).
json mid_layer(std::mt19937_64& g, std::size_t N, std::size_t D) {
  json mid = {{"kind", "baseconv"}};
  for (const char* k : {"W", "b1", "h", "b2"}) {
    json m = json::array();
    for (std::size_t i = 0; i < (std::string(k) == "W" ? D : N); ++i) {
      json r = json::array();
      for (std::size_t c = 0; c < D; ++c) r.push_back(std::string(k) == "h" ? (i == 0 ? 1 : 0) : static_cast<int>(g() % 3) - 1);
      m.push_back(r);
    }
    mid[k] = m;
  }
  return mid;
}
}  // namespace

TEST_CASE("arch export: read then write then read gives the same model, each layer as written") {
  INFO("seed " << test::seed());
  auto g = test::rng(2851);
  const std::size_t N = 4;
  const std::vector<ArchLayer> all = {{random_hyena(N, 2, 2, g(), 2)}, {random_h3(N, 2, 2, g(), 2)},
                                      {random_retnet(N, 2, 2, 1, 2, g(), 2, 1)}, {random_rwkv(N, 1, g(), 2, true)}};
  for (const ArchLayer& a : all) {
    INFO(arch_kind(a));
    const json j = model_json("Q", N, arch_width(a), arch_sim_width(a) + 1, json::array({arch_to_json(a)}));
    const Model m = model_from_json(j, "m");
    REQUIRE(m.arch.size() == 1);
    CHECK(m.arch[0].first == 0);
    CHECK(m.arch[0].count == m.layers.size());
    const json back = model_to_json(m);
    CHECK(back == j);  // the file as the user wrote it
    CHECK(same_model(model_from_json(back, "back"), m));
  }
  // Several layers with a BaseConv layer between (Z, integral weights): each in its place.
  const ArchLayer rw{random_rwkv(N, 1, g(), 2, false)}, hy{random_hyena(N, 2, 1, g(), 2)};
  const json j = model_json("Z", N, 2, 4, json::array({arch_to_json(rw), mid_layer(g, N, 4), arch_to_json(hy)}));
  const Model m = model_from_json(j, "m");
  REQUIRE(m.arch.size() == 2);
  CHECK(m.arch[1].first == m.arch[0].count + 1);
  const json back = model_to_json(m);
  CHECK(kinds(back) == json::array({"rwkv", "baseconv", "hyena"}));
  CHECK(back == j);
  CHECK(same_model(model_from_json(back, "back"), m));
}

TEST_CASE("arch export: a model changed after reading is written as its layers, never a stale architecture layer") {
  INFO("seed " << test::seed());
  auto g = test::rng(2852);
  const std::size_t N = 4;
  const ArchLayer hy{random_hyena(N, 1, 2, g(), 2)};
  const json j = model_json("Z", N, 1, 3, json::array({arch_to_json(hy)}));
  const Model m = model_from_json(j, "m");
  const std::size_t L = m.layers.size();

  Model edited = m;  // one weight of the expansion changed
  std::get<BaseConvLayer>(edited.layers[L - 1]).b1(N - 1, 0) += Rat(1);
  json back = model_to_json(edited);
  CHECK(back["layers"].size() == L);
  for (const json& l : back["layers"]) CHECK(l["kind"] == "baseconv");
  Model again = model_from_json(back, "back");
  CHECK(again.arch.empty());
  edited.arch.clear();  // what a reader of the written file can know
  CHECK(same_model(again, edited));

  Model shorter = m;  // the first layer removed, the record left as it was
  shorter.layers.erase(shorter.layers.begin());
  back = model_to_json(shorter);
  CHECK(back["layers"].size() == L - 1);
  CHECK(back["layers"][0]["kind"] == "baseconv");

  Model cyclic = m;  // the conv mode changed: an architecture layer would not read back
  cyclic.conv = ConvMode::Cyclic;
  CHECK(model_to_json(cyclic)["layers"].size() == L);

  Model kmat = m;  // a K-matrix certificate on one of its layers is kept by writing the layers
  std::get<BaseConvLayer>(kmat.layers[0]).W_kmatrix = std::make_shared<const KMatrix<Rat>>();
  CHECK(model_to_json(kmat)["layers"].size() == L);
}

TEST_CASE("arch export: stack shifts the second model's records, and the stack reads back to itself") {
  INFO("seed " << test::seed());
  auto g = test::rng(2853);
  const std::size_t N = 4;
  const Model a = model_from_json(model_json("Z", N, 2, 4, json::array({arch_to_json(ArchLayer{random_hyena(N, 2, 1, g(), 2)})})), "a");
  const Model b = model_from_json(model_json("Z", N, 2, 4, json::array({mid_layer(g, N, 4), arch_to_json(ArchLayer{random_rwkv(N, 1, g(), 2, false)})})), "b");
  const Model s = stack(a, b);
  REQUIRE(s.arch.size() == 2);
  CHECK(s.arch[1].first == a.layers.size() + 1);
  const json back = model_to_json(s);
  CHECK(kinds(back) == json::array({"hyena", "baseconv", "rwkv"}));
  CHECK(same_model(model_from_json(back, "back"), s));
  Model unshifted = s;  // a record left at b's own index no longer matches: the layers are written
  unshifted.arch[1].first -= a.layers.size();
  const json raw = model_to_json(unshifted);
  CHECK(raw["layers"][0]["kind"] == "hyena");
  CHECK(raw["layers"].size() == 1 + b.layers.size());
  Model expected = s;
  expected.arch.pop_back();
  CHECK(same_model(model_from_json(raw, "raw"), expected));
}
