// Stacking (row 14; JRT L.G.20 citing Based): an (N, L1, d, N', d') model followed by an
// (N, L2, d, N', d') model gives an (N, L1+L2, d, N', d') model computing the composition b∘a,
// where a's N×d output is extracted and embedded into b (spec §2.2). With N' = N and d' = d the
// concatenation is the composition by definition; the claim has content when the inner dims are
// larger: then concatenating is not b∘a (b would read a's rows >= N and columns >= d), and this
// check measures both that (naive concatenation differs) and our stack_composing (checks.h): a's
// last layer zeroes the columns >= d and causality makes rows >= N harmless, L1 + L2 layers.
// Non-causal models with N' > N have no such stack (their rows wrap around): reported beside.
#include "proofs-checks/checks.h"
#include "proofs-checks/proof.h"
#include "proofs-checks/symbolic.h"

namespace cz::proofs {
namespace {

ProofResult run(const ProofOptions& o) {
  ProofResult r;
  r.holds = true;
  nlohmann::json pairs = nlohmann::json::array(), wider = nlohmann::json::array();
  auto prim = [](const std::string& name, std::map<std::string, std::string> p) {
    p["N"] = "6";
    p["d"] = "2";
    return *build_construction(name, p).model;
  };
  // Equal inner and outer dims (the definition: concatenation is composition).
  std::vector<std::pair<std::string, Model>> ms = {{"primitive/identity", prim("primitive/identity", {})},
                                                   {"primitive/shift_down s=2", prim("primitive/shift_down", {{"s", "2"}})},
                                                   {"primitive/cumsum", prim("primitive/cumsum", {})},
                                                   {"primitive/hadamard", prim("primitive/hadamard", {})}};
  for (int k = 0; k < (o.fast ? 2 : 6); ++k)
    ms.push_back({"random L=2 #" + std::to_string(k), random_baseconv(6, 2, 6, 2, 2, ConvMode::Causal, o.seed * 101 + k)});
  for (std::size_t i = 0; i < ms.size(); ++i)
    for (std::size_t j = 0; j < ms.size(); ++j) {
      if (i == j && i > 0) continue;
      Model c = stack_composing(ms[i].second, ms[j].second);
      std::string why;
      const bool ok = stacking_holds(ms[i].second, ms[j].second, c, o.seed + i * 17 + j, why);
      pairs.push_back({{"first", ms[i].first}, {"then", ms[j].first}, {"layers", c.layers.size()}, {"holds", ok}});
      if (!ok) r.holds = false, pairs.back()["why"] = why;
    }
  // Inner dims larger than outer ones: (4, L, 1, 6, 3) causal models, L1, L2 in {1, 2}.
  std::size_t naive_differs = 0, composing_ok = 0;
  const int reps = o.fast ? 2 : 6;
  for (std::size_t L1 = 1; L1 <= 2; ++L1)
    for (std::size_t L2 = 1; L2 <= 2; ++L2)
      for (int k = 0; k < reps; ++k) {
        const std::uint64_t s = o.seed * 7919 + L1 * 131 + L2 * 17 + static_cast<std::uint64_t>(k);
        Model a = random_baseconv(4, 1, 6, 3, L1, ConvMode::Causal, s), b = random_baseconv(4, 1, 6, 3, L2, ConvMode::Causal, s + 1);
        std::string why, why_naive;
        const bool ok = stacking_holds(a, b, stack_composing(a, b), s, why);
        const bool naive = stacking_holds(a, b, stack(a, b), s, why_naive);
        composing_ok += ok;
        naive_differs += !naive;
        wider.push_back({{"L1", L1}, {"L2", L2}, {"layers", L1 + L2}, {"composing_holds", ok}, {"naive_concatenation_holds", naive}});
        if (!ok) r.holds = false, wider.back()["why"] = why;
      }
  // Non-causal with N' > N: no stack without an extraction layer.
  bool cyclic_refused = false;
  try {
    Model a = random_baseconv(4, 1, 6, 3, 1, ConvMode::Cyclic, o.seed), b = random_baseconv(4, 1, 6, 3, 1, ConvMode::Cyclic, o.seed + 1);
    stack_composing(a, b);
  } catch (const std::invalid_argument&) {
    cyclic_refused = true;
  }
  r.details["pairs"] = pairs;
  r.details["inner_larger"] = {{"shape", "(4, L, 1, 6, 3) causal"}, {"pairs", wider}, {"composing_holds", composing_ok},
                               {"naive_concatenation_differs", naive_differs}};
  r.details["cyclic_inner_larger"] = {{"refused", cyclic_refused}, {"note", "rows >= N wrap into rows < N: an extraction (mask) layer is needed"}};
  r.verdict = std::string(r.holds ? "" : "NOT ") + "as claimed: layer counts add and the stack computes b∘a on " + std::to_string(pairs.size()) +
              " pairs with inner = outer dims and " + std::to_string(composing_ok) + "/" + std::to_string(wider.size()) +
              " causal pairs with inner (6, 3) > outer (4, 1) (last layer of the first zeroes columns >= d; the plain concatenation differs on " +
              std::to_string(naive_differs) + "), 64 inputs in [-3, 3] each";
  r.domain = "pairs of (6, L, 2, 6, 2) causal models (ours and random) and of (4, L, 1, 6, 3) causal random models, L in {1, 2}";
  return r;
}

const bool registered = register_proof({"stacking/layers-add", "stacking (N,L1,d,N',d') and (N,L2,d,N',d') models gives (N,L1+L2,d,N',d') computing the composition",
                                        "causal BaseConv models, inner dims equal to or larger than outer ones", {14}, run});
}  // namespace
}  // namespace cz::proofs
