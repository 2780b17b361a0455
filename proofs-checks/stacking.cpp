// Stacking (row 14; JRT L.G.20 citing Based): an (N, L1, d, N', d') model followed by an
// (N, L2, d, N', d') model is an (N, L1+L2, d, N', d') model computing the composition, provided
// the intermediate N×d extraction is not needed. Checked on cz::stack of our constructions and of
// random models with inner = outer dims; with d' > d the composition differs (the extraction
// matters), which is reported as the lemma's domain boundary, not as a failure.
#include "proofs-checks/checks.h"
#include "proofs-checks/proof.h"
#include "proofs-checks/symbolic.h"

namespace cz::proofs {
namespace {

ProofResult run(const ProofOptions& o) {
  ProofResult r;
  r.holds = true;
  nlohmann::json pairs = nlohmann::json::array();
  auto prim = [](const std::string& name, std::map<std::string, std::string> p) {
    p["N"] = "6";
    p["d"] = "2";
    return *build_construction(name, p).model;
  };
  std::vector<std::pair<std::string, Model>> ms = {{"primitive/identity", prim("primitive/identity", {})},
                                                   {"primitive/shift_down s=2", prim("primitive/shift_down", {{"s", "2"}})},
                                                   {"primitive/cumsum", prim("primitive/cumsum", {})},
                                                   {"primitive/hadamard", prim("primitive/hadamard", {})}};
  for (int k = 0; k < (o.fast ? 2 : 6); ++k)
    ms.push_back({"random L=2 #" + std::to_string(k), random_baseconv(6, 2, 6, 2, 2, ConvMode::Causal, o.seed * 101 + k)});
  for (std::size_t i = 0; i < ms.size(); ++i)
    for (std::size_t j = 0; j < ms.size(); ++j) {
      if (i == j && i > 0) continue;
      Model c = stack(ms[i].second, ms[j].second);
      std::string why;
      const bool ok = stacking_holds(ms[i].second, ms[j].second, c, o.seed + i * 17 + j, why);
      pairs.push_back({{"first", ms[i].first}, {"then", ms[j].first}, {"layers", c.layers.size()}, {"holds", ok}});
      if (!ok) {
        r.holds = false;
        pairs.back()["why"] = why;
      }
    }
  // Outside the domain: inner width larger than the output width.
  Model a = random_baseconv(4, 1, 4, 2, 1, ConvMode::Causal, o.seed * 3 + 1), b = random_baseconv(4, 1, 4, 2, 1, ConvMode::Causal, o.seed * 3 + 2);
  std::string why;
  const bool beyond = stacking_holds(a, b, stack(a, b), o.seed, why);
  r.details["pairs"] = pairs;
  r.details["outside_domain_inner_d_2_outer_d_1"] = {{"composition_equal", beyond}, {"note", "the intermediate extraction matters when d' > d"}};
  r.verdict = std::string(r.holds ? "" : "NOT ") + "as claimed: layer counts add and the stack computes the composition on " +
              std::to_string(pairs.size()) + " pairs (64 random inputs each)";
  r.domain = "pairs of (6, L, 2, 6, 2) causal models (ours and random)";
  return r;
}

const bool registered = register_proof({"stacking/layers-add", "stacking models with equal inner dims adds layer counts and composes",
                                        "BaseConv models with N' = N, d' = d (no intermediate extraction)", {14}, run});
}  // namespace
}  // namespace cz::proofs
