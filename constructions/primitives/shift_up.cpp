// primitive/shift_up: y[i] = u[i+s] (i+s < N), else 0. Paper: 3 layers (Zoology "Prop C.5" as
// cited by JRT Prop G.21). Under causal convolution it is impossible with top-left embedding and
// extraction (spec §2.1 causality lemma, Errata E3): we build the cyclic weights anyway so the
// verifier shows a counterexample. Cyclic: b1 masks rows >= N-s, h = X^(N-s). Anticausal: h = X^s.
#include "constructions/primitives/builders.h"
#include "constructions/primitives/support.h"

namespace cz {
namespace {
constexpr const char* kCausalNote =
    "shift_up is impossible under causal convolution: output row i of any causal BaseConv stack "
    "depends only on input rows <= i (the causality lemma and erratum E3 in docs/theory.md, \"Convolution modes\"). Use conv=cyclic or "
    "conv=anticausal";

// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("primitive/shift_up", {"sat:model"});
const bool registered = register_construction({
    "primitive/shift_up", "shift_up", "y[i] = u[i+s]: one layer, cyclic or anticausal (impossible if causal)",
    [] {
      auto p = prim::shape_params(8, 2);
      p.push_back(int_param("s", 3, 1, 1 << 16, "shift (0 < s < N)"));
      p.push_back(prim::conv_param("cyclic", "convolution mode (causal is impossible: a counterexample results)"));
      return p;
    }(),
    [](const Params& p) {
      prim::require_build(p, "primitive/shift_up", 1, p.u("d"));  // before anything is allocated
      if (p.u("s") >= p.u("N")) throw InputError("'s' must be below N", "-p s=" + p.s("s"));
      Built b;
      ConvMode conv = *parse_conv_mode(p.s("conv"));
      b.model = build::shift_up(p.u("N"), p.u("d"), p.u("s"), conv);
      b.claims = prim::our_tuple(*b.model, 1, p.i("N"), p.i("d"), "ours (a reconstruction; docs/theory.md)");
      b.claims.push_back(paper_claim("layers", "3", 3, "upper_bound", "Zoology 'Prop C.5' (via JRT Prop G.21)",
                                     b.model->layers.size()));
      if (conv == ConvMode::Causal) b.notes.push_back(kCausalNote);
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      const std::size_t s = p.u("s");
      Check c = model_vs_semantics(*b.model, [s](const auto& r, const auto& u) { return sem::shift_up(r, u, s); },
                                   prim::domain_for(p, o, b));
      if (p.s("conv") == "causal") {
        c.preconditions.push_back(kCausalNote);
        auto run = c.run;
        c.run = [run](std::uint64_t k) {
          auto f = run(k);
          if (f) f->message = "impossible under causal convolution (the causality lemma: docs/theory.md, \"Convolution modes\"); " + f->message;
          return f;
        };
        auto shrink = c.shrink;
        c.shrink = [shrink](const Failure& f) {
          Failure s = shrink(f);
          s.message = "impossible under causal convolution (the causality lemma: docs/theory.md, \"Convolution modes\"); " + s.message;
          return s;
        };
      }
      return c;
    }});
}  // namespace
}  // namespace cz
