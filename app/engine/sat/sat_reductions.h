// --method sat for the reductions (issue 37 item 2): eq/via-mqar (JRT Prop G.8) and gar/via-sd
// (Prop G.26) proved as compositions, the inner solver's circuit with the reduction's encoding and
// decoding as one all-Bit circuit (constructions/eq/via_mqar_circuit.h, constructions/gar/
// gar_via_sd_circuit.h), against the task's reference written from src/tasks semantics
// (circuits/reference/eq_ref.h, gar_ref.h), on the exact domain the enumeration walks. A SAT
// model is decoded to its instance and confirmed by the construction's own check of it (an
// unconfirmed model is an internal error, exit 3). sd/via-gar (Prop G.25) is in sat_sd.h.
#pragma once
#include <functional>
#include <optional>

#include "app/engine/sat/sat_problem.h"
#include "constructions/gar/gar_via_sd_circuit.h"
#include "model/model.h"
#include "tasks/eq.h"
#include "tasks/gar.h"

namespace cz {

// The routes "sat:eq-via-mqar" (solver=attention) and "sat:gar-via-sd" (oracle=recurrent or
// reference) of app/engine/sat/sat_routes.h: whether they take these parameters, and the proofs.
bool sat_eq_via_mqar_covers(const Params& p);
SatOutcome run_eq_via_mqar_sat(const Construction& c, const Params& p, const Built& bt, const SatOptions& o);
bool sat_gar_via_sd_covers(const Params& p);
SatOutcome run_gar_via_sd_sat(const Construction& c, const Params& p, const Built& bt, const SatOptions& o);

// The problems, with the artifact's parts given apart (tests: mutants). failure: the check of one
// instance whose failure confirms a SAT model (the construction's own, as the runs above pass).
using EqFailure = std::function<std::optional<Failure>(const eq::Instance&)>;
SatProblem sat_eq_problem(std::uint32_t c, const Model& solver_model, bool any, EqFailure failure);
using GarFailure = std::function<std::optional<Failure>(const gar::Instance&)>;
SatProblem sat_gar_problem(std::uint32_t c, std::size_t nk, std::size_t m, const garc::SdOracleWires& oracle,
                           const std::string& oracle_text, GarFailure failure);

}  // namespace cz
