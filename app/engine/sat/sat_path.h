// `verify ... --method sat` (issue 27, contract.md "verify --method sat"): a proof over the whole
// stated domain instead of an enumeration. The construction's all-Bit circuit and the task's
// reference checker (circuits/reference/) are joined into miters (circuits/sat/miter.h), one per
// group of outputs (an MQAR query, a sorted place) or one for all, and handed to CaDiCaL.
//   UNSAT on every miter: "proved" (with --confirm, a second solver, PicoSAT, agrees on each).
//   SAT: the model is decoded into a task instance and checked by the enumerating engine on that
//        one instance (the construction's own check, or exact evaluation against src/tasks); only
//        a failure there is reported ("refuted", the engine's counterexample JSON). A SAT model the
//        engine does not confirm is a bug of this path: InternalError, never a verdict.
//   time limit: "undecided" (exit 4).
#pragma once
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "app/engine/byo/byo.h"
#include "verify/construction.h"
#include "verify/task.h"

namespace cz {

struct SatParts;        // app/engine/sat/sat_schedule.h
struct SatScheduleLog;  // app/engine/sat/sat_schedule.h
struct CubePlan;        // app/engine/sat/sat_schedule.h

struct SatOptions {
  double timeout_s = 300;     // wall clock for all miters together
  bool confirm = false;       // UNSAT answers re-solved by a second, independent solver
  std::string proof;          // DRAT proof file ("" none); FILE.<k> per miter when there are several
  // Certificates (issue 38, sat_certificates.h): --proof DIR (every answer's CNF + DRAT/model and
  // an index, renamed into place when the run proves) and --certify (each UNSAT's DRAT checked by
  // our checker as it arrives). Applied by run_sat_with_certificates around the run.
  std::string proof_dir;
  bool certify = false;
  // Miters: "whole" (one for all outputs), "family" (one per MQAR query / sorted place / output
  // word), "cell" (one per output bit): each encodes only its outputs' cone.
  std::string split = "family";
  bool lemmas = false;        // later miters assume the groups earlier miters proved
  bool cubes = false;         // split each family's miter on the checker's cases (MQAR: which key matches)
  unsigned threads = 0;       // solver processes at once (0: all cores; 1 with lemmas)
  std::string cnf_dir;        // "" none: else each miter's DIMACS is kept as DIR/miter-<k>.cnf
  std::string order = "index";  // "index" | "largest" (miters by clauses, descending; --sat-order)
  bool progress = false;      // a progress line on stderr when it is a terminal (sat_progress.h)
  // circuit/sort (sat_stages.h): "auto" | "stages" (0-1 principle, comparator by comparator) |
  // "monolithic" (one miter per sorted place, as for every other circuit); --sat-strategy.
  std::string strategy = "auto";
  std::string zero_one = "auto";  // stages' 0-1 check: auto | exhaustive | sat (--sat-zero-one)
  // mqar/dyadic stages: pbs blocks of 4+ queries proved "calls" (call by call, issue 38) or
  // "queries" (one miter per query, as before; an index or part without the key means this).
  std::string blocks = "calls";
  // mqar/dyadic call miters: "across" (the order facts across a miter's queries, issue 48) or
  // "within" (as before them; an index or part without the key means this). Not a flag: it is
  // how this build writes the miters, recorded so that check-proof and merge rebuild the same.
  std::string pbs_facts = "across";
  // Issue 38 (app/engine/sat/sat_schedule.h): cube-and-conquer of a miter that runs past cube_after
  // seconds (< 0: never; 0: every miter split once before solving) on cube_bits variables a level;
  // a shard's record of its miters, or a merge's replay of the parts; what the scheduler did.
  double cube_after = -1;
  unsigned cube_bits = 4;
  std::shared_ptr<SatParts> parts;
  std::shared_ptr<SatScheduleLog> log;
  std::shared_ptr<CubePlan> cube_plan;  // check-proof: the index's splits replayed (sat_schedule.h)
};

struct SatOutcome {
  nlohmann::json report;      // all but the keys below
  std::string verdict;        // proved | refuted | undecided
  int exit_code = 0;          // 0 proved, 1 refuted, 4 undecided
  std::optional<Failure> counterexample;
  // Written into the report by the CLI (app/report: tool, version, counterexample, claims, timing).
  std::vector<Claim> claims;
  double seconds = 0;
  nlohmann::json timing = nlohmann::json::object();  // encode_seconds, solve_seconds
  // sat.schedule of the report (issue 38, app/engine/sat/sat_schedule.h) when the run was scheduled; else null.
  nlohmann::json schedule;
};

// Whether run_verify_sat has a proof path for this build (its dispatch; `list` reports it).
bool sat_covers(const Construction& c, const Params& p, const Built& bt);
// Throws InputError (exit 2) for constructions and parameters --method sat does not cover, with why.
SatOutcome run_verify_sat(const Construction& c, const std::map<std::string, std::string>& given, const SatOptions& o);
// A user's circuit file against a task (verify --circuit F --task T --method sat).
SatOutcome run_task_sat(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                        std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o);
// A user's circuit file against task compare (inputs x[k], y[k]; outputs lt, eq, min[k], max[k])
// or sort (inputs k<i>[b]; outputs key<i>[b], idx<i>[b]), named as circuit/compare and circuit/sort
// name theirs: `verify --circuit F --task compare|sort --method sat` (src/verify/task_words.cpp:
// the same tasks, ports and per-instance verdict as their enumerating check; sat_words.h routes).
SatOutcome run_words_task_sat(const std::string& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                              std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o);

}  // namespace cz
