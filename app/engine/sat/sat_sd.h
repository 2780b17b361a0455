// --method sat for sd/recurrent-jrt (JRT Alg. 3 on the JRT prompt, and the plain-prompt
// contrast): the program unrolled over each prompt length (constructions/sd/alg3_circuit.h)
// against the SD reference checker (circuits/reference/sd_ref.h), one block per prompt length
// N = |A| + |B| + 1 of the domain; a SAT model's block is decoded into an instance (A above the
// separator row, B below) and confirmed by the construction's own check of that instance
// (recurrent_failure, the function its enumeration runs), shrunk as the enumeration shrinks.
#pragma once
#include <map>

#include "app/engine/sat/sat_problem.h"
#include "model/program_json.h"
#include "constructions/gar/sd_via_gar_circuit.h"
#include "constructions/gar/via_sd.h"
#include "circuits/reference/sd_ref.h"
#include "constructions/sd/recurrent_jrt.h"

namespace cz {

// The SD domain of p (n, domain, kmax, a, b) as the checker's blocks, one per prompt length N =
// |A| + |B| + 1 (shared with sat_based_jrt.cpp).
struct SdSpec {
  unsigned n = 2;
  std::string kind;  // subsets | orders | sized
  std::size_t kmax = 0, a = 0, b = 0;
  bool jrt = true;
  std::vector<circuits::reference::SdBlockSpec> blocks;
  Int count{0};
  std::string text;
};
// jrt: the JRT prompt (answer rows 2N when out_rows_per_N = 2); state: the bag bound is checked.
// InputError when the domain is too large to unroll.
SdSpec sd_spec(const Params& p, bool jrt, bool state, std::size_t out_rows_per_N);
// A SAT model's blocks (task input bits in the checker's order) decoded into instances and checked
// by `failure` (the construction's own check of one instance); the first failure, shrunk as the
// enumeration shrinks, or nullopt.
std::function<std::optional<Failure>(const std::vector<int>&)> confirm_by(
    const std::vector<circuits::reference::SdBlockSpec>& blocks, std::function<std::optional<Failure>(const sd::Instance&)> failure);

// The problem for art (its program and its unrolled circuit from art.rules) on the domain of p
// (n, domain, kmax, a, b, prompt). InputError (exit 2) when the domain is too large to unroll.
SatProblem sat_sd_problem(const Params& p, const sdc::RecurrentArtifact& art);
// As above with the circuit's rules given apart from the artifact's (tests: a mutated unrolled
// step whose SAT model the program does not confirm).
SatProblem sat_sd_problem(const Params& p, const sdc::RecurrentArtifact& art, const sdc::Alg3Rules& circuit_rules);

// verify sd/recurrent-jrt --method sat (the dispatch in sat_path.cpp).
SatOutcome run_sd_sat(const Params& p, const Built& bt, const SatOptions& o, nlohmann::json head);

// sd/via-gar with solver=via-sd (constructions/gar/sd_via_gar_circuit.h): the reduction with its
// Alg. 3 calls unrolled (circuit_rules) against the same checker; SAT models confirmed by
// sd/via-gar's check of that instance with the Alg. 3 oracle on oracle_rules (the construction's:
// Fixed).
SatProblem sat_sd_via_gar_problem(const Params& p, const sdc::Alg3Rules& circuit_rules, const sdc::Alg3Rules& oracle_rules);
// solver=reference (the default): its GAR solver is the map lookup, so what is proved is the
// reduction itself: Prop G.25's encoding and decoding around the GAR reference circuit
// (circuits/reference/gar_ref.h) against the SD reference; SAT models confirmed by sd/via-gar's
// check with the map lookup.
SatProblem sat_sd_via_gar_reference_problem(const Params& p);
// As above with the GAR solver's wires and the solver that confirms given apart (tests: mutants).
SatProblem sat_sd_via_gar_reference_problem(const Params& p, const garc::GarAnsweredWires& gar, const garc::GarSolver& solver);
SatOutcome run_sd_via_gar_sat(const Params& p, const Built& bt, const SatOptions& o, nlohmann::json head);

// verify --program FILE --task sd --method sat: the file's step unrolled statement by statement over
// every prompt length of the domain (circuits/sat/program_bits.h) against the same SD checker (a
// run that stops with an error is a wrong answer: the checker's "runs" group); SAT models confirmed
// by the program check's own per-instance check (program_failure, byo_program.h). InputError (exit
// 2) for a program whose operations cannot be bit-blasted (with why) or a domain too large.
SatProblem sat_program_problem(const Params& p, const ProgramFile& pf, const std::string& file);
SatOutcome run_program_sat(const ProgramFile& pf, const std::string& file, const std::string& task_name,
                           std::map<std::string, std::string> given, const SatOptions& o);

}  // namespace cz
