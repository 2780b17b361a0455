#include "app/engine/sat/sat_path.h"

#include "app/engine/sat/sat_data.h"
#include "app/engine/sat/sat_model_path.h"
#include "app/engine/sat/sat_problem.h"
#include "app/engine/sat/sat_reductions.h"
#include "app/engine/sat/sat_routes.h"
#include "app/engine/sat/sat_sd.h"
#include "app/engine/sat/sat_stages.h"
#include "util/error.h"

#include <stdexcept>

namespace cz {

namespace {

std::string not_provable_why(const Construction& c, const Built& bt) {
  if (bt.model)
    return "its artifact is an integer model of task " + c.task + ", which has no integer reference checker yet (" +
           kSatModelCovers + ")";
  if (!bt.circuit_ir) return "it has no circuit artifact";
  if (!bt.circuit_ir->all_outputs_bit() || !bt.circuit_ir->all_inputs_bit())
    return "its artifact is a circuit with Field wires and no integer model; --method sat bit-blasts integer models (" +
           std::string(kSatModelCovers) + ")";
  return "no reference checker for task " + c.task + " yet (covered: mqar triples, compare, sort)";
}

}  // namespace

namespace {

// By artifact kind and task alone (no route registered): an all-Bit circuit of task compare against
// the task's reference checker (circuits/reference/compare_ref.h).
bool generic_covers(const Construction& c, const Built& bt) {
  return c.task == "compare" && !bt.model && bt.circuit_ir && bt.circuit_ir->all_outputs_bit() && bt.circuit_ir->all_inputs_bit();
}

}  // namespace

bool sat_covers(const Construction& c, const Params& p, const Built& bt) {
  for (const std::string& id : routes_of(c.name))
    if (const SatRoute* r = find_sat_route(id); r && r->covers(c, p, bt)) return true;  // (non-sat: ids are others' routes)
  return generic_covers(c, bt);
}

SatOutcome run_verify_sat(const Construction& c, const std::map<std::string, std::string>& given, const SatOptions& o) {
  const Params p = Params::parse(c.params, given);
  const Built bt = c.build(p);
  // The construction's own routes first (sat_routes.h), in the order it registered them.
  const SatRoute* first = nullptr;
  for (const std::string& id : routes_of(c.name)) {
    if (id.rfind("sat:", 0) != 0) continue;  // another method's route (e.g. algebra:...)
    const SatRoute* r = find_sat_route(id);
    if (!r) throw std::logic_error(c.name + " registers an unknown proof route " + id);
    if (r->covers(c, p, bt)) return r->run(c, p, bt, o);
    if (!first) first = r;
  }
  if (generic_covers(c, bt)) {
    SatProblem pr = sat_compare_problem(c, p, bt);
    pr.notes = bt.notes;
    SatOutcome out = solve_sat_problem(pr, o, sat_head_of(c.name, p, bt));
    out.claims = bt.claims;
    return out;
  }
  // A route that does not take these parameters says why itself (e.g. eq/via-mqar's solver=reference).
  if (first) return first->run(c, p, bt, o);
  throw InputError(c.name + " is not provable by --method sat: " + not_provable_why(c, bt), "--method sat");
}

}  // namespace cz
