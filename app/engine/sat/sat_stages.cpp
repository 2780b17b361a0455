// --method sat on circuit/sort by stages (--sat-strategy stages, the default there; contract.md):
// the 0-1 principle proof of circuits/sat/sort_stages.h on the construction's circuit, whose
// comparator wires come from rebuilding it with its network traced (the trace is only a hint:
// the proof checks every wire against the artifact). Anything it cannot decide goes to the
// monolithic miter (solve_sat_problem), which then gives the verdict and the counterexample.
#include "app/engine/sat/sat_stages.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "app/engine/run/cluster.h"
#include "app/engine/sat/sat_schedule.h"
#include "circuits/sat/sweep.h"
#include "circuits/sat/sort_stages.h"
#include "constructions/circuits/sort_build.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/threads.h"

namespace cz {

namespace {

namespace sat = circuits::sat;

nlohmann::json stages_json(const sat::StageResult& r) {
  nlohmann::json j = {{"comparators", r.comparators},
                      {"local_miters", r.local_miters},
                      {"local_folded", r.local_folded},
                      {"local_distinct", r.local_distinct},
                      {"local_cnf", {{"vars", r.local_vars}, {"clauses", r.local_clauses}}},
                      {"prefix_miters", r.prefix_miters},
                      {"prefix_unsat", r.prefix_unsat},
                      {"confirmed", r.confirmed},
                      {"structure_seconds", r.structure_s},
                      {"local_seconds", r.local_s}};
  if (!r.zero_one_method.empty())
    j["zero_one"] = {{"method", r.zero_one_method},
                     {"vectors", "2^" + std::to_string(r.zero_one_vectors_log2)},
                     {"vars", r.zero_one_vars},
                     {"clauses", r.zero_one_clauses},
                     {"seconds", r.zero_one_s}};
  return j;
}

}  // namespace

namespace {
// The options that are about miters of the whole circuit (--proof, --sat-cnf, split, lemmas, cubes).
bool whole_circuit_options(const SatOptions& o) {
  return !o.proof.empty() || !o.cnf_dir.empty() || o.lemmas || o.cubes || o.split != "family";
}
}  // namespace

std::string sat_strategy_for(const SatOptions& o) {
  if (o.strategy == "monolithic" || o.strategy == "stages") return o.strategy;
  // auto: asking for one of the whole-circuit options asks for that miter.
  return whole_circuit_options(o) ? "monolithic" : "stages";
}

SatOutcome sat_stages_outcome(const SatProblem& pr, const nlohmann::json& head, const std::string& verdict,
                              const std::optional<circuits::sat::SolverSpec>& second, const std::string& method, std::size_t miters,
                              std::size_t miters_run, const nlohmann::json& cnf, const nlohmann::json& stages, const std::string& why,
                              double seconds, const nlohmann::json& timing) {
  SatOutcome out;
  out.verdict = verdict;
  out.exit_code = verdict == "proved" ? 0 : verdict == "refuted" ? 1 : 4;
  nlohmann::json j = head;
  j["method"] = "sat";
  j["verdict"] = verdict;
  j["domain"] = "exhaustive";
  j["domain_description"] = pr.domain_text;
  j["instances"] = sat_count_json(pr.instances);
  j["counterexample"] = nullptr;
  // The keys every --method sat report has (contract.md).
  j["sat"] = {{"solver", "cadical"},
              {"confirm_solver", second ? nlohmann::json(second->name) : nlohmann::json(nullptr)},
              {"strategy", "stages"},
              {"method", method},
              {"split", "stages"},
              {"cubes", false},
              {"lemmas", false},
              {"runs", nlohmann::json::array()},
              {"proofs", nlohmann::json::array()},
              {"miters", miters},
              {"miters_run", miters_run},
              {"cnf", cnf},
              {"stages", stages}};
  if (verdict == "undecided") j["sat"]["undecided"] = why;
  j["notes"] = pr.notes;
  out.report = j;
  out.seconds = seconds;
  out.timing = timing;
  return out;
}

SatOutcome sat_stages_fallback(SatProblem& pr, SatOptions o, const nlohmann::json& head, const std::string& why, nlohmann::json stages,
                               double spent_s) {
  pr.notes.push_back("--sat-strategy stages: " + why + "; the monolithic miter decides");
  // The time limit is for the whole run: what is left, fractions too, no floor (issue 36 item 19).
  o.timeout_s = o.timeout_s - spent_s;
  SatOutcome out = solve_sat_problem(pr, o, head);
  out.report["sat"]["strategy"] = "monolithic";
  stages["failed"] = why;
  out.report["sat"]["stages"] = std::move(stages);
  return out;
}

std::string sat_strategy_checked(const SatOptions& o) {
  if (o.strategy == "stages" && whole_circuit_options(o))
    throw InputError("--sat-strategy stages takes none of --proof, --sat-cnf, --sat-split cell|whole, --sat-cubes, --sat-lemmas "
                     "(they are about whole-circuit miters: use --sat-strategy monolithic)",
                     "--sat-strategy");
  return sat_strategy_for(o);
}

std::optional<circuits::sat::SolverSpec> sat_second_solver(const SatOptions& o) {
  if (!o.confirm) return std::nullopt;
  auto second = circuits::sat::find_solver("picosat");
  if (!second) second = circuits::sat::find_solver("minisat");
  if (!second) throw InputError("--confirm needs picosat or minisat on PATH (apt-get install picosat)", "--confirm");
  return second;
}

SatOutcome run_sort_sat(const Params& p, SatProblem& pr, const SatOptions& o, const nlohmann::json& head) {
  if (sat_strategy_checked(o) == "monolithic") {
    SatOutcome out = solve_sat_problem(pr, o, head);
    out.report["sat"]["strategy"] = "monolithic";
    return out;
  }
  const std::size_t n = p.u("n"), d = p.u("d");
  circuits::gadgets::NetworkTrace trace;
  (void)circ::build_sort_circuit(n, d, p.s("network") == "bitonic", &trace);  // the same build, traced: bt's gate ids
  return sat_sort_by_stages(pr, trace, n, d, o, head);
}

SatOutcome sat_sort_by_stages(SatProblem& pr, const circuits::gadgets::NetworkTrace& trace, std::size_t n, std::size_t d,
                              const SatOptions& o, const nlohmann::json& head, const circuits::Circuit* staged) {
  const circuits::Circuit& sc = staged ? *staged : *pr.artifact;
  const auto t0 = std::chrono::steady_clock::now();
  const auto cadical = sat::find_solver("cadical");
  if (!cadical) throw InputError("--method sat needs the CaDiCaL solver on PATH (Debian: apt-get install cadical)", "--method sat");
  sat::StageOptions so;
  so.timeout_s = o.timeout_s;
  so.threads = resolve_threads(o.threads);
  so.zero_one = o.zero_one;
  if (WorkWatch* w = current_watch()) so.cancel = &w->cancelled;
  so.second = sat_second_solver(o);
  so.runner = sat_batch_runner(o);  // ranks, cubes, shards (issue 38); empty: here
  if (so.runner) so.threads = sat_rank_threads(o);
  const sat::StageResult r =
      sat::prove_sort_stages(sc, trace, {n, d, circ::sort_payload_bits(n)}, *cadical, so);
  if (so.cancel && so.cancel->load()) throw Cancelled();
  using St = sat::StageResult::Status;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto report = [&](const std::string& verdict) {
    // miters: the comparators' local miters and the 0-1 check; run: the distinct CNFs given to the
    // solver, and the 0-1 miter when it is SAT-decided.
    const bool zsat = r.zero_one_method == "sat";
    const nlohmann::json cnf = {{"vars", r.local_vars + (zsat ? r.zero_one_vars : 0)},
                                {"clauses", r.local_clauses + (zsat ? r.zero_one_clauses : 0)},
                                {"max_vars", std::max(r.local_max_vars, zsat ? r.zero_one_vars : 0)},
                                {"max_clauses", std::max(r.local_max_clauses, zsat ? r.zero_one_clauses : 0)}};
    return sat_stages_outcome(pr, head, verdict, so.second, "0-1 principle", r.local_miters + 1, r.local_distinct + (zsat ? 1 : 0),
                              cnf, stages_json(r), r.why, secs,
                              {{"encode_seconds", r.structure_s}, {"solve_seconds", r.local_s + r.zero_one_s}});
  };
  // A counterexample the exact evaluator confirmed on the whole circuit.
  auto refuted = [&](Failure f) {
    SatOutcome out = report("refuted");
    out.counterexample = std::move(f);
    out.report["sat"]["stages"]["failed"] = r.why;
    out.report["sat"]["confirmed_by_engine"] = true;
    return out;
  };
  if (r.status == St::Proved) return report("proved");
  if (r.status == St::Undecided) return report("undecided");
  if (r.status == St::ZeroOneFailed) {
    // Every comparator is a compare-exchange (step 2 passed), so the circuit moves keys as the
    // abstract network does: keys 0 / all-ones placed as the 0-1 vector come out unsorted. The
    // exact evaluator confirms it before anything is reported.
    std::vector<int> bits(n * d, 0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t b = 0; b < d; ++b) bits[i * d + b] = r.zero_one_input[i];
    if (std::optional<Failure> f = pr.confirm(bits)) return refuted(std::move(*f));
  }
  if (r.status == St::LocalFailed && !r.witness.empty()) {
    // A circuit input on which a comparator misbehaves: the whole circuit evaluated exactly on it
    // (a later comparator may still mend it; then the monolithic miter decides below).
    std::map<std::string, std::size_t> index;
    for (std::size_t k = 0; k < sc.num_inputs(); ++k) index[sc.input_name(k)] = k;  // the witness is sc's inputs
    std::vector<int> bits;
    for (const std::string& nm : sat_task_input_names(pr.checker)) bits.push_back(r.witness.at(index.at(nm)));
    if (std::optional<Failure> f = pr.confirm(bits)) return refuted(std::move(*f));
  }
  // Not recognised, or a local failure (its leaf values need not be reachable): the monolithic
  // miter decides, and finds the whole circuit's counterexample if there is one.
  return sat_stages_fallback(pr, o, head, r.why, stages_json(r), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

nlohmann::json sat_reference_json(const std::string& construction, nlohmann::json params, const circuits::AigMatch& m) {
  return {{"construction", construction}, {"params", std::move(params)}, {"outputs", m.outputs},       {"same", m.same},
          {"ands", m.ands_b},             {"ands_construction", m.ands_a}, {"ands_joint", m.ands_joint}};
}

std::string sat_reference_note(const std::string& circuit, const circuits::AigMatch& m) {
  return "the file is " + circuit + " up to structural hashing: each of its " + std::to_string(m.outputs) +
         " outputs is the construction's output of that name, node for node in one AIG over the same inputs, so the stages "
         "that prove the construction's circuit prove the file (circuits/aig_match.h)";
}

std::string sat_reference_differs(const circuits::AigMatch& m) {
  return std::to_string(m.outputs - m.same) + " of " + std::to_string(m.outputs) + " outputs are other AIG nodes, first " +
         m.differ.front();
}

}  // namespace cz

// What a sweep's result carries from rank 0 to the other ranks (all of it but the record, which
// only rank 0, the one that writes a --proof DIR, uses).
namespace cz::circuits::sat {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SweepResult, equal, why, differ, witness, b_nodes, pairs, rounds, miters, refinements,
                                   clauses, mode, calls, merged, unresolved, passes, incremental_seconds, certified_round,
                                   seconds)
}  // namespace cz::circuits::sat

namespace cz {

// Rank 0 sweeps, every rank gets its result (what the report and the route need: the verdict,
// why, the witness, the counts). An exception on rank 0 reaches the other ranks as an error of
// theirs (Cancelled stays Cancelled), so none waits for a result that never comes.
static circuits::sat::SweepResult sweep_on_rank0(const circuits::JointAig& j, const circuits::sat::SolverSpec& s,
                                          const circuits::sat::SweepOptions& so) {
  namespace sat = circuits::sat;
  if (Cluster::rank() == 0) {
    sat::SweepResult r;
    try {
      r = sat::sat_sweep(j, s, so);
    } catch (const Cancelled&) {
      Cluster::broadcast(std::string(R"({"cancelled": true})"));
      throw;
    } catch (const std::exception& e) {
      Cluster::broadcast(nlohmann::json{{"error", e.what()}}.dump());
      throw;
    }
    Cluster::broadcast(nlohmann::json(r).dump());
    return r;
  }
  const nlohmann::json msg = nlohmann::json::parse(Cluster::broadcast(std::string()));
  if (msg.contains("cancelled")) throw Cancelled();
  if (msg.contains("error")) throw InputError(msg["error"].get<std::string>() + " (on rank 0)", "SAT sweeping");
  return msg.get<sat::SweepResult>();
}

std::optional<SatSweep> sat_reference_sweep(const circuits::JointAig& j, const SatOptions& o) {
  // --proof DIR sweeps (issue 47 item 4): every answer goes through solve_batch, so the certificate
  // hook records it, and check-proof's re-run (no --proof) sweeps the same way from the answers.
  if (!o.proof.empty() || !j.why.empty()) return std::nullopt;
  const auto cadical = circuits::sat::find_solver("cadical");
  if (!cadical) return std::nullopt;
  const std::optional<circuits::sat::SolverSpec> second = sat_second_solver(o);  // --confirm
  circuits::sat::SweepOptions so;
  so.timeout_s = o.timeout_s;
  so.second = second ? &*second : nullptr;
  so.threads = resolve_threads(o.threads);
  if (WorkWatch* w = current_watch()) so.cancel = &w->cancelled;
  // Under mpirun every rank sweeps, its miters spread over the ranks by the scheduler, which
  // hands every rank every answer (models included): the same rounds everywhere. Not recorded in
  // a shard's parts or the schedule's log (those are the stages'); a shard alone sweeps with its
  // own threads, as every shard does, to the same result.
  // The incremental sweep (one solver, issue 48) runs on rank 0 alone and its result goes to every
  // rank (a second of work; ranks that each swept could part at the time limit).
  circuits::sat::SweepResult r;
  if (Cluster::active() && circuits::sat::sweep_is_incremental(*cadical, so)) {
    r = sweep_on_rank0(j, *cadical, so);
  } else {
    if (Cluster::active()) {
      SatOptions ro = o;
      ro.parts.reset(), ro.log.reset(), ro.cube_plan.reset();
      so.runner = sat_batch_runner(ro);
    }
    r = circuits::sat::sat_sweep(j, *cadical, so);
  }
  if (so.cancel && so.cancel->load()) throw Cancelled();
  SatSweep sw{r.equal,
              {{"equal", r.equal}, {"file_nodes", r.b_nodes}, {"pairs", r.pairs}, {"rounds", r.rounds}, {"miters", r.miters},
               {"refinements", r.refinements}, {"clauses", r.clauses}, {"seconds", r.seconds}},
              r.why,
              r.seconds,
              {}};
  // How it swept (issue 48 item 3): incremental (one solver, passes of growing conflict limits, a
  // certified round where answers must be certificates), rounds of from-scratch miters, or a
  // certificate directory's recorded round (check-proof).
  sw.report["mode"] = r.mode;
  if (r.mode == "incremental") {
    sw.report["passes"] = r.passes;
    sw.report["calls"] = r.calls;
    sw.report["merged"] = r.merged;
    sw.report["unresolved"] = r.unresolved;
    sw.report["certified_round"] = r.certified_round;
    sw.report["incremental_seconds"] = r.incremental_seconds;
  }
  if (!r.differ.empty()) sw.report["differ"] = r.differ, sw.witness = r.witness;
  if (!r.why.empty()) sw.report["why"] = r.why;
  return sw;
}

std::string sweep_words(const nlohmann::json& sw) {
  const std::string mode = sw.value("mode", std::string("rounds"));
  auto n = [&](const char* k) { return sw.contains(k) ? sw[k].dump() : std::string("?"); };
  if (mode == "incremental") {
    std::string t = "incremental, " + n("calls") + " questions to one solver in " + n("passes") + " pass" + (n("passes") == "1" ? "" : "es") +
                    ", " + n("merged") + " node pairs merged, " + n("refinements") + " SAT answers refining the pairs";
    if (sw.value("certified_round", false)) t += ", then a round of " + std::to_string(sw["miters"].get<std::size_t>() - sw["calls"].get<std::size_t>()) + " miters whose answers are certificates";
    return t;
  }
  if (mode == "recorded") return "the recorded final round: " + n("pairs") + " node pairs in " + n("miters") + " miters";
  return n("pairs") + " node pairs, " + n("miters") + " miters in " + n("rounds") + " rounds, " + n("refinements") + " SAT answers refining the pairs";
}

void add_sweep(SatOutcome& out, const SatSweep& sw) {
  out.report["sat"]["reference"]["sweep"] = sw.report;
  out.seconds += sw.seconds;  // the run's time includes the sweep's
  out.timing["sweep_seconds"] = sw.seconds;
}

std::string sat_sweep_note(const std::string& circuit, const circuits::AigMatch& m, const SatSweep& sw) {
  return "the file is " + circuit + " up to SAT sweeping: " + sat_reference_differs(m) + ", and SAT answers over the " +
         sw.report["pairs"].dump() + " node pairs simulation suggested (" + sweep_words(sw.report) +
         ") proved every output the construction's output of that name (circuits/sat/sweep.h), so "
         "the stages that prove the construction's circuit prove the file";
}

std::optional<SatOutcome> run_task_sat_as_sort(std::size_t n, std::size_t d, SatProblem& pr, SatOptions& o,
                                               const nlohmann::json& head) {
  if (sat_strategy_for(o) == "monolithic") return std::nullopt;
  struct Network {
    std::string name;
    circuits::gadgets::NetworkTrace trace;
    circuits::Circuit built;
    circuits::JointAig joint;
    circuits::AigMatch match;
  };
  auto by_stages = [&](Network& w, const std::optional<SatSweep>& sw) {
    const std::string circuit =
        "circuit/sort's circuit (-p n=" + std::to_string(n) + " -p d=" + std::to_string(d) + " -p network=" + w.name + ")";
    pr.notes.push_back(sw ? sat_sweep_note(circuit, w.match, *sw) : sat_reference_note(circuit, w.match));
    SatOutcome out = sat_sort_by_stages(pr, w.trace, n, d, o, head, &w.built);
    const Construction* sorter = construction_with_route("sat:sort-stages");  // the networks' construction
    out.report["sat"]["reference"] =
        sat_reference_json(sorter ? sorter->name : std::string("the sorting networks"), {{"n", n}, {"d", d}, {"network", w.name}}, w.match);
    if (sw) add_sweep(out, *sw);
    return out;
  };
  std::vector<Network> nets;
  nets.reserve(2);
  std::string differs;
  for (const bool bitonic : {false, true}) {
    Network& w = nets.emplace_back();
    w.name = bitonic ? "bitonic" : "oddeven";
    w.built = circ::build_sort_circuit(n, d, bitonic, &w.trace);
    w.joint = circuits::joint_aig(w.built, *pr.artifact);
    w.match = circuits::aig_match(w.joint);
    if (!w.match.why.empty()) return std::nullopt;  // another shape of file: its own miters
    if (w.match.equal()) return by_stages(w, std::nullopt);
    differs += (differs.empty() ? "" : "; ") + w.name + ": " + sat_reference_differs(w.match);
  }
  // Other structure: SAT sweeping against each network (circuits/sat/sweep.h).
  for (Network& w : nets) {
    const std::optional<SatSweep> sw = sat_reference_sweep(w.joint, o);
    if (!sw) break;  // not tried (a DRAT file, no CaDiCaL)
    o.timeout_s = std::max(0.0, o.timeout_s - sw->seconds);
    if (sw->equal) return by_stages(w, sw);
    differs += "; SAT sweeping against " + w.name + ": " + sw->why;
    if (sw->why.rfind("an output differs", 0) != 0) break;  // a limit: the file's miters get what is left
  }
  pr.notes.push_back("the file is not circuit/sort's circuit for these parameters (" + differs + "): its miters decide");
  return std::nullopt;
}

}  // namespace cz
