// primitive/remember: remember(u, s, t, f) with f itself a model (Based Def F.15 / Prop F.13 as
// cited by JRT Lemma G.20, Prop G.21): rows [s,t) get f(u[s:t]), other rows keep u.
// Paper: 8 layers at inner = outer dims. Ours (spec §5 [R] with the §13 improvements): L_f + 2
// layers at inner (N, d_f + d); the paper's equal-width version is not reproduced (Errata E4).
#include "constructions/primitives/builders.h"
#include "constructions/primitives/support.h"

namespace cz {
namespace {

Model make_f(const Params& p) {
  const std::size_t n = p.u("t") - p.u("s"), d = p.u("d");
  const std::string& f = p.s("f");
  if (f == "cumsum") return build::cumsum(n, d);
  if (f == "identity") return build::identity(n, d);
  if (p.u("fs") >= n) throw InputError("'fs' must be below t - s", "-p fs=" + p.s("fs"));
  return build::shift_down(n, d, p.u("fs"));
}

// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("primitive/remember", {"sat:model"});
const bool registered = register_construction({
    "primitive/remember", "remember", "rows [s,t) <- f(u[s:t]), others kept; f a model (L_f + 2 layers)",
    [] {
      auto p = prim::shape_params(8, 2);
      p.push_back(int_param("s", 2, 0, 1 << 16, "first row of the window"));
      p.push_back(int_param("t", 6, 1, 1 << 16, "end of the window (exclusive, s < t <= N)"));
      p.push_back(choice_param("f", "cumsum", {"cumsum", "shift_down", "identity"}, "the model f run on the window"));
      p.push_back(int_param("fs", 1, 0, 1 << 16, "shift of f when f=shift_down"));
      return p;
    }(),
    [](const Params& p) {
      prim::require_build(p, "primitive/remember", 3, 2 * p.u("d"));  // before anything is allocated
      if (!(p.u("s") < p.u("t") && p.u("t") <= p.u("N")))
        throw InputError("need s < t <= N", "-p s=" + p.s("s") + " -p t=" + p.s("t"));
      Model f = make_f(p);
      Built b;
      b.model = build::remember(p.u("N"), p.u("d"), p.u("s"), p.u("t"), f);
      const long long Lf = static_cast<long long>(f.layers.size());
      b.claims = prim::our_tuple(*b.model, Lf + 2, p.i("N"), static_cast<long long>(f.inner_d) + p.i("d"),
                                 "ours (a reconstruction; docs/theory.md, Errata)");
      const char* src = "Based Def F.15 / Prop F.13 (via JRT Lemma G.20)";
      b.claims.push_back(paper_claim("layers", "8", 8, "upper_bound", src, b.model->layers.size()));
      b.claims.push_back(paper_claim("inner_N", "N", p.i("N"), "exact", src, b.model->inner_N));
      b.claims.push_back(paper_claim("inner_d", "d", p.i("d"), "exact", src, b.model->inner_d,
                                     "paper's equal-width remember not reproduced (Errata E4); ours adds d_f channels"));
      b.notes.push_back("f = " + p.s("f") + ", a (" + std::to_string(f.N) + ", " + std::to_string(Lf) + ", " +
                        std::to_string(f.d) + ", " + std::to_string(f.inner_N) + ", " + std::to_string(f.inner_d) +
                        ") causal BaseConv");
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      const std::size_t s = p.u("s"), t = p.u("t"), fs = p.u("fs");
      const std::string f = p.s("f");
      // The reference applies f's own definition (not f's weights) to the window.
      auto sem_f = [f, fs](const auto& r, const auto& piece) {
        if (f == "cumsum") return sem::cumsum(r, piece);
        if (f == "identity") return sem::identity(r, piece);
        return sem::shift_down(r, piece, fs);
      };
      return model_vs_semantics(
          *b.model,
          [s, t, sem_f](const auto& r, const auto& u) {
            return sem::remember(r, u, s, t, [&](const auto& piece) { return sem_f(r, piece); });
          },
          prim::domain_for(p, o, b));
    }});
}  // namespace
}  // namespace cz
