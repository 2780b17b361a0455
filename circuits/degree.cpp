// Exact total degree via FLINT fmpq_mpoly (the only FLINT user in circuits/ besides batched Fp).
#include <flint/fmpq_mpoly.h>

#include <memory>
#include <optional>

#include "circuits/stats.h"

namespace cz::circuits {

namespace {
constexpr std::size_t kMaxVars = 40, kMaxGates = 20000;
constexpr slong kMaxTerms = 50000;

void set_fmpq(fmpq_t r, const Rat& q) {
  fmpz_set_str(fmpq_numref(r), q.num().str().c_str(), 10);
  fmpz_set_str(fmpq_denref(r), q.den().str().c_str(), 10);
}
}  // namespace

std::optional<long long> exact_degree(const Circuit& c, const std::vector<std::uint8_t>& live, std::string& why) {
  std::size_t live_inputs = 0, live_ops = 0;
  for (GateId i = 0; i < c.size(); ++i) {
    if (!live[i]) continue;
    if (c.gate(i).op == Op::Input) ++live_inputs;
    else ++live_ops;
  }
  if (live_inputs > kMaxVars) {
    why = "more than " + std::to_string(kMaxVars) + " live inputs";
    return std::nullopt;
  }
  if (live_ops > kMaxGates) {
    why = "more than " + std::to_string(kMaxGates) + " live gates";
    return std::nullopt;
  }
  fmpq_mpoly_ctx_t ctx;
  fmpq_mpoly_ctx_init(ctx, static_cast<slong>(std::max<std::size_t>(live_inputs, 1)), ORD_DEGLEX);
  const std::size_t n = c.size();
  std::vector<fmpq_mpoly_struct> poly(n);
  std::vector<std::uint8_t> init(n, 0);
  slong var = 0;
  std::optional<long long> result;
  bool ok = true;
  fmpq_t q;
  fmpq_init(q);
  for (GateId i = 0; i < n && ok; ++i) {
    if (!live[i]) continue;
    const Gate& g = c.gate(i);
    fmpq_mpoly_init(&poly[i], ctx);
    init[i] = 1;
    switch (g.op) {
      case Op::Input: fmpq_mpoly_gen(&poly[i], var++, ctx); break;
      case Op::Const:
        set_fmpq(q, c.constant(g.a));
        fmpq_mpoly_set_fmpq(&poly[i], q, ctx);
        break;
      case Op::Add: fmpq_mpoly_add(&poly[i], &poly[g.a], &poly[g.b], ctx); break;
      case Op::Mul:
        // Bound the work before multiplying: the product has at most len(a)·len(b) terms.
        if (fmpq_mpoly_length(&poly[g.a], ctx) * fmpq_mpoly_length(&poly[g.b], ctx) > 4 * kMaxTerms) {
          why = "a product would exceed " + std::to_string(4 * kMaxTerms) + " term pairs";
          ok = false;
          break;
        }
        fmpq_mpoly_mul(&poly[i], &poly[g.a], &poly[g.b], ctx);
        break;
    }
    if (ok && fmpq_mpoly_length(&poly[i], ctx) > kMaxTerms) {
      why = "a polynomial has more than " + std::to_string(kMaxTerms) + " terms";
      ok = false;
    }
  }
  if (ok) {
    long long best = -1;
    for (const auto& o : c.outputs()) {
      if (fmpq_mpoly_is_zero(&poly[o.gate], ctx)) continue;
      best = std::max<long long>(best, fmpq_mpoly_total_degree_si(&poly[o.gate], ctx));
    }
    result = best;
  }
  fmpq_clear(q);
  for (GateId i = 0; i < n; ++i)
    if (init[i]) fmpq_mpoly_clear(&poly[i], ctx);
  fmpq_mpoly_ctx_clear(ctx);
  return result;
}

}  // namespace cz::circuits
