// --method sat on mqar/dyadic's circuit (queries=sorted) by stages (constructions/mqar/
// dyadic_stages.h): the circuit is rebuilt with its trace (the same gates: the trace names cut
// points and is checked, not trusted); anything the stages do not prove goes to the monolithic
// miter (solve_sat_problem), which gives the verdict and any counterexample.
#include <chrono>
#include <map>
#include <optional>

#include "app/engine/sat/sat_progress.h"
#include "app/engine/sat/sat_schedule.h"

#include "app/engine/sat/sat_stages.h"
#include "constructions/mqar/dyadic_stages.h"
#include "util/error.h"
#include "verify/construction.h"
#include "util/progress.h"
#include "util/threads.h"

namespace cz {

namespace {

nlohmann::json dyadic_stages_json(const mqarc::DyStageResult& r) {
  return {{"leaf_words", r.leaf_words},     {"route_steps", r.route_steps},   {"mergers", r.mergers},
          {"unroute_steps", r.unroute_steps}, {"or_words", r.or_words},       {"blocks", r.blocks},
          {"miters", r.miters},               {"confirmed", r.confirmed},     {"structure_seconds", r.structure_s},
          {"local_seconds", r.local_s},       {"block_seconds", r.block_s},   {"max_block_seconds", r.max_block_s},
          {"pbs_blocks", r.pbs_blocks},       {"pbs_miters", r.pbs_obligations}};
}

}  // namespace

SatOutcome run_dyadic_sat(const Params& p, SatProblem& pr, const SatOptions& o, const nlohmann::json& head,
                          const circuits::Circuit* staged) {
  const bool sorted_queries = p.s("queries") == "sorted";
  if (o.strategy == "stages" && !sorted_queries)
    throw InputError("--sat-strategy stages proves the query-sorting circuit (queries=sorted); queries=each is proved by its "
                     "per-query miters (--sat-strategy monolithic or auto)",
                     "--sat-strategy");
  if (!sorted_queries || sat_strategy_checked(o) == "monolithic") {
    SatOutcome out = solve_sat_problem(pr, o, head);
    out.report["sat"]["strategy"] = "monolithic";
    return out;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto cadical = circuits::sat::find_solver("cadical");
  if (!cadical) throw InputError("--method sat needs the CaDiCaL solver on PATH (Debian: apt-get install cadical)", "--method sat");
  const mqarc::DyadicConfig cfg = mqarc::dyadic_config(p);
  mqarc::DyadicTrace trace;
  (void)mqarc::build_dyadic(cfg, &trace);  // the same build as the artifact's, traced
  mqarc::DyStageOptions so;
  so.timeout_s = o.timeout_s;
  so.threads = resolve_threads(o.threads);
  if (WorkWatch* w = current_watch()) so.cancel = &w->cancelled;
  so.second = sat_second_solver(o);
  so.pbs_call_block = o.blocks == "calls" ? 4 : 0;  // blocks of 4+ queries; --sat-blocks (dyadic_pbs_stages.h)
  so.pbs_across = o.pbs_facts == "across";
  so.runner = sat_batch_runner(o);  // ranks, cubes, shards (issue 38); empty: here
  if (so.runner) so.threads = sat_rank_threads(o);
  std::optional<SatProgress> prog;  // stderr, on a terminal only (sat_progress.h)
  so.on_built = [&](std::size_t total) {
    prog.emplace(o.progress, total);
    prog->phase("solving the stages");
  };
  so.on_start = [&](std::size_t k, const std::string& what) { prog->started(k, what); };
  so.on_done = [&](std::size_t k) { prog->finished(k); };
  const mqarc::DyStageResult r = mqarc::prove_dyadic_stages(staged ? *staged : *pr.artifact, trace, cfg, *cadical, so);
  prog.reset();
  if (so.cancel && so.cancel->load()) throw Cancelled();
  using St = mqarc::DyStageResult::Status;
  if (r.status == St::Proved || r.status == St::Undecided)
    return sat_stages_outcome(pr, head, r.status == St::Proved ? "proved" : "undecided", so.second, "dyadic stages", r.miters,
                              r.miters,
                              {{"vars", r.vars}, {"clauses", r.clauses}, {"max_vars", r.max_vars}, {"max_clauses", r.max_clauses}},
                              dyadic_stages_json(r), r.why,
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                              {{"encode_seconds", r.structure_s}, {"solve_seconds", r.local_s + r.block_s}});
  // Not recognised, or a stage miter that is SAT (its cut values need not be reachable): the
  // monolithic miter decides, and finds the whole circuit's counterexample if there is one.
  return sat_stages_fallback(pr, o, head, r.why, dyadic_stages_json(r),
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

std::optional<SatOutcome> run_task_sat_as_dyadic(const mqar::Codec& codec, std::size_t n, SatProblem& pr, SatOptions& o,
                                                 const nlohmann::json& head) {
  if (sat_strategy_for(o) == "monolithic") return std::nullopt;
  std::map<std::string, std::string> given{{"n", std::to_string(n)}, {"c", std::to_string(codec.c)},
                                           {"encoding", mqar::to_string(codec.enc)}};
  if (codec.enc == mqar::Encoding::PHot) given["p"] = std::to_string(codec.p);
  // The construction whose circuit these stages prove (it registered the route, sat_routes.h).
  const Construction* dyp = construction_with_route("sat:dyadic-stages");
  if (!dyp) return std::nullopt;
  const Construction& dy = *dyp;
  std::optional<Params> p;
  Built bt;
  try {
    p = Params::parse(dy.params, given);
    bt = dy.build(*p);
  } catch (const InputError&) {
    return std::nullopt;  // no mqar/dyadic circuit of this shape (e.g. n > c): nothing to match
  }
  if (!bt.circuit_ir || !bt.circuit_ir->all_outputs_bit()) return std::nullopt;
  const circuits::JointAig joint = circuits::joint_aig(*bt.circuit_ir, *pr.artifact);
  const circuits::AigMatch m = circuits::aig_match(joint);
  if (!m.why.empty()) return std::nullopt;  // another shape of file: its own miters
  const std::string circuit = dy.name + "'s circuit (-p n=" + std::to_string(n) + " -p c=" + std::to_string(codec.c) +
                              " -p encoding=" + mqar::to_string(codec.enc) + ")";
  std::optional<SatSweep> sw;
  if (!m.equal()) {
    sw = sat_reference_sweep(joint, o);
    if (sw) o.timeout_s = std::max(0.0, o.timeout_s - sw->seconds);
    if (!sw || !sw->equal) {
      pr.notes.push_back("the file is not " + dy.name + "'s circuit for these parameters (" + sat_reference_differs(m) +
                         (sw ? "; SAT sweeping: " + sw->why : std::string()) + "): its per-query miters decide");
      return std::nullopt;
    }
    pr.notes.push_back(sat_sweep_note(circuit, m, *sw));
  } else {
    pr.notes.push_back(sat_reference_note(circuit, m));
  }
  SatOutcome out = run_dyadic_sat(*p, pr, o, head, bt.circuit_ir.get());
  out.report["sat"]["reference"] = sat_reference_json(dy.name, p->to_json(), m);
  if (sw) add_sweep(out, *sw);
  return out;
}

}  // namespace cz
