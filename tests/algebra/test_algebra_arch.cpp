// verify --model FILE --method algebra (app/engine/algebra/algebra_arch.h): a model file's architecture
// layers proved equal to their stored expansions on every state in Q^{N'×d'}; a tampered
// expansion weight refuted with a state where they differ, confirmed by exact evaluation.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "app/engine/algebra/algebra_arch.h"
#include "model/arch_layer.h"
#include "model/model_json.h"
#include "util/error.h"

using namespace cz;
using json = nlohmann::json;

namespace {
Model file_with(const std::vector<ArchLayer>& ls, std::size_t N, std::size_t d, std::size_t inner_d) {
  json layers = json::array();
  for (const ArchLayer& a : ls) layers.push_back(arch_to_json(a));
  return model_from_json({{"format", "circuitzoo.model/1"}, {"ring", "Q"}, {"N", N}, {"d", d}, {"inner_N", N}, {"inner_d", inner_d},
                          {"conv", "causal"}, {"layers", layers}},
                         "m.json");
}
}  // namespace

TEST_CASE("algebra on a model file: every architecture layer proved against its own evaluation, a tampered one refuted") {
  const std::size_t N = 5;
  const std::vector<ArchLayer> ls = {{random_retnet(N, 1, 1, 2, 1, 3, 2, 1, true)}, {random_h3(N, 1, 2, 4, 2)},
                                     {random_hyena(N, 1, 2, 5, 2)}};
  std::size_t w = 0;
  for (const ArchLayer& a : ls) w = std::max(w, arch_sim_width(a));
  const Model m = file_with(ls, N, 1, w);
  AlgebraOptions o;
  const AlgebraOutcome good = run_arch_algebra(m, "m.json", o);
  CHECK(good.verdict == "proved");
  REQUIRE(good.report["arch_layers"].size() == 3);
  for (const auto& l : good.report["arch_layers"]) CHECK(l["verdict"] == "proved");
  Model bad = m;  // one γ^1 tap of the retnet expansion (its third layer) changed in memory
  std::get<BaseConvLayer>(bad.layers[2]).h(1, 0) += Rat(Int(1), Int(7));
  const AlgebraOutcome r = run_arch_algebra(bad, "m.json", o);
  CHECK(r.verdict == "refuted");
  CHECK(r.exit_code == 1);
  REQUIRE(r.counterexample);
  CHECK(r.report["arch_layers"][0]["verdict"] == "refuted");
  Model plain = m;
  plain.arch.clear();
  CHECK_THROWS_AS(run_arch_algebra(plain, "m.json", o), InputError);
}
