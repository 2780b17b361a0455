// sim/retnet: RetNet multi-head retention (model/retnet.h) compiled into BaseConv
// (constructions/sim/retnet_sim.h, ours [R]) and verified exactly against RetNet's own recurrent
// evaluation S_n = γ·S_{n−1} + k_nᵀ v_n, o_n = q_n·S_n (no convolution, no BaseConv code), over Q
// when γ is not an integer (the default γ_h = 1 − 2^{−(gexp+h)}), in int64/Z when gexp = 0 (γ = 1).
// Claims: ours (exact) 4 layers, N' = N, d' = H·dk·dv + 2·H·dk (at least d). The paper's (row 16;
// Zoology H.2 via JRT §3.1): an (N, L, d, N', d') gated convolution is simulated by an
// (N, Õ(L), d, Õ(N'), Õ(d')) BaseConv; RetNet as a gated convolution (spec §3 [M]) has two gates
// (L = 2) and width d' = H·dk·dv (one channel per (a, b) product: "d' = O(d²)"). Against RetNet's
// projection width H·(2dk + dv) the width grows like dv: reported as a metric, not hidden.
// -p rotation=rational (the default) rotates q and k by position as RetNet does (xPos without its
// scale: per head and coordinate pair a rational point (cos θ, sin θ) of the unit circle, exact),
// which adds a cos and a sin channel per key and query coordinate (d' = H·dk·dv + 4·H·dk);
// rotation=none is θ = 0. -p stack=S stacks S retention layers (constructions/sim/stacked.h).
#include "constructions/primitives/support.h"
#include "constructions/sim/rational_check.h"
#include "constructions/sim/retnet_sim.h"
#include "constructions/sim/stacked.h"
#include "verify/symbolic_reference.h"  // --method algebra (issue 37)

