// sd/via-gar: JRT Prop G.25, SD solved by any GAR solver (keys = A with a non-Null value,
// queries = B). Solvers: the plain GAR reference (a map lookup), or gar/via-sd (Prop G.26 with
// JRT Alg. 3 as the SD oracle), which closes the loop SD -> GAR -> SD calls.
#include "constructions/gar/via_sd.h"
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
      GarSolver solver;
      if (p.s("solver") == "reference") {
        solver = [](const gar::Instance& g) { return gar::solve(g); };
      } else {
        SdOracle oracle = recurrent_oracle(n);
        solver = [oracle](const gar::Instance& g) { return gar_via_sd(g, oracle).answers; };
      }
      return sdc::instance_check(sdc::make_sd_domain(p, o), [solver](const sd::Instance& x) -> std::optional<Failure> {
        SdViaGar got = sd_via_gar(x, solver);
        const auto want = sd::intersection(x);
        if (got.common == want && got.intersects == !want.empty()) return std::nullopt;
        Failure f;
        f.input = sd::to_json(x);
        f.expected = {{"intersects", !want.empty()}, {"common", want}};
        f.got = {{"intersects", got.intersects}, {"common", got.common}};
        f.message = "SD through GAR disagrees with the reference";
        return f;
      });
    }});

}  // namespace
}  // namespace cz::garc
