// Reports as JSON (contract.md "verify report") and as terminal tables.
#pragma once
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "verify/engine.h"

namespace cz {

inline constexpr const char* kVersion = "0.1.0";

nlohmann::json to_json(const Report& r);
nlohmann::json to_json(const Failure& f);
// One row per report: name, params, domain, instances, verdict, achieved vs claimed.
void print_table(std::ostream& os, const std::vector<Report>& reports);
// The counterexample in a few readable lines (stderr on failure).
void print_counterexample(std::ostream& os, const Report& r);

}  // namespace cz
