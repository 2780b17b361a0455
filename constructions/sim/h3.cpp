// sim/h3: H3 in the form y = Q ⊙ (h_diag ∗ (K ⊙ (h_shift ∗ V))) (model/h3.h; spec §3 [M]) with a
// shift SSM and a diagonal SSM of state size m per channel, compiled into BaseConv through the
// SSM kernels as Hyena of order 2 without a short filter (constructions/sim/hyena_sim.h): an
// (N, 3, d, N, 3d) model, ours [R]. Verified exactly against H3 run as its recurrences (no kernel,
// no convolution in the reference). Weights and SSM parameters are seeded integers, |λ| <= 2.
// Paper (row 16): (N, Õ(L), d, Õ(N'), Õ(d')), H3 read as L = 2 (two gates), N' = N, d' = 3d.
#include "constructions/primitives/support.h"
#include "constructions/sim/hyena_sim.h"
#include "model/h3.h"
#include "verify/symbolic_reference.h"  // --method algebra (issue 37)

namespace cz {
namespace {

struct H3State {
  H3Operator op;
};

const bool registered = register_construction({
    "sim/h3", "h3", "H3 (shift and diagonal SSMs, state m) as an exact (N, 3, d, N, 3d) BaseConv",
    [] {
      auto p = prim::shape_params(4, 1);
      p.push_back(int_param("m", 2, 1, 64, "SSM state size per channel"));
      p.push_back(int_param("wseed", 1, 0, 1 << 30, "seed of the H3 operator's integer weights"));
      p.push_back(int_param("wrange", 2, 1, 1 << 20, "projections, B, C, D drawn from [-wrange, wrange]"));
      return p;
    }(),
    [](const Params& p) {
      const std::size_t d = p.u("d"), N = p.u("N");
      prim::require_build(p, "sim/h3", 3, 3 * d);
      auto st = std::make_shared<H3State>();
      st->op = random_h3(N, d, p.u("m"), p.u("wseed"), p.i("wrange"));
      Built b;
      b.model = sim::hyena_to_baseconv(h3_as_hyena(st->op), false);
      const std::string ours = "ours (constructions/sim/h3.cpp [R])", paper = "Zoology H.2 via JRT §3.1 (row 16)";
      b.claims = prim::our_tuple(*b.model, 3, static_cast<long long>(N), static_cast<long long>(3 * d), ours);
      b.claims.push_back(shape_claim("layers", "Õ(L), L = 2", 2.0, paper, b.model->layers.size()));
      b.claims.push_back(shape_claim("inner_N", "Õ(N'), N' = N", static_cast<double>(N), paper, b.model->inner_N));
      b.claims.push_back(shape_claim("inner_d", "Õ(d'), d' = 3d", static_cast<double>(3 * d), paper, b.model->inner_d));
      const ParamCount pc = count_params(*b.model);
      b.metrics = {{"h3_params", 3 * d * d + 2 * d * (2 * p.u("m") + 1) + d * p.u("m")},
                   {"baseconv_params_dense", pc.dense}, {"baseconv_params_nonzero", pc.nonzero}};
      b.notes = {"H3 as y = Q ⊙ (h_diag ∗ (K ⊙ (h_shift ∗ V))) (issue 28's reading; Fu et al. shift K instead of V)",
                 "reference: the SSM recurrences run step by step (model/h3.h), no kernels or convolutions",
                 "SSM parameters: seeded integers, λ in [-2, 2]; kernels h[t] = C·A^t·B + D·[t = 0] exactly"};
      // --method algebra (issue 37): the same reference, runnable on symbols (verify/symbolic_reference.h).
      auto sym = make_symbolic_reference([st](const auto& r, const auto& u) { return h3_eval(r, st->op, u); }, "H3's SSM recurrences (model/h3.h h3_eval)");
      attach_symbolic(st, std::move(sym));
      b.state = st;
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      auto st = std::static_pointer_cast<const H3State>(b.state);
      return model_vs_semantics(*b.model, [st](const auto& r, const auto& u) { return h3_eval(r, st->op, u); },
                                prim::domain_for(p, o, b));
    }});

}  // namespace
}  // namespace cz
