// sim/hyena: Hyena of order k (Zoology Alg. 2–3, model/hyena.h) compiled into BaseConv
// (constructions/sim/hyena_sim.h, ours [R]) and verified exactly against Hyena's own evaluation
// on the integer inputs of the shape (the {-1,0,1} or {0,1} box, then seeded signed samples).
// The Hyena operator's weights are seeded integers (-p wseed, -p wrange), h_s with 3 taps.
// Claims: ours (exact): k + 2 layers, N' = N, d' = (k+1)·d. The paper's (row 16; Zoology H.2 as
// JRT §3.1 states it): an (N, L, d, N', d') gated convolution is simulated by an
// (N, Õ(L), d, Õ(N'), Õ(d')) BaseConv; for Hyena L = k (Remark H.5), N' = N, and we read its d' as
// the projection width (k+1)·d: asymptotic, shown with the shape at these parameters.
// -p stack=S stacks S Hyena layers (constructions/sim/stacked.h): L = k·S.
#include "constructions/primitives/support.h"
#include "constructions/sim/hyena_sim.h"
#include "constructions/sim/stacked.h"
#include "verify/symbolic_reference.h"  // --method algebra (issue 37)

namespace cz {
namespace {

struct HyenaState {
  std::vector<HyenaOperator> ops;
};

// --method algebra: Hyena's compositional route (app/engine/algebra/algebra.cpp) takes its wide layout.
const bool routes_registered = register_routes("sim/hyena", {"algebra:hyena-compositional"});
const bool registered = register_construction({
    "sim/hyena", "hyena", "Hyena of order k (Zoology Alg. 2-3) as an exact (N, k+2, d, N, (k+1)d) BaseConv (layout=narrow: (N, 2k+1, d, N, 3d))",
    [] {
      auto p = prim::shape_params(4, 1);
      p.push_back(int_param("order", 2, 1, 64, "Hyena order k (recursion steps, Remark H.5)"));
      p.push_back(int_param("wseed", 1, 0, 1 << 30, "seed of the Hyena operator's integer weights"));
      p.push_back(int_param("wrange", 2, 1, 1 << 20, "the weights are drawn from [-wrange, wrange]"));
      p.push_back(choice_param("layout", "wide", {"wide", "narrow"},
                               "wide: (N, k+2, d, N, (k+1)d), every p^l carried; narrow: (N, 2k+1, d, N, 3d), u carried and each p^l made before its gate"));
      p.push_back(sim::stack_param());
      return p;
    }(),
    [](const Params& p) {
      const std::size_t k = p.u("order"), d = p.u("d"), N = p.u("N"), S = p.u("stack");
      const bool narrow = p.s("layout") == "narrow";
      const std::size_t layers = S * (narrow ? 2 * k + 1 : k + 2), width = narrow ? 3 * d : (k + 1) * d;
      prim::require_build(p, "sim/hyena", layers, width);
      auto st = std::make_shared<HyenaState>();
      std::size_t redraws = 0;  // issue 46 item 4: no output identically zero
      st->ops = sim::nonvacuous_ops(p, [&](std::uint64_t seed) { return random_hyena(N, d, k, seed, p.i("wrange")); },
                                    [](const auto& r, const HyenaOperator& op, const auto& u) { return hyena_eval(r, op, u); }, N, d, redraws);
      Built b;
      b.model = sim::stacked_model(st->ops, [narrow](const HyenaOperator& op) { return narrow ? sim::hyena_to_baseconv_narrow(op) : sim::hyena_to_baseconv(op); });
      const std::string ours = "ours (constructions/sim/hyena_sim.h, model/zoo_compile.h [R])", paper = "Zoology H.2 via JRT §3.1 (row 16)";
      b.claims = prim::our_tuple(*b.model, static_cast<long long>(layers), static_cast<long long>(N), static_cast<long long>(width), ours);
      b.claims.push_back(shape_claim("layers", "Õ(L), L = k·stack", static_cast<double>(k * S), paper, b.model->layers.size()));
      b.claims.push_back(shape_claim("inner_N", "Õ(N'), N' = N", static_cast<double>(N), paper, b.model->inner_N));
      b.claims.push_back(shape_claim("inner_d", "Õ(d'), d' = (k+1)d", static_cast<double>((k + 1) * d), paper, b.model->inner_d));
      const ParamCount pc = count_params(*b.model);
      b.metrics = {{"hyena_params", S * hyena_params(st->ops.front())}, {"baseconv_params_dense", pc.dense},
                   {"baseconv_params_nonzero", pc.nonzero}, {"hyena_L", k * S}, {"hyena_inner_d", (k + 1) * d}};
      b.notes = {"Hyena weights: seeded integers in [-wrange, wrange] (wseed), h_s with taps at rows < 3, long filters of length N",
                 "reference: Hyena's own exact evaluation (model/hyena.h), written without BaseConv code",
                 "causal convolution throughout; Hyena's d' read as the projection width (k+1)·d"};
      if (redraws) b.notes.push_back(sim::redraw_note(redraws));
      // --method algebra (issue 37): the same reference, runnable on symbols (verify/symbolic_reference.h).
      auto sym = make_symbolic_reference(sim::composed(st->ops, [](const auto& r, const HyenaOperator& op, const auto& u) { return hyena_eval(r, op, u); }), "Hyena's own evaluation (model/hyena.h hyena_eval)");
      // the compositional route knows one Hyena operator: stacks are proved by expansion
      if (!narrow && st->ops.size() == 1) sym->hyena = std::make_shared<const HyenaOperator>(st->ops.front());
      if (st->ops.size() == 1)  // --algebra-symbols weights: the same compiler on symbolic weights
        sym->weights = make_weight_symbolic(
            st->ops.front(), N, d, "hyena", "W, every tap of h_s and of the long filters h^1..h^k, zero taps of the seeded operator included",
            [narrow](const auto& op) { return narrow ? sim::hyena_compile_narrow(op) : sim::hyena_compile(op); },
            [](const auto& r, const auto& op, const auto& u) { return hyena_eval(r, op, u); });
      if (st->ops.size() == 1) sym->arch = std::make_shared<const ArchLayer>(ArchLayer{st->ops.front()});  // export --format operator
      attach_symbolic(st, std::move(sym));
      b.state = st;
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      auto st = std::static_pointer_cast<const HyenaState>(b.state);
      return model_vs_semantics(*b.model, sim::composed(st->ops, [](const auto& r, const HyenaOperator& op, const auto& u) { return hyena_eval(r, op, u); }),
                                prim::domain_for(p, o, b));
    }});

}  // namespace
}  // namespace cz
