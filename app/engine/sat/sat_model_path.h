// Integer models under `verify --method sat` (issue 27, item 1 second bullet): the model is
// bit-blasted exactly (circuits/sat/model_bits.h: two's-complement words as wide as each value's
// certified interval, so no overflow is possible on the domain) and joined with the task's
// reference (circuits/sat/int_miter.h) into the miters sat_path.cpp solves.
//   mqar/attention (triples; one-hot), mqar/dyadic artifact=model (every encoding): the MQAR
//     reference checker (circuits/reference/mqar_ref.h) on the whole N×d output, every cell's
//     word equal to the 0/1 expected bit, over every triples instance (keys distinct);
//   the primitives (primitive/*; tasks identity, shift_down, shift_up, cumsum, add, hadamard,
//     remember) and circuit/to-model prefix-sum / prefix-product: the definitions of
//     src/tasks/primitive_semantics.h run on words, on every integer matrix with entries in
//     [-range, range] ((2·range + 1)^(N·d) instances);
//   circuit/to-model compare: row 1's min bits, [x < y], [x = y] on every pair of D-bit words;
//   a user's model-json with --task (a primitive, or mqar triples).
// A SAT model is decoded to its input matrix and re-run through the exact evaluator
// (IntegerEvaluator) against the reference over Z (MQAR: the task's own check of that instance);
// a disagreement is an internal error (exit 3).
#pragma once
#include <map>
#include <string>

#include "app/engine/byo/byo.h"
#include "app/engine/sat/sat_path.h"

namespace cz {

// What the integer path covers, for refusals elsewhere.
inline constexpr const char* kSatModelCovers =
    "integer models covered: one model for the whole domain of task mqar (triples) or of an integer map (the primitives), "
    "circuits compiled to models, and model files against a primitive task or mqar";

// Route "sat:model" (sat_routes.h): the construction's artifact is one integer model for its whole
// domain, of task mqar or an integer map; whether these build it so (a model is there), and the proof.
bool sat_model_covers(const Construction& c, const Params& p, const Built& bt);
SatOutcome run_model_sat(const Construction& c, const Params& p, const Built& bt, const SatOptions& o);
// Route "sat:to-model": a circuit compiled into a model, against the map its `source` names.
SatOutcome run_to_model_sat(const Construction& c, const Params& p, const Built& bt, const SatOptions& o);
// verify --model F --task T --method sat.
SatOutcome run_model_task_sat(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                              const SatOptions& o);

}  // namespace cz
