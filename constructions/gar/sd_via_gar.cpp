// sd/via-gar: JRT Prop G.25, SD solved by any GAR solver (keys = A with a non-Null value,
// queries = B). Solvers: the plain GAR reference (a map lookup), or gar/via-sd (Prop G.26 with
// JRT Alg. 3 as the SD oracle), which closes the loop SD -> GAR -> SD calls.
#include "constructions/gar/via_sd.h"
#include "constructions/gar/via_sd_block.h"
#include "constructions/sd/domain.h"

namespace cz::garc {
namespace {

const bool registered = register_construction({
    "sd/via-gar", "sd", "JRT Prop G.25: SD through a GAR solver (map lookup, or GAR via Alg. 3 SD calls)",
    [] {
      auto p = sdc::sd_domain_params(2, "subsets");
      p.push_back(choice_param("solver", "reference", {"reference", "via-sd"},
                               "GAR solver: the map-lookup reference, or gar/via-sd with the Alg. 3 oracle"));
      return p;
    }(),
    [](const Params& p) {
      Built b;
      b.notes.push_back("GAR instance: keys = A with value 0 (a non-Null token), queries = B, c = 2^n; A and B intersect "
                        "iff some query is answered (and the answered queries are A ∩ B)");
      b.claims.push_back(paper_claim("gar_calls", "1", 1, "exact", "JRT Prop G.25", 1));
      (void)p;
      return b;
    },
    [](const Params& p, const Built&, const DomainOptions& o) {
      const unsigned n = static_cast<unsigned>(p.u("n"));
      const bool via_sd = p.s("solver") != "reference";
      auto solver_with = [](const SdOracle& oracle) -> GarSolver {
        if (!oracle) return [](const gar::Instance& g) { return gar::solve(g); };
        return [oracle](const gar::Instance& g) { return gar_via_sd(g, oracle).answers; };
      };
      const GarSolver solver = solver_with(via_sd ? recurrent_oracle(n) : SdOracle{});
      auto fails = [](const GarSolver& s, const sd::Instance& x, SdViaGar& got, std::vector<std::uint32_t>& want) {
        got = sd_via_gar(x, s);
        want = sd::intersection(x);
        return !(got.common == want && got.intersects == !want.empty());
      };
      Check c = sdc::instance_check(sdc::make_sd_domain(p, o), [solver, fails](const sd::Instance& x) -> std::optional<Failure> {
        SdViaGar got;
        std::vector<std::uint32_t> want;
        if (!fails(solver, x, got, want)) return std::nullopt;
        Failure f;
        f.input = sd::to_json(x);
        f.expected = {{"intersects", !want.empty()}, {"common", want}};
        f.got = {{"intersects", got.intersects}, {"common", got.common}};
        f.message = "SD through GAR disagrees with the reference";
        return f;
      }, [via_sd, n, solver_with, fails]() -> sdc::SdFails {
        // Block path: verdicts only (no Failure built); with solver=via-sd, the Alg. 3 oracle is
        // memoised per thread on its calls (the GAR instances of an SD domain repeat them).
        GarSolver s = solver_with(via_sd ? memoised(recurrent_oracle(n)) : SdOracle{});
        return [s, fails](const sd::Instance& x) {
          SdViaGar got;
          std::vector<std::uint32_t> want;
          return fails(s, x, got, want);
        };
      });
      c.block_kind = via_sd ? "verdicts only, per-thread memo of the Alg. 3 SD oracle" : "verdicts only (map-lookup GAR solver)";
      return c;
    }});

}  // namespace
}  // namespace cz::garc
