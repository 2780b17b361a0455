// `verify --model FILE --task arch` (issue 28; contract "Architecture layers"): the file's
// architecture layers, each stored expansion against the architecture's own exact evaluation
// (verify/arch_check.h), reported like a built-in construction (construction = the file).
#pragma once
#include <string>

#include "app/engine/engine.h"
#include "model/model.h"

namespace cz {

// InputError(file) when the model records no architecture layer (verify/arch_check.h).
Report run_arch_check(const Model& m, const std::string& file, const DomainOptions& opts);

}  // namespace cz
