// `verify --model A.json --equiv-model B.json --method algebra` (issue 47 item 2: model against
// model): whether two model files compute the same polynomial map on every input of Q^(N×d) (of
// F_p^(N×d) for models over Fp:<p>). Model B becomes the reference: the same evaluator
// (model/eval.h) runs both on symbols, and prove_model_identity (algebra.h) compares the outputs
// coefficient by coefficient, with its budget, zero_outputs and refutations (a point where the two
// differ, confirmed by exact evaluation of both models). The inputs must agree (N, d and the field:
// Z and Q are both proved over Q, Fp:<p> only with the same p); the inner shapes and the layers may
// differ (that is what is compared). Both expansions are counted against --algebra-budget before
// anything is expanded.
#pragma once
#include <string>

#include "app/engine/algebra/algebra.h"
#include "model/model.h"

namespace cz {

// Throws InputError (exit 2) for inputs or rings that differ, an MLP layer, --algebra-symbols
// weights, --algebra-route compositional, or an expansion over the budget.
AlgebraOutcome run_equiv_algebra(const Model& a, const std::string& file_a, const Model& b, const std::string& file_b,
                                 const AlgebraOptions& o);

}  // namespace cz
