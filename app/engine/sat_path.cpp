#include "app/engine/sat_path.h"

#include "app/engine/sat_data.h"
#include "app/engine/sat_model_path.h"
#include "app/engine/sat_problem.h"
#include "app/engine/sat_reductions.h"
#include "app/engine/sat_sd.h"
#include "app/engine/sat_stages.h"
#include "util/error.h"

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

bool sat_covers(const Construction& c, const Params& p, const Built& bt) {
  if (sat_model_covers(c, p, bt)) return true;
  if (sat_reduction_covers(c, p)) return true;  // eq/via-mqar, gar/via-sd (sat_reductions.h)
  if (c.name == "mqar/autocorrelation") return p.s("layout") == "triples";  // sat_data.h
  if (c.name == "sd/based-jrt") return sat_based_covers(p);
  return c.name == "sd/recurrent-jrt" || c.name == "sd/via-gar" || c.name == "mqar/dyadic" || c.name == "circuit/compare" || c.name == "circuit/sort";
}

SatOutcome run_verify_sat(const Construction& c, const std::map<std::string, std::string>& given, const SatOptions& o) {
  const Params p = Params::parse(c.params, given);
  const Built bt = c.build(p);
  if (sat_model_covers(c, p, bt)) return run_model_sat(c, p, bt, o);  // integer models (sat_model_path.h)
  if (c.name == "eq/via-mqar" || c.name == "gar/via-sd") return run_reduction_sat(c, p, bt, o);  // compositions (sat_reductions.h)
  // sd/recurrent-jrt, sd/via-gar: the program (the reduction's calls) unrolled per prompt length (sat_sd.h).
  if (c.name == "sd/recurrent-jrt" || c.name == "sd/via-gar") {
    SatOutcome out = c.name == "sd/via-gar" ? run_sd_via_gar_sat(p, bt, o, sat_head_of(c.name, p, bt))
                                            : run_sd_sat(p, bt, o, sat_head_of(c.name, p, bt));
    out.claims = bt.claims;
    return out;
  }
  // mqar/autocorrelation, sd/based-jrt: instance → kernels → model → answer as one circuit (sat_data.h).
  if (c.name == "mqar/autocorrelation" || c.name == "sd/based-jrt") {
    SatOutcome out = c.name == "sd/based-jrt" ? run_based_sat(p, bt, o, sat_head_of(c.name, p, bt))
                                              : run_autocorr_sat(p, bt, o, sat_head_of(c.name, p, bt));
    out.claims = bt.claims;
    return out;
  }
  SatProblem pr;
  if (c.name == "mqar/dyadic") pr = sat_dyadic_problem(p, bt);
  else if (c.name == "circuit/compare") pr = sat_compare_problem(c, p, bt);
  else if (c.name == "circuit/sort") pr = sat_sort_problem(c, p, bt);  // by stages below (sat_stages.h)
  else throw InputError(c.name + " is not provable by --method sat: " + not_provable_why(c, bt), "--method sat");
  pr.notes = bt.notes;
  SatOutcome out = c.name == "circuit/sort"  ? run_sort_sat(p, pr, o, sat_head_of(c.name, p, bt))
                   : c.name == "mqar/dyadic" ? run_dyadic_sat(p, pr, o, sat_head_of(c.name, p, bt))
                                             : solve_sat_problem(pr, o, sat_head_of(c.name, p, bt));
  out.claims = bt.claims;
  return out;
}

}  // namespace cz
