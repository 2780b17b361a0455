// sim/h3: H3 as published (Fu et al. 2023; zoology's mixers/h3/h3.py; spec §3 [V, corrected
// 12-03]), y = Q ⊙ (h_diag ∗ ((h_shift ∗ K) ⊙ V)) (model/h3.h), with per-channel shift and
// diagonal SSMs of state m, compiled through Hyena of order 2 (v = K, p^1 = V, p^2 = Q) into an
// (N, 3, d, N, 3d) model, ours [R]. -p form=shift_v builds the variant this project called "h3"
// before 12-03, y = Q ⊙ (h_diag ∗ (K ⊙ (h_shift ∗ V))) (a different operator at d ≥ 2).
// Verified exactly against H3 run as its recurrences (no kernel, no convolution).
// Paper (row 16): (N, Õ(L), d, Õ(N'), Õ(d')), H3 read as L = 2 (two gates) per layer, N' = N and
// d' = d (H3's own channels: its SSMs run on the d channels of K and of K·V); ours is 3d wide.
// -p stack=S stacks S H3 layers (constructions/sim/stacked.h): L = 2S.
#include "constructions/primitives/support.h"
#include "constructions/sim/hyena_sim.h"
#include "constructions/sim/stacked.h"
#include "model/h3.h"
#include "verify/symbolic_reference.h"  // --method algebra (issue 37)

namespace cz {
namespace {

struct H3State {
  std::vector<H3Operator> ops;
};

const bool registered = register_construction({
    "sim/h3", "h3", "H3 as published (shift SSM on K, gate with V, diagonal SSM, gate with Q; state m) as an exact (N, 3, d, N, 3d) BaseConv",
    [] {
      auto p = prim::shape_params(4, 1);
      p.push_back(int_param("m", 2, 1, 64, "SSM state size per channel"));
      p.push_back(int_param("wseed", 1, 0, 1 << 30, "seed of the H3 operator's integer weights"));
      p.push_back(int_param("wrange", 2, 1, 1 << 20, "projections, B, C, D drawn from [-wrange, wrange]"));
      p.push_back(choice_param("form", "published", {"published", "shift_v"},
                               "published: y = Q ⊙ (h_diag ∗ ((h_shift ∗ K) ⊙ V)) (Fu et al. 2023); shift_v: Q ⊙ (h_diag ∗ (K ⊙ (h_shift ∗ V))), the pre-12-03 reading"));
      p.push_back(sim::stack_param());
      return p;
    }(),
    [](const Params& p) {
      const std::size_t d = p.u("d"), N = p.u("N"), S = p.u("stack");
      prim::require_build(p, "sim/h3", 3 * S, 3 * d);
      auto st = std::make_shared<H3State>();
      const H3Form form = p.s("form") == "published" ? H3Form::Published : H3Form::ShiftV;
      std::size_t redraws = 0;  // issue 46 item 4: no output identically zero
      st->ops = sim::nonvacuous_ops(p, [&](std::uint64_t seed) { return random_h3(N, d, p.u("m"), seed, p.i("wrange"), form); },
                                    [](const auto& r, const H3Operator& op, const auto& u) { return h3_eval(r, op, u); }, N, d, redraws);
      Built b;
      b.model = sim::stacked_model(st->ops, [](const H3Operator& op) { return sim::hyena_to_baseconv(h3_as_hyena(op), false); });
      const std::string ours = "ours (constructions/sim/h3.cpp [R])", paper = "Zoology H.2 via JRT §3.1 (row 16)";
      b.claims = prim::our_tuple(*b.model, static_cast<long long>(3 * S), static_cast<long long>(N), static_cast<long long>(3 * d), ours);
      b.claims.push_back(shape_claim("layers", "Õ(L), L = 2·stack", 2.0 * static_cast<double>(S), paper, b.model->layers.size()));
      b.claims.push_back(shape_claim("inner_N", "Õ(N'), N' = N", static_cast<double>(N), paper, b.model->inner_N));
      b.claims.push_back(shape_claim("inner_d", "Õ(d'), d' = d (H3's channels)", static_cast<double>(d), paper, b.model->inner_d));
      const ParamCount pc = count_params(*b.model);
      const std::size_t one = 3 * d * d + 2 * d * (2 * p.u("m") + 1) + d * p.u("m");
      b.metrics = {{"h3_params", S * one}, {"baseconv_params_dense", pc.dense}, {"baseconv_params_nonzero", pc.nonzero},
                   {"h3_L", 2 * S}, {"h3_inner_d", d}, {"form", p.s("form")}};
      b.notes = {form == H3Form::Published ? "H3 as published: y = Q ⊙ (h_diag ∗ ((h_shift ∗ K) ⊙ V)) (Fu et al. 2023; zoology's mixers/h3/h3.py)"
                                           : "form=shift_v: y = Q ⊙ (h_diag ∗ (K ⊙ (h_shift ∗ V))), NOT the published H3 (the pre-12-03 reading, a named variant)",
                 "reference: the SSM recurrences run step by step (model/h3.h), no kernels or convolutions",
                 "SSM parameters: seeded integers, λ in [-2, 2]; kernels h[t] = C·A^t·B + D·[t = 0] exactly"};
      if (redraws) b.notes.push_back(sim::redraw_note(redraws));
      // --method algebra (issue 37): the same reference, runnable on symbols (verify/symbolic_reference.h).
      auto sym = make_symbolic_reference(sim::composed(st->ops, [](const auto& r, const H3Operator& op, const auto& u) { return h3_eval(r, op, u); }), "H3's SSM recurrences (model/h3.h h3_eval)");
      if (st->ops.size() == 1)  // --algebra-symbols weights: the same compiler chain on symbolic weights
        sym->weights = make_weight_symbolic(
            st->ops.front(), N, d, "h3", "W_Q, W_K, W_V and both SSMs' λ, B, C, D per channel; kernels C·A^t·B + D·[t = 0] as polynomials",
            [](const auto& op) { return sim::hyena_compile(h3_as_hyena(op), false); },
            [](const auto& r, const auto& op, const auto& u) { return h3_eval(r, op, u); });
      if (st->ops.size() == 1) sym->arch = std::make_shared<const ArchLayer>(ArchLayer{st->ops.front()});  // export --format operator
      attach_symbolic(st, std::move(sym));
      b.state = st;
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      auto st = std::static_pointer_cast<const H3State>(b.state);
      return model_vs_semantics(*b.model, sim::composed(st->ops, [](const auto& r, const H3Operator& op, const auto& u) { return h3_eval(r, op, u); }),
                                prim::domain_for(p, o, b));
    }});

}  // namespace
}  // namespace cz
