// --method sat for the data-dependent constructions (issue 37 item 2): models whose kernels are
// functions of the instance, built as one circuit instance → kernels → model → answer
// (constructions/mqar/autocorrelation_circuit.h, constructions/sd/based_jrt_circuit.h) and joined
// with the task's reference checker. A SAT model is decoded into an instance and confirmed by the
// construction's own enumerating check of that instance (the per-instance model built and
// evaluated exactly); an unconfirmed model is an InternalError, never a verdict.
#pragma once
#include "app/engine/sat/sat_problem.h"
#include "constructions/mqar/solvers.h"
#include "constructions/sd/based_jrt.h"

namespace cz {

// mqar/autocorrelation (triples layout, one-hot rows): every triples instance with n triples over c
// tokens, keys distinct; the whole N×c integer output compared (mqar_words_checker).
// InputError (exit 2) for layout=zoology.
SatProblem sat_autocorr_problem(const mqarc::AutoConfig& cfg);
SatOutcome run_autocorr_sat(const Params& p, const Built& bt, const SatOptions& o, nlohmann::json head);

// sd/based-jrt (sat_based_jrt.cpp): whether these parameters have a circuit (sat_path.cpp's
// sat_covers), and the proof.
bool sat_based_covers(const Params& p);
SatProblem sat_based_problem(const Params& p, const sdc::BasedArtifact& art);
SatOutcome run_based_sat(const Params& p, const Built& bt, const SatOptions& o, nlohmann::json head);

}  // namespace cz
