#include "app/engine/sat/sat_routes.h"

#include "app/engine/sat/sat_data.h"
#include "app/engine/sat/sat_model_path.h"
#include "app/engine/sat/sat_problem.h"
#include "app/engine/sat/sat_reductions.h"
#include "app/engine/sat/sat_sd.h"
#include "app/engine/sat/sat_stages.h"

namespace cz {

namespace {

using Run = std::function<SatOutcome(const Params&, const Built&, const SatOptions&, nlohmann::json)>;

// A route whose run takes the report's head and leaves the claims to add.
std::function<SatOutcome(const Construction&, const Params&, const Built&, const SatOptions&)> headed(Run run) {
  return [run](const Construction& c, const Params& p, const Built& bt, const SatOptions& o) {
    SatOutcome out = run(p, bt, o, sat_head_of(c.name, p, bt));
    out.claims = bt.claims;
    return out;
  };
}

bool always(const Construction&, const Params&, const Built&) { return true; }

bool all_bit_circuit(const Built& bt) { return !bt.model && bt.circuit_ir && bt.circuit_ir->all_outputs_bit() && bt.circuit_ir->all_inputs_bit(); }

const std::vector<SatRoute>& routes() {
  static const std::vector<SatRoute> all = {
      {"sat:model", sat_model_covers, run_model_sat},
      {"sat:to-model", [](const Construction&, const Params&, const Built& bt) { return bt.model.has_value(); }, run_to_model_sat},
      {"sat:dyadic-stages", [](const Construction&, const Params&, const Built& bt) { return all_bit_circuit(bt); },
       [](const Construction& c, const Params& p, const Built& bt, const SatOptions& o) {
         SatProblem pr = sat_dyadic_problem(p, bt);
         pr.notes = bt.notes;
         SatOutcome out = run_dyadic_sat(p, pr, o, sat_head_of(c.name, p, bt));
         out.claims = bt.claims;
         return out;
       }},
      {"sat:sort-stages", [](const Construction&, const Params&, const Built& bt) { return all_bit_circuit(bt); },
       [](const Construction& c, const Params& p, const Built& bt, const SatOptions& o) {
         SatProblem pr = sat_sort_problem(c, p, bt);
         pr.notes = bt.notes;
         SatOutcome out = run_sort_sat(p, pr, o, sat_head_of(c.name, p, bt));
         out.claims = bt.claims;
         return out;
       }},
      {"sat:sd-program", always, headed(run_sd_sat)},
      {"sat:sd-via-gar", always, headed(run_sd_via_gar_sat)},
      {"sat:autocorrelation-circuit", [](const Construction&, const Params& p, const Built&) { return p.s("layout") == "triples"; },
       headed(run_autocorr_sat)},
      {"sat:based-circuit", [](const Construction&, const Params& p, const Built&) { return sat_based_covers(p); }, headed(run_based_sat)},
      {"sat:eq-via-mqar", [](const Construction&, const Params& p, const Built&) { return sat_eq_via_mqar_covers(p); }, run_eq_via_mqar_sat},
      {"sat:gar-via-sd", [](const Construction&, const Params& p, const Built&) { return sat_gar_via_sd_covers(p); }, run_gar_via_sd_sat},
  };
  return all;
}

}  // namespace

const SatRoute* find_sat_route(const std::string& id) {
  for (const auto& r : routes())
    if (r.id == id) return &r;
  return nullptr;
}

std::vector<std::string> sat_route_ids() {
  std::vector<std::string> ids;
  for (const auto& r : routes()) ids.push_back(r.id);
  return ids;
}

}  // namespace cz
