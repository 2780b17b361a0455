// Based Lemma 5.1 (spec §9, row 5): an L-layer data-independent BaseConv computes, in every output
// entry, a polynomial of degree <= 2^L in the input entries. Exact symbolic evaluation (FLINT
// fmpq_mpoly) on random small models in all three convolution modes and on our own BaseConv-only
// constructions; the largest degree found per L is reported beside 2^L.
#include <map>

#include "proofs-checks/checks.h"
#include "proofs-checks/proof.h"
#include "proofs-checks/symbolic.h"

namespace cz::proofs {
namespace {

struct Shape {
  std::size_t L, N, d, Ni, Di;
};

ProofResult run(const ProofOptions& o) {
  ProofResult r;
  r.holds = true;
  std::vector<Shape> shapes = {{1, 4, 2, 4, 2}, {2, 3, 2, 3, 2}, {3, 2, 2, 2, 2}, {4, 2, 1, 2, 1}};
  if (!o.fast) shapes.push_back({5, 1, 1, 1, 1});
  const int seeds = o.fast ? 3 : 8;
  std::map<std::size_t, long> largest;
  std::size_t models = 0;
  nlohmann::json random_rows = nlohmann::json::array();
  for (const auto& sh : shapes)
    for (ConvMode mode : {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal})
      for (int k = 0; k < seeds; ++k) {
        Model m = random_baseconv(sh.N, sh.d, sh.Ni, sh.Di, sh.L, mode, o.seed * 1000 + sh.L * 100 + k * 3 +
                                  static_cast<int>(mode));
        std::string why;
        auto s = symbolic_eval(m, why);
        if (!s) {
          r.holds = false;
          r.verdict = "random model not evaluable: " + why;
          return r;
        }
        ++models;
        largest[sh.L] = std::max(largest[sh.L], s->max_degree);
        if (s->max_degree > (1L << sh.L)) {
          r.holds = false;
          r.details["counterexample"] = {{"L", sh.L}, {"mode", to_string(mode)}, {"degree", s->max_degree}};
        }
      }
  nlohmann::json per_L = nlohmann::json::array();
  for (auto [L, deg] : largest) per_L.push_back({{"L", L}, {"largest_degree", deg}, {"bound_2^L", 1L << L}, {"tight", deg == (1L << L)}});
  r.details["random_models"] = {{"count", models}, {"per_L", per_L}, {"weights", "integers in [-2,2], dense W, b1, h, b2"}};

  // Our constructions (BaseConv-only models at their defaults).
  nlohmann::json ours = nlohmann::json::array();
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> cons = {
      {"primitive/identity", {{"N", "4"}}},   {"primitive/shift_down", {{"N", "4"}, {"s", "1"}}},
      {"primitive/cumsum", {{"N", "4"}}},     {"primitive/add", {{"N", "4"}}},
      {"primitive/hadamard", {{"N", "4"}}},   {"primitive/shift_up", {{"N", "4"}, {"s", "1"}}},
      {"primitive/remember", {{"N", "6"}, {"s", "1"}, {"t", "4"}}},
      {"circuit/to-model", {{"D", "2"}}},     {"circuit/to-model", {{"source", "prefix-product"}, {"N", "4"}}}};
  for (const auto& [name, params] : cons) {
    Built b = build_construction(name, params);
    if (!b.model || !baseconv_only(*b.model)) continue;
    std::string why;
    auto s = symbolic_eval(*b.model, why);
    nlohmann::json row = {{"construction", name}, {"params", params}, {"L", b.model->layers.size()}};
    if (!s) {
      row["skipped"] = why;
    } else {
      const std::size_t L = b.model->layers.size();
      row["largest_degree"] = s->max_degree;
      row["bound_2^L"] = L < 62 ? nlohmann::json(1LL << L) : nlohmann::json("2^" + std::to_string(L));
      if (L < 62 && s->max_degree > (1L << L)) r.holds = false;
    }
    ours.push_back(row);
  }
  r.details["our_models"] = ours;
  std::string lst;
  for (auto [L, deg] : largest) lst += (lst.empty() ? "" : ", ") + ("L=" + std::to_string(L) + ": " + std::to_string(deg) + "/" + std::to_string(1L << L));
  r.verdict = (r.holds ? "degree <= 2^L on all " : "degree bound violated among ") + std::to_string(models) +
              " random models and " + std::to_string(ours.size()) + " of ours; largest degree/2^L: " + lst;
  r.domain = std::to_string(models) + " random integer models (L = 1.." + std::to_string(shapes.back().L) +
             ", causal/cyclic/anticausal) and our BaseConv-only constructions";
  return r;
}

const bool registered = register_proof({"degree/lemma-5.1",
                                        "Based Lemma 5.1: an L-layer data-independent BaseConv has output degree <= 2^L",
                                        "data-independent BaseConv models, any convolution mode, rational weights", {5}, run});
}  // namespace
}  // namespace cz::proofs
