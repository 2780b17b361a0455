// sim/rwkv: RWKV-4 time mixing's WKV numerator and denominator (model/rwkv.h; exp(k) supplied as
// the input feature E, input [E | x], output [num | den]) compiled into an (N, 3, 2d, N, 2d)
// BaseConv (constructions/sim/rwkv_sim.h, ours [R]) and verified exactly against RWKV's own
// recurrence (a_{t+1} = λ·a_t + E_t·v_t, b_{t+1} = λ·b_t + E_t), over Q for the default rational
// μ, λ, β (rational = 0: integers, int64/Z).
// The ratio wkv = num/den is not simulated, and cannot be: every build evaluates the operator
// with its own weights (layer 0's) on 3 seeded lines u0 + x·u1 through input space (E entries
// positive along the line, x-token directions nonzero), at x = 1..D+2, and checks exactly, for each
// channel of the last row, that on some line the (D'+1)-th divided difference of num/den is
// nonzero for every D' ≤ D (-p ratio_degree): no polynomial of degree ≤ D agrees with the ratio
// even on those points, so no BaseConv of ≤ log2 D layers computes it (degree ≤ 2^L, spec §2.1 /
// row 5). (One line alone can be degenerate: den's root also num's.) The
// numerator on the same lines has degree ≤ 2 and the same check finds it (the check can fail).
// (Until 12-03 one fixed line, wkv = x/(x+1), whatever the weights; issue 35.) At N = 1 the ratio
// is v itself, a polynomial, and the check says so.
// Paper (row 16): (N, Õ(L), d, Õ(N'), Õ(d')), RWKV's WKV read as L = 1 (the gate E ⊙ v before
// the decay convolution), N' = N, d' = 2d (numerator and denominator channels).
#include "constructions/memory_estimate.h"
#include "constructions/primitives/support.h"
#include "constructions/sim/rational_check.h"
#include "constructions/sim/rwkv_sim.h"
#include "constructions/sim/stacked.h"

#include <random>
#include "verify/symbolic_reference.h"  // --method algebra (issue 37)

namespace cz {
namespace {

struct RwkvState {
  std::vector<RwkvOperator> ops;
};

// The ratio check on `lines` seeded lines through input space (see the header comment).
// The ratio (a function of u) is not a polynomial as soon as its restriction to one line is not;
// a single line can be degenerate (den's root a root of num there), so a channel counts as fitted
// only when a polynomial fits it on every line drawn.
struct LineCheck {
  std::size_t entries = 0, ratio_fits = 0, undefined = 0;  // entries: (line, channel) pairs checked; fits: channels
  std::optional<std::size_t> num_degree = 0;               // the largest numerator degree found (nullopt: none fits)
  std::string first_fit;                                   // the first entry whose ratio a polynomial fits
};

LineCheck ratio_on_lines(const RwkvOperator& op, std::uint64_t seed, std::size_t D, std::size_t lines) {
  std::mt19937_64 g(seed * 0x9e3779b97f4a7c15ULL + 0x4c696e65ULL);
  auto draw = [&](std::int64_t lo, std::int64_t hi) { return Rat(lo + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(hi - lo + 1))); };
  const std::size_t N = op.N, d = op.d;
  LineCheck out;
  std::vector<char> shown(op.d, 0);  // channel c: some line shows num/den is not a polynomial
  for (std::size_t l = 0; l < lines; ++l) {
    Matrix<Rat> u0(N, 2 * d), u1(N, 2 * d);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < 2 * d; ++j) {
        const bool E = j < d;  // E = exp(k) > 0 along the line for x >= 0
        u0(i, j) = E ? draw(1, 3) : draw(-3, 3);
        Rat v = E ? draw(1, 3) : draw(-3, 2);
        if (!E && v >= Rat(0)) v += Rat(1);  // nonzero direction in x
        u1(i, j) = v;
      }
    std::vector<Rat> xs;
    for (std::size_t i = 0; i < D + 4; ++i) xs.emplace_back(static_cast<std::int64_t>(i + 1));
    const std::vector<Matrix<Rat>> vals = rwkv_on_line(op, u0, u1, xs);
    for (std::size_t c = 0; c < d; ++c) {
      std::vector<Rat> px, ratio, num;
      for (std::size_t k = 0; k < xs.size() && px.size() < D + 2; ++k) {
        const Rat& den = vals[k](N - 1, d + c);
        if (den.is_zero()) continue;  // den is linear in x: at most one root unless it is 0
        px.push_back(xs[k]), ratio.push_back(vals[k](N - 1, c) / den), num.push_back(vals[k](N - 1, c));
      }
      if (px.size() < D + 2) {
        ++out.undefined;
        continue;
      }
      ++out.entries;
      if (!polynomial_fit_degree(px, ratio, D)) shown[c] = 1;
      const auto nf = polynomial_fit_degree(px, num, D);
      if (!nf) out.num_degree.reset();
      else if (out.num_degree) out.num_degree = std::max(*out.num_degree, *nf);
    }
  }
  for (std::size_t c = 0; c < op.d; ++c)
    if (!shown[c] && !out.ratio_fits++) out.first_fit = "row " + std::to_string(N - 1) + ", channel " + std::to_string(c);
  return out;
}

