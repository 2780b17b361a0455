// sim/rwkv: RWKV-4 time mixing's WKV numerator and denominator (model/rwkv.h; exp(k) supplied as
// the input feature E, input [E | x], output [num | den]) compiled into an (N, 3, 2d, N, 2d)
// BaseConv (constructions/sim/rwkv_sim.h, ours [R]) and verified exactly against RWKV's own
// recurrence (a_{t+1} = λ·a_t + E_t·v_t, b_{t+1} = λ·b_t + E_t), over Q for the default rational
// μ, λ, β (rational = 0: integers, int64/Z).
// The ratio wkv = num/den is not simulated, and cannot be: every build evaluates the operator on
// the line E = (x, 1), x-tokens (1, 0), where wkv = x/(x+1), at x = 1..D+2, and checks exactly that
// the (D'+1)-th divided difference is nonzero for every D' ≤ D (-p ratio_degree): no polynomial
// of degree ≤ D agrees with the ratio even on those points, so no BaseConv of ≤ log2 D layers
// computes it (degree ≤ 2^L, spec §2.1 / row 5). The numerator on the same line is x, degree 1:
// the same check finds it (the check can fail). For all degrees: p(x)(x+1) = x on infinitely many
// x > 0 would make it a polynomial identity, false at x = −1 (spec §14.3 [R]).
// Paper (row 16): (N, Õ(L), d, Õ(N'), Õ(d')), RWKV's WKV read as L = 1 (the gate E ⊙ v before
// the decay convolution), N' = N, d' = 2d (numerator and denominator channels).
#include "constructions/memory_estimate.h"
#include "constructions/primitives/support.h"
#include "constructions/sim/rational_check.h"
#include "constructions/sim/rwkv_sim.h"
#include "verify/symbolic_reference.h"  // --method algebra (issue 37)

namespace cz {
namespace {

struct RwkvState {
  RwkvOperator op;
};

const bool registered = register_construction({
    "sim/rwkv", "rwkv", "RWKV-4 WKV numerator and denominator (exp(k) supplied) as an exact (N, 3, 2d, N, 2d) BaseConv",
    [] {
      auto p = prim::shape_params(4, 1);
      p.push_back(int_param("rational", 1, 0, 1, "1: RWKV-like rational μ, λ = e^-w, β = e^u; 0: integers in [-2, 2]"));
      p.push_back(int_param("wseed", 1, 0, 1 << 30, "seed of the operator's weights"));
      p.push_back(int_param("wrange", 2, 1, 1 << 20, "W_V drawn from [-wrange, wrange]"));
      p.push_back(int_param("ratio_degree", 64, 0, 512, "the ratio check: no polynomial of degree <= this agrees with num/den"));
      return p;
    }(),
    [](const Params& p) {
      const std::size_t N = p.u("N"), d = p.u("d"), D = p.u("ratio_degree");
      prim::require_build(p, "sim/rwkv", 3, 2 * d);
      auto st = std::make_shared<RwkvState>();
      st->op = random_rwkv(N, d, p.u("wseed"), p.i("wrange"), p.i("rational") != 0);
      Built b;
      b.model = sim::rwkv_to_baseconv(st->op);
      const std::string ours = "ours (constructions/sim/rwkv_sim.h [R])", paper = "Zoology H.2 via JRT §3.1 (row 16)";
      b.claims = prim::our_tuple(*b.model, 3, static_cast<long long>(N), static_cast<long long>(2 * d), ours);
      b.claims.push_back(shape_claim("layers", "Õ(L), L = 1", 1.0, paper, b.model->layers.size()));
      b.claims.push_back(shape_claim("inner_N", "Õ(N'), N' = N", static_cast<double>(N), paper, b.model->inner_N));
      b.claims.push_back(shape_claim("inner_d", "Õ(d'), d' = 2d", static_cast<double>(2 * d), paper, b.model->inner_d));
      // The ratio is not a polynomial (exact divided differences of the operator's own values).
      std::vector<Rat> xs;
      for (std::size_t i = 0; i < D + 2; ++i) xs.emplace_back(static_cast<std::int64_t>(i + 1));
      const auto nd = rwkv_line_values(st->op.decay[0], xs);
      std::vector<Rat> ratio, num;
      for (const auto& [n, q] : nd) ratio.push_back(n / q), num.push_back(n);
      const auto ratio_fit = polynomial_fit_degree(xs, ratio, D);
      const auto num_fit = polynomial_fit_degree(xs, num, D);
      b.claims.push_back(our_claim("ratio_polynomial_fits", 0, "exact", ours + ": degrees <= " + std::to_string(D) + " whose polynomial fits num/den",
                                   ratio_fit ? 1 : 0,
                                   "on E = (x, 1), x-tokens (1, 0), x = 1.." + std::to_string(D + 2) + ": num/den = x/(x+1)"));
      const ParamCount pc = count_params(*b.model);
      b.metrics = {{"rwkv_params", rwkv_params(st->op)},
                   {"baseconv_params_dense", pc.dense},
                   {"baseconv_params_nonzero", pc.nonzero},
                   {"rwkv_L", 1},
                   {"ratio_not_polynomial_up_to_degree", ratio_fit ? nlohmann::json(nullptr) : nlohmann::json(D)},
                   {"numerator_degree_on_line", num_fit ? nlohmann::json(*num_fit) : nlohmann::json(nullptr)},
                   {"ring", b.model->ring}};
      b.notes = {"input [E | x]: E = exp(k) is supplied as an input feature (exp is not a polynomial); output [num | den]",
                 "reference: RWKV's WKV recurrence a_{t+1} = λ·a_t + E_t·v_t, b_{t+1} = λ·b_t + E_t (model/rwkv.h), no convolution",
                 "not simulated: the division num/den (not a polynomial: claim ratio_polynomial_fits), σ(r) and W_O after it",
                 std::string("weights: ") + (p.i("rational") ? "rational μ, λ, β (the model is over Q and is checked over Q)" : "integers (a Z model)")};
      // --method algebra (issue 37): the same reference, runnable on symbols (verify/symbolic_reference.h).
      auto sym = make_symbolic_reference([st](const auto& r, const auto& u) { return rwkv_eval(r, st->op, u); }, "RWKV's WKV recurrence (model/rwkv.h rwkv_eval)");
      attach_symbolic(st, std::move(sym));
      b.state = st;
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      auto st = std::static_pointer_cast<const RwkvState>(b.state);
      const std::uint64_t w = count_params(*b.model).dense;
      est::require_model_check("the model", w, b.model->inner_N, b.model->inner_d, o.threads, sat_mul(w, est::kBuildBytesPerWeight / 2),
                               est::where_of(p, {"N", "d"}));
      return sim::exact_model_vs_semantics(*b.model, [st](const auto& r, const auto& u) { return rwkv_eval(r, st->op, u); },
                                           make_matrix_domain(p.u("N"), 2 * p.u("d"), o, p.i("range")));
    }});

}  // namespace
}  // namespace cz
