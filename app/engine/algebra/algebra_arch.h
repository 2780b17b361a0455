// `verify --model FILE [--task arch] --method algebra` (issue 37): each architecture layer a
// model file records (Model::arch) proved equal to its BaseConv expansion for EVERY state in
// Q^{N'×d'} (the expansion is recompiled from the file's weights when the file is read, so this
// checks the compiler, model/zoo_compile.h, at those weights; issue 46 item 3). A file with layers
// outside the expansions (no reference for them) is refused: the expansion (the model's layers [first, first + count), run alone on an N'×d'
// state, every column a symbol) against the architecture's own evaluation arch_eval
// (model/arch_layer.h: no BaseConv code), as polynomial identities (prove_model_identity). The
// enumerating `--task arch` checks the same on a box and samples; this is all of Q^{N'×d'}.
#pragma once
#include <string>

#include "app/engine/algebra/algebra.h"
#include "model/model.h"

namespace cz {

// One outcome for the whole file: proved iff every layer is; the first refuted layer's
// counterexample (a state, confirmed exactly); report["arch_layers"] lists each layer's verdict.
// Throws InputError (exit 2) when the file records no architecture layer, or over budget.
AlgebraOutcome run_arch_algebra(const Model& m, const std::string& file, const AlgebraOptions& o);

}  // namespace cz
