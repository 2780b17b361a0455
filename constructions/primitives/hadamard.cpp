// primitive/hadamard: u = [x | z] (d = 2k) -> [x ⊙ z | 0]. One layer: W routes z into x's slot,
// h = δ on x's slot, biases 0 (spec §5 [R]). δ is the identity in every conv mode.
#include "constructions/primitives/builders.h"
#include "constructions/primitives/support.h"

namespace cz {
namespace {
// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("primitive/hadamard", {"sat:model"});
const bool registered = register_construction({
    "primitive/hadamard", "hadamard", "[x | z] -> [x ⊙ z | 0]: one layer (gating)",
    [] { auto p = prim::shape_params(8, 2); p.push_back(prim::conv_param("causal", "convolution mode")); return p; }(),
    [](const Params& p) {
      prim::require_build(p, "primitive/hadamard", 1, p.u("d"));  // before anything is allocated
      if (p.u("d") % 2) throw InputError("'d' must be even (u = [x | z])", "-p d=" + p.s("d"));
      Built b;
      b.model = build::hadamard_blocks(p.u("N"), p.u("d"), *parse_conv_mode(p.s("conv")));
      b.claims = prim::our_tuple(*b.model, 1, p.i("N"), p.i("d"), "ours (a reconstruction; docs/theory.md)");
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      return model_vs_semantics(*b.model, [](const auto& r, const auto& u) { return sem::hadamard_blocks(r, u); },
                                prim::domain_for(p, o, b));
    }});
}  // namespace
}  // namespace cz
