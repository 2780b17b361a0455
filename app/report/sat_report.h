// The report of a `verify --method sat` run (contract.md "verify --method sat"): the engine's
// outcome (app/engine/sat/sat_path.h) with tool, version, the counterexample, claims and timing, as
// `--json` writes it and as the Python module's verify(..., method="sat") returns it.
#pragma once
#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_path.h"

namespace cz {

nlohmann::json sat_report_json(const SatOutcome& r);

}  // namespace cz
