// primitive/identity: y = u. One layer W=0, b1=1, h=δ, b2=0 (spec §5), in any conv mode.
#include "constructions/primitives/builders.h"
#include "constructions/primitives/support.h"

namespace cz {
namespace {
// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("primitive/identity", {"sat:model"});
const bool registered = register_construction({
    "primitive/identity", "identity", "y = u: one BaseConv layer (W=0, b1=1, h=δ, b2=0)",
    [] { auto p = prim::shape_params(8, 2); p.push_back(prim::conv_param("causal", "convolution mode")); return p; }(),
    [](const Params& p) {
      prim::require_build(p, "primitive/identity", 1, p.u("d"));  // before anything is allocated
      Built b;
      b.model = build::identity(p.u("N"), p.u("d"), *parse_conv_mode(p.s("conv")));
      b.claims = prim::our_tuple(*b.model, 1, p.i("N"), p.i("d"), "ours (a reconstruction; docs/theory.md)");
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      return model_vs_semantics(*b.model, [](const auto& r, const auto& u) { return sem::identity(r, u); },
                                prim::domain_for(p, o, b));
    }});
}  // namespace
}  // namespace cz
