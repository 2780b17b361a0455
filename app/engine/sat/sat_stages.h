// --method sat on circuit/sort by stages (issue 27: past where one miter stalls): the 0-1
// principle proof of circuits/sat/sort_stages.h, with the monolithic miter as the fallback.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_problem.h"
#include "circuits/aig_match.h"
#include "circuits/gadgets_sort.h"
#include "circuits/sat/solver.h"

namespace cz {

// "stages" or "monolithic" for SatOptions::strategy ("auto": stages unless an option that is
// about whole-circuit miters is given: --proof, --sat-cnf, --sat-split, lemmas, cubes; with
// "stages" given explicitly they are refused, InputError). --confirm works with both.
std::string sat_strategy_for(const SatOptions& o);
// The same, refusing "stages" together with a whole-circuit option (InputError).
std::string sat_strategy_checked(const SatOptions& o);
// --confirm's second solver (picosat, else minisat; InputError when neither is installed); nullopt without --confirm.
std::optional<circuits::sat::SolverSpec> sat_second_solver(const SatOptions& o);

// pr: the sort problem of the artifact (sat_sort_problem); the trace names its comparators' wires
// (checked, not trusted). Proved / undecided by stages; a 0-1 failure becomes a counterexample
// confirmed by pr.confirm; anything else (not recognised, a comparator that fails for some value
// of its inputs, a 0-1 vector the exact evaluator finds correct) goes to solve_sat_problem.
// staged: the circuit the stages prove and the trace names (default pr.artifact); another one only
// when pr.artifact computes the same function output by output (run_task_sat_as_sort).
SatOutcome sat_sort_by_stages(SatProblem& pr, const circuits::gadgets::NetworkTrace& trace, std::size_t n, std::size_t d,
                              const SatOptions& o, const nlohmann::json& head, const circuits::Circuit* staged = nullptr);
// A user's circuit file on task sort (the counterpart of run_task_sat_as_dyadic): when it is
// circuit/sort's circuit for its n and d (network oddeven or bitonic) up to structural hashing
// (circuits/aig_match.h), the construction's stages prove it; nullopt otherwise (a note says why
// when the ports matched), and the caller runs the file's own miters.
// What run_task_sat_as_dyadic / _as_sort say of a file matched against a construction's circuit
// (circuits/aig_match.h): the report's sat.reference; the note of a match (circuit: e.g.
// "mqar/dyadic's circuit (-p n=16 ...)"); "K of M outputs are other AIG nodes, first NAME".
nlohmann::json sat_reference_json(const std::string& construction, nlohmann::json params, const circuits::AigMatch& m);
std::string sat_reference_note(const std::string& circuit, const circuits::AigMatch& m);
std::string sat_reference_differs(const circuits::AigMatch& m);
// When the match fails on structure alone (ports correspond, some outputs are other nodes): SAT
// sweeping (circuits/sat/sweep.h) asks whether the file is the construction's function all the
// same. nullopt when it is not tried: a DRAT file (--proof FILE: its miters would have no proof
// there), or no CaDiCaL. Under --proof DIR it sweeps: the hook records every answer (issue 47). Under mpirun rank 0 sweeps and every rank gets its result. The sweep's
// seconds come off o.timeout_s (the caller's stages get the rest).
struct SatSweep {
  bool equal = false;
  nlohmann::json report;  // sat.reference.sweep
  std::string why;        // not equal: why
  double seconds = 0;
  std::vector<std::uint32_t> witness;  // report["differ"] set: the input (one value per joint input) they differ on
};
// A sweep report (SatSweep::report) in words, for human output: how many questions or miters,
// pairs, refinements, by mode.
std::string sweep_words(const nlohmann::json& sw);
// j: circuits::joint_aig(construction, file) with empty why (the one the match was read from).
std::optional<SatSweep> sat_reference_sweep(const circuits::JointAig& j, const SatOptions& o);
std::string sat_sweep_note(const std::string& circuit, const circuits::AigMatch& m, const SatSweep& sw);
// A proved run's report after a sweep: sat.reference.sweep, its seconds in seconds and timing.
void add_sweep(SatOutcome& out, const SatSweep& sw);
// o.timeout_s loses the seconds a sweep spent (--timeout is for the whole run: the caller's miters
// get the rest).
std::optional<SatOutcome> run_task_sat_as_sort(std::size_t n, std::size_t d, SatProblem& pr, SatOptions& o,
                                               const nlohmann::json& head);
// circuit/sort: the strategy chosen (sat_strategy_for), the circuit rebuilt with its trace.
SatOutcome run_sort_sat(const Params& p, SatProblem& pr, const SatOptions& o, const nlohmann::json& head);
// The report of a stage-wise run that did not fall back (proved / undecided / refuted by stages):
// the keys every --method sat report has, sat.strategy = "stages", sat.method = method.
SatOutcome sat_stages_outcome(const SatProblem& pr, const nlohmann::json& head, const std::string& verdict,
                              const std::optional<circuits::sat::SolverSpec>& second, const std::string& method, std::size_t miters,
                              std::size_t miters_run, const nlohmann::json& cnf, const nlohmann::json& stages, const std::string& why,
                              double seconds, const nlohmann::json& timing);
// What the stages did not decide goes to the monolithic miter (solve_sat_problem) with the time
// left; the report says so (sat.strategy = "monolithic", sat.stages with "failed" = why, a note).
SatOutcome sat_stages_fallback(SatProblem& pr, SatOptions o, const nlohmann::json& head, const std::string& why, nlohmann::json stages,
                               double spent_s);
// mqar/dyadic (queries=sorted) by its stages (constructions/mqar/dyadic_stages.h), the monolithic
// miter as the fallback; queries=each and --sat-strategy monolithic go straight to the miter.
// staged: the circuit the stages prove (default pr.artifact); another one only when pr.artifact
// computes the same function output by output (run_task_sat_as_dyadic), the fallback's miters
// being pr.artifact's own.
SatOutcome run_dyadic_sat(const Params& p, SatProblem& pr, const SatOptions& o, const nlohmann::json& head,
                          const circuits::Circuit* staged = nullptr);
// A user's circuit file on task mqar (triples; issue 38 item 4: per-query miters of the exported
// n = 16, c = 64 circuit stall at query 8): when the file is mqar/dyadic's circuit (default variant,
// queries=sorted) for the task's n, c and encoding up to structural hashing (circuits/aig_match.h:
// the same input and output names, every output the same node of one strashed AIG), the stages
// prove the construction's circuit and so the file. nullopt when it is not (the caller runs the
// file's per-query miters); pr.notes then says why when the ports matched. Outputs that are other
// nodes: SAT sweeping (sat_reference_sweep) may still prove the file the construction's function;
// o.timeout_s loses the seconds it spent (the caller's miters get the rest).
std::optional<SatOutcome> run_task_sat_as_dyadic(const mqar::Codec& codec, std::size_t n, SatProblem& pr, SatOptions& o,
                                                 const nlohmann::json& head);

}  // namespace cz
