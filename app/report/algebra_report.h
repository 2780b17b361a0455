// The report of a `verify --method algebra` run (contract.md "verify --method algebra"): the
// engine's outcome (app/engine/algebra/algebra.h) with tool, version, the counterexample and claims.
#pragma once
#include <nlohmann/json.hpp>

#include "app/engine/algebra/algebra.h"

namespace cz {

nlohmann::json algebra_report_json(const AlgebraOutcome& r);

}  // namespace cz