namespace cz {
namespace {

struct RetNetState {
  std::vector<RetNetOperator> ops;
};

const bool registered = register_construction({
    "sim/retnet", "retnet", "RetNet retention (H heads, rational decay γ, rational rotation) as an exact (N, 4, d, N, H·dk·dv + 4H·dk) BaseConv",
    [] {
      auto p = prim::shape_params(4, 1);
      p.push_back(int_param("heads", 1, 1, 64, "number of retention heads H"));
      p.push_back(int_param("dk", 2, 1, 256, "query/key width per head"));
      p.push_back(int_param("dv", 2, 1, 256, "value width per head"));
      p.push_back(int_param("gexp", 1, 0, 60, "decay γ_h = 1 − 2^-(gexp+h) (RetNet: gexp = 5); 0: γ = 1, an integral model"));
      p.push_back(int_param("wseed", 1, 0, 1 << 30, "seed of RetNet's integer projections"));
      p.push_back(int_param("wrange", 2, 1, 1 << 20, "projections drawn from [-wrange, wrange]"));
      p.push_back(choice_param("rotation", "rational", {"rational", "none"},
                               "rational: q, k rotated by nθ per coordinate pair, (cos θ, sin θ) a seeded Pythagorean point (needs dk even); none: θ = 0"));
      p.push_back(sim::stack_param());
      return p;
    }(),
    [](const Params& p) {
      const std::size_t N = p.u("N"), d = p.u("d"), H = p.u("heads"), dk = p.u("dk"), dv = p.u("dv"), S = p.u("stack");
      const bool rotate = p.s("rotation") == "rational";
      if (rotate && dk % 2)
        throw InputError("rotation=rational rotates pairs of key coordinates: dk must be even (or -p rotation=none)", "-p dk");
      const std::size_t gated = H * dk * dv, width = std::max(d, gated + (rotate ? 4 : 2) * H * dk);
      prim::require_build(p, "sim/retnet", 4 * S, width);
      auto st = std::make_shared<RetNetState>();
      std::size_t redraws = 0;  // issue 46 item 4: no output identically zero
      st->ops = sim::nonvacuous_ops(p, [&](std::uint64_t seed) { return random_retnet(N, d, H, dk, dv, seed, p.i("wrange"), p.u("gexp"), rotate); },
                                    [](const auto& r, const RetNetOperator& op, const auto& u) { return retnet_eval(r, op, u); }, N, d, redraws);
      Built b;
      b.model = sim::stacked_model(st->ops, [](const RetNetOperator& op) { return sim::retnet_to_baseconv(op); });
      const std::string ours = "ours (constructions/sim/retnet_sim.h [R])", paper = "Zoology H.2 via JRT §3.1 (row 16)";
      b.claims = prim::our_tuple(*b.model, static_cast<long long>(4 * S), static_cast<long long>(N), static_cast<long long>(width), ours);
      b.claims.push_back(shape_claim("layers", "Õ(L), L = 2·stack", 2.0 * static_cast<double>(S), paper, b.model->layers.size()));
      b.claims.push_back(shape_claim("inner_N", "Õ(N'), N' = N", static_cast<double>(N), paper, b.model->inner_N));
      b.claims.push_back(shape_claim("inner_d", "Õ(d'), d' = H·dk·dv", static_cast<double>(gated), paper, b.model->inner_d));
      const ParamCount pc = count_params(*b.model);
      b.metrics = {{"retnet_params", S * retnet_params(st->ops.front()) + (rotate ? S * H * dk : 0)},
                   {"baseconv_params_dense", pc.dense},
                   {"baseconv_params_nonzero", pc.nonzero},
                   {"retnet_L", 2 * S},
                   {"rotation", p.s("rotation")},
                   {"gated_conv_width", gated},
                   {"projection_width", H * (2 * dk + dv)},
                   {"ring", b.model->ring}};
      std::string gammas, rots;
      for (const Rat& g : st->ops.front().gamma) gammas += (gammas.empty() ? "" : ", ") + g.str();
      for (const auto& head : st->ops.front().rotation)
        for (const auto& [c, sn] : head) rots += (rots.empty() ? "" : ", ") + ("(" + c.str() + ", " + sn.str() + ")");
      b.notes = {"RetNet weights: seeded integers in [-wrange, wrange] (wseed); decays γ = " + gammas +
                     (b.model->ring == "Q" ? " (rational: the model is over Q and is checked over Q)" : " (integral: the model is over Z)"),
                 "reference: RetNet's recurrent form S_n = γ·S_{n−1} + k_nᵀ v_n, o_n = q_n·S_n (model/retnet.h), no convolution",
                 std::string("width: ⟨q_n, k_m⟩ v_m expands into H·dk·dv products, one channel each, plus ") +
                     (rotate ? "4·H·dk key and query channels (a cos and a sin channel each)" : "2·H·dk key and query channels"),
                 rotate ? "rotation (xPos without its scale ζ): layer 0's (cos θ, sin θ) per head and pair " + rots +
                              "; q and k rotated by nθ, exactly (rational points of the unit circle)"
                        : "rotation=none: θ = 0 (RetNet rotates q and k by position; this is its unrotated retention)",
                 "left out: RetNet's GroupNorm and swish gate (not polynomial) and xPos's length scale; the retention is simulated"};
      if (redraws) b.notes.push_back(sim::redraw_note(redraws));
      // --method algebra (issue 37): the same reference, runnable on symbols (verify/symbolic_reference.h).
      auto sym = make_symbolic_reference(sim::composed(st->ops, [](const auto& r, const RetNetOperator& op, const auto& u) { return retnet_eval(r, op, u); }), "RetNet's recurrent form (model/retnet.h retnet_eval)");
      if (st->ops.size() == 1)  // --algebra-symbols weights: the same compiler on symbolic weights
        sym->weights = make_weight_symbolic(
            st->ops.front(), N, d, "retnet",
            st->ops.front().rotation.empty()
                ? "W_Q, W_K, W_V, W_O and the decays γ_h (γ^t as polynomials); no rotation (rotation=none)"
                : "W_Q, W_K, W_V, W_O, the decays γ_h (γ^t as polynomials) and each rotation's (c, s) as free symbols: the identity holds as "
                  "polynomials in (c, s), so for every (c, s), the unit circle included (the rotated layout)",
            [](const auto& op) { return sim::retnet_compile(op); },
            [](const auto& r, const auto& op, const auto& u) { return retnet_eval(r, op, u); });
      if (st->ops.size() == 1) sym->arch = std::make_shared<const ArchLayer>(ArchLayer{st->ops.front()});  // export --format operator
      attach_symbolic(st, std::move(sym));
      b.state = st;
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      auto st = std::static_pointer_cast<const RetNetState>(b.state);
      return sim::exact_model_vs_semantics(*b.model, sim::composed(st->ops, [](const auto& r, const RetNetOperator& op, const auto& u) { return retnet_eval(r, op, u); }),
                                           prim::domain_for(p, o, b));
    }});

}  // namespace
}  // namespace cz
