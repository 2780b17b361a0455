// sd/via-gar: JRT Prop G.25, SD solved by any GAR solver (keys = A with a non-Null value,
// queries = B). Solvers: the plain GAR reference (a map lookup), or gar/via-sd (Prop G.26 with
// JRT Alg. 3 as the SD oracle), which closes the loop SD -> GAR -> SD calls.
#include "constructions/gar/via_sd.h"
#include "constructions/gar/via_sd_block.h"
#include "constructions/sd/domain.h"
#include "util/error.h"
#include "verify/parts.h"

namespace cz::garc {

GarSolver gar_solver_via(const SdOracle& oracle) {
  if (!oracle) return [](const gar::Instance& g) { return gar::solve(g); };
  return [oracle](const gar::Instance& g) { return gar_via_sd(g, oracle).answers; };
}

std::optional<Failure> sd_via_gar_failure(const GarSolver& solver, const sd::Instance& x) {
  const SdViaGar got = sd_via_gar(x, solver);
  const std::vector<std::uint32_t> want = sd::intersection(x);
  if (got.common == want && got.intersects == !want.empty()) return std::nullopt;
  Failure f;
  f.input = sd::to_json(x);
  f.expected = {{"intersects", !want.empty()}, {"common", want}};
  f.got = {{"intersects", got.intersects}, {"common", got.common}};
  f.message = "SD through GAR disagrees with the reference";
  return f;
}

namespace {

// --method sat: the proof routes this artifact takes (app/engine/sat/sat_routes.h).
const bool routes_registered = register_routes("sd/via-gar", {"sat:sd-via-gar"});
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
      const GarSolver solver = gar_solver_via(via_sd ? recurrent_oracle(n) : SdOracle{});
      Check c = sdc::instance_check(sdc::make_sd_domain(p, o), [solver](const sd::Instance& x) -> std::optional<Failure> {
        return sd_via_gar_failure(solver, x);
      }, [via_sd, n]() -> sdc::SdFails {
        // Block path: verdicts only (no Failure built); with solver=via-sd, the Alg. 3 oracle is
        // memoised per thread on its calls (the GAR instances of an SD domain repeat them).
        GarSolver s = gar_solver_via(via_sd ? memoised(recurrent_oracle(n)) : SdOracle{});
        return [s](const sd::Instance& x) {
          const SdViaGar got = sd_via_gar(x, s);
          const std::vector<std::uint32_t> want = sd::intersection(x);
          return !(got.common == want && got.intersects == !want.empty());
        };
      });
      c.block_kind = via_sd ? "verdicts only, per-thread memo of the Alg. 3 SD oracle" : "verdicts only (map-lookup GAR solver)";
      return c;
    }});

// `export sd/via-gar --format reduction [-p instance=k]` (verify/parts.h): the map of Prop G.25,
// the GAR solver the call goes to, and instance k traced.
const bool reduction_registered = register_reduction("sd/via-gar", [](const Params& p, std::uint64_t k) {
  const unsigned n = static_cast<unsigned>(p.u("n"));
  const sdc::SdDomain dom = sdc::make_sd_domain(p, DomainOptions{});
  if (k >= dom.count)
    throw InputError("instance " + std::to_string(k) + " is outside the default domain (" + std::to_string(dom.count) +
                         " instances)", "-p instance");
  const sd::Instance x = dom.instance(k);
  const bool via_sd = p.s("solver") != "reference";
  const SdOracle oracle = via_sd ? recurrent_oracle(n) : SdOracle{};
  nlohmann::json call, answers = nlohmann::json::array();
  const GarSolver traced = [&](const gar::Instance& g) {
    auto a = oracle ? gar_via_sd(g, oracle).answers : gar::solve(g);
    call = gar::to_json(g);
    for (const auto& y : a) answers.push_back(y ? nlohmann::json(*y) : nlohmann::json(nullptr));
    return a;
  };
  const SdViaGar got = sd_via_gar(x, traced);
  nlohmann::json part = {{"role", "GAR solver: one answer per query (Null when no key matches)"}};
  if (via_sd) {
    part["construction"] = "gar/via-sd";
    part["params"] = {{"c", std::uint64_t{1} << n}, {"oracle", "recurrent"}};
    part["export"] = "circuitzoo export gar/via-sd -p c=" + std::to_string(std::uint64_t{1} << n) +
                     " -p nk=|A| -p m=|B| --format reduction -o gar.json";
  } else {
    part["construction"] = nullptr;
    part["solver"] = "the plain reference (map lookup)";
  }
  const auto want = sd::intersection(x);
  return nlohmann::json{
      {"format", "circuitzoo.reduction/1"},
      {"construction", "sd/via-gar"},
      {"params", p.to_json()},
      {"reduction", "SD -> GAR"},
      {"source", "JRT Prop G.25"},
      {"map",
       {{"calls", 1},
        {"call", "one GAR instance: c = 2^n, keys = A in prompt order, every value 0 (a non-Null token), queries = B"},
        {"decode", "A ∩ B = the queries that are answered (not Null); A and B intersect iff some query is answered"}}},
      {"parts", nlohmann::json::array({part})},
      {"instance",
       {{"index", k}, {"sd", sd::to_json(x)}, {"call", call}, {"answered", answers},
        {"got", {{"intersects", got.intersects}, {"common", got.common}}},
        {"reference", {{"intersects", !want.empty()}, {"common", want}}}}}};
});

}  // namespace
}  // namespace cz::garc
