// primitive/cumsum: y[i] = sum_{k<=i} u[k]. Paper: (N, O(1), d, N, d) (Based Prop F.41 via JRT).
// Ours: one causal layer with the all-ones filter.
#include "constructions/primitives/builders.h"
#include "constructions/primitives/support.h"

namespace cz {
namespace {
// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("primitive/cumsum", {"sat:model"});
const bool registered = register_construction({
    "primitive/cumsum", "cumsum", "y[i] = sum_{k<=i} u[k]: one causal layer, all-ones filter",
    prim::shape_params(8, 2),
    [](const Params& p) {
      prim::require_build(p, "primitive/cumsum", 1, p.u("d"));  // before anything is allocated
      Built b;
      b.model = build::cumsum(p.u("N"), p.u("d"));
      b.claims = prim::our_tuple(*b.model, 1, p.i("N"), p.i("d"), "ours (a reconstruction; docs/theory.md)");
      b.claims.push_back(paper_claim("layers", "O(1)", std::nullopt, "asymptotic", "Based Prop F.41 (via JRT)",
                                     b.model->layers.size()));
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      return model_vs_semantics(*b.model, [](const auto& r, const auto& u) { return sem::cumsum(r, u); },
                                prim::domain_for(p, o, b));
    }});
}  // namespace
}  // namespace cz
