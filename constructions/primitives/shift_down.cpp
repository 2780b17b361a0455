// primitive/shift_down: y[i] = u[i-s] (i >= s), else 0. Paper: (N,3,d,N,d)-BaseConv (Based Prop
// F.38 as cited in JRT Lemma G.20). Ours: one layer, h = X^s (causal); cyclic masks the wrapped
// rows. Anticausal cannot shift down (row i only sees rows >= i); we verify that it fails.
#include "constructions/primitives/builders.h"
#include "constructions/primitives/support.h"

namespace cz {
namespace {
// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("primitive/shift_down", {"sat:model"});
const bool registered = register_construction({
    "primitive/shift_down", "shift_down", "y[i] = u[i-s]: one layer with kernel X^s (paper: 3 layers)",
    [] {
      auto p = prim::shape_params(8, 2);
      p.push_back(int_param("s", 3, 0, 1 << 16, "shift (0 <= s < N)"));
      p.push_back(prim::conv_param("causal", "convolution mode (anticausal cannot shift down)"));
      return p;
    }(),
    [](const Params& p) {
      prim::require_build(p, "primitive/shift_down", 1, p.u("d"));  // before anything is allocated
      if (p.u("s") >= p.u("N")) throw InputError("'s' must be below N", "-p s=" + p.s("s"));
      Built b;
      ConvMode conv = *parse_conv_mode(p.s("conv"));
      b.model = build::shift_down(p.u("N"), p.u("d"), p.u("s"), conv);
      b.claims = prim::our_tuple(*b.model, 1, p.i("N"), p.i("d"), "ours (a reconstruction; docs/theory.md)");
      const char* src = "Based Prop F.38 (via JRT Lemma G.20)";
      b.claims.push_back(paper_claim("layers", "3", 3, "upper_bound", src, b.model->layers.size()));
      b.claims.push_back(paper_claim("inner_N", "N", p.i("N"), "exact", src, b.model->inner_N));
      b.claims.push_back(paper_claim("inner_d", "d", p.i("d"), "exact", src, b.model->inner_d));
      if (conv == ConvMode::Anticausal)
        b.notes.push_back("anticausal outputs at row i depend only on rows >= i, so no anticausal model shifts "
                          "down (mirror of the causality lemma, docs/theory.md \"Convolution modes\"); a counterexample is expected");
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      const std::size_t s = p.u("s");
      return model_vs_semantics(*b.model, [s](const auto& r, const auto& u) { return sem::shift_down(r, u, s); },
                                prim::domain_for(p, o, b));
    }});
}  // namespace
}  // namespace cz
