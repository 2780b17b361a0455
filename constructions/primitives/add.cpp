// primitive/add: u = [x | z] (d = 2k) -> [x + z | 0]. One layer: W stacks two identities,
// h = 0, b2 = 1 (spec §5 [R]; Zoology lists "add" among its primitives, H.3 not held).
#include "constructions/primitives/builders.h"
#include "constructions/primitives/support.h"

namespace cz {
namespace {
// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("primitive/add", {"sat:model"});
const bool registered = register_construction({
    "primitive/add", "add", "[x | z] -> [x + z | 0]: one layer (W stacks identities)",
    prim::shape_params(8, 2),
    [](const Params& p) {
      prim::require_build(p, "primitive/add", 1, p.u("d"));  // before anything is allocated
      if (p.u("d") % 2) throw InputError("'d' must be even (u = [x | z])", "-p d=" + p.s("d"));
      Built b;
      b.model = build::add_blocks(p.u("N"), p.u("d"));
      b.claims = prim::our_tuple(*b.model, 1, p.i("N"), p.i("d"), "ours (a reconstruction; docs/theory.md)");
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      return model_vs_semantics(*b.model, [](const auto& r, const auto& u) { return sem::add_blocks(r, u); },
                                prim::domain_for(p, o, b));
    }});
}  // namespace
}  // namespace cz
