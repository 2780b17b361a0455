// `verify NAME --method algebra --algebra-symbols weights` (issue 37 item 1, contract.md "verify
// --method algebra"): the simulation proved for EVERY input AND every choice of the operator's
// weights. Symbols: the N·d input entries and every weight of the operator (verify/weight_symbolic.h,
// model/weight_map.h). The model side is the compiler's template instantiated on symbolic weights
// (model/zoo_compile.h: the same code the shipped Rat model comes from), run by the project's
// evaluator (model/eval.h); the reference is the architecture's own evaluator on the same symbols.
// Before the proof, the symbolic layers evaluated at the seeded weights must equal the model
// being verified entry by entry (so the proof is about that model's compiler, not another).
// A difference is refuted at an integer point of (weights, input), confirmed by compiling the
// Rat model at those weights with the shipped compiler and evaluating model and reference exactly.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "app/engine/algebra/algebra.h"
#include "verify/weight_symbolic.h"

namespace cz {

// hyena: set for sim/hyena layout=wide (the model is hyena_compile(*hyena)): the compositional
// route with weights as symbols (--algebra-route compositional, or auto over the budget).
AlgebraOutcome prove_weights_identity(const Model& m, const WeightSymbolic& w, const std::string& reference, const AlgebraOptions& o,
                                      nlohmann::json head, const std::string& where, const HyenaOperator* hyena = nullptr);

}  // namespace cz