const bool registered = register_construction({
    "sim/rwkv", "rwkv", "RWKV-4 WKV numerator and denominator (exp(k) supplied) as an exact (N, 3, 2d, N, 2d) BaseConv",
    [] {
      auto p = prim::shape_params(4, 1);
      p.push_back(int_param("rational", 1, 0, 1, "1: RWKV-like rational μ, λ = e^-w, β = e^u; 0: integers in [-2, 2]"));
      p.push_back(int_param("wseed", 1, 0, 1 << 30, "seed of the operator's weights"));
      p.push_back(int_param("wrange", 2, 1, 1 << 20, "W_V drawn from [-wrange, wrange]"));
      p.push_back(int_param("ratio_degree", 64, 0, 512, "the ratio check: no polynomial of degree <= this agrees with num/den"));
      p.push_back(sim::stack_param());
      return p;
    }(),
    [](const Params& p) {
      const std::size_t N = p.u("N"), d = p.u("d"), D = p.u("ratio_degree"), S = p.u("stack");
      prim::require_build(p, "sim/rwkv", 3 * S, 2 * d);
      auto st = std::make_shared<RwkvState>();
      st->ops = sim::stacked_ops(p, [&](std::uint64_t seed) { return random_rwkv(N, d, seed, p.i("wrange"), p.i("rational") != 0); });
      Built b;
      b.model = sim::stacked_model(st->ops, [](const RwkvOperator& op) { return sim::rwkv_to_baseconv(op); });
      const std::string ours = "ours (constructions/sim/rwkv_sim.h [R])", paper = "Zoology H.2 via JRT §3.1 (row 16)";
      b.claims = prim::our_tuple(*b.model, static_cast<long long>(3 * S), static_cast<long long>(N), static_cast<long long>(2 * d), ours);
      b.claims.push_back(shape_claim("layers", "Õ(L), L = stack", static_cast<double>(S), paper, b.model->layers.size()));
      b.claims.push_back(shape_claim("inner_N", "Õ(N'), N' = N", static_cast<double>(N), paper, b.model->inner_N));
      b.claims.push_back(shape_claim("inner_d", "Õ(d'), d' = d (RWKV's channels)", static_cast<double>(d), paper, b.model->inner_d));
      // The ratio is not a polynomial (exact divided differences of the operator's own values on
      // lines drawn from its weights and seeded inputs).
      const LineCheck lc = ratio_on_lines(st->ops.front(), p.u("wseed"), D, 3);
      b.claims.push_back(our_claim("ratio_polynomial_fits", 0, "exact",
                                   ours + ": channels where a polynomial of degree <= " + std::to_string(D) + " fits num/den on every line",
                                   static_cast<long long>(lc.ratio_fits),
                                   "layer 0's own weights on 3 seeded lines u0 + x·u1 (E > 0), x = 1.." + std::to_string(D + 2) + ", last row, " +
                                       std::to_string(lc.entries) + " (line, channel) entries" + (lc.first_fit.empty() ? "" : "; fitted on every line: " + lc.first_fit)));
      const ParamCount pc = count_params(*b.model);
      b.metrics = {{"rwkv_params", S * rwkv_params(st->ops.front())},
                   {"baseconv_params_dense", pc.dense},
                   {"baseconv_params_nonzero", pc.nonzero},
                   {"rwkv_L", S},
                   {"rwkv_inner_d", d},
                   {"ratio_not_polynomial_up_to_degree", lc.ratio_fits || !lc.entries ? nlohmann::json(nullptr) : nlohmann::json(D)},
                   {"ratio_entries_checked", lc.entries},
                   {"ratio_entries_undefined", lc.undefined},
                   {"numerator_degree_on_line", lc.num_degree ? nlohmann::json(*lc.num_degree) : nlohmann::json(nullptr)},
                   {"ring", b.model->ring}};
      b.notes = {"input [E | x]: E = exp(k) is supplied as an input feature (exp is not a polynomial); output [num | den]",
                 "reference: RWKV's WKV recurrence a_{t+1} = λ·a_t + E_t·v_t, b_{t+1} = λ·b_t + E_t (model/rwkv.h), no convolution",
                 "not simulated: the division num/den (not a polynomial: claim ratio_polynomial_fits), σ(r) and W_O after it",
                 std::string("weights: ") + (p.i("rational") ? "rational μ, λ, β (the model is over Q and is checked over Q)" : "integers (a Z model)")};
      // --method algebra (issue 37): the same reference, runnable on symbols (verify/symbolic_reference.h).
      auto sym = make_symbolic_reference(sim::composed(st->ops, [](const auto& r, const RwkvOperator& op, const auto& u) { return rwkv_eval(r, op, u); }), "RWKV's WKV recurrence (model/rwkv.h rwkv_eval)");
      if (st->ops.size() == 1)  // --algebra-symbols weights: the same compiler on symbolic weights
        sym->weights = make_weight_symbolic(
            st->ops.front(), N, 2 * d, "rwkv", "μ, W_V, the decays λ (λ^(t−1) as polynomials) and the bonuses β per channel; 1 − μ as a polynomial",
            [](const auto& op) { return sim::rwkv_compile(op); },
            [](const auto& r, const auto& op, const auto& u) { return rwkv_eval(r, op, u); });
      if (st->ops.size() == 1) sym->arch = std::make_shared<const ArchLayer>(ArchLayer{st->ops.front()});  // export --format operator
      attach_symbolic(st, std::move(sym));
      b.state = st;
      return b;
    },
    [](const Params& p, const Built& b, const DomainOptions& o) {
      auto st = std::static_pointer_cast<const RwkvState>(b.state);
      const std::uint64_t w = count_params(*b.model).dense;
      est::require_model_check("the model", w, b.model->inner_N, b.model->inner_d, o.threads, sat_mul(w, est::kBuildBytesPerWeight / 2),
                               est::where_of(p, {"N", "d"}));
      return sim::exact_model_vs_semantics(*b.model, sim::composed(st->ops, [](const auto& r, const RwkvOperator& op, const auto& u) { return rwkv_eval(r, op, u); }),
                                           make_matrix_domain(p.u("N"), 2 * p.u("d"), o, p.i("range")));
    }});

}  // namespace
}  // namespace cz
