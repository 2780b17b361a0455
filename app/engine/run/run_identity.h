// What makes two runs the same run (issue 13): the construction, its parameters (defaults filled
// in), the domain (kind, description, size, seed) and the build of the tool. Shards merge and
// checkpoints resume only into a run with the same identity; anything else is refused.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "verify/construction.h"

namespace cz {

// A digest of this executable's bytes (/proc/self/exe), as 16 hex digits, with the version: a
// rebuilt tool is another build. Computed once.
const std::string& build_id();

nlohmann::json run_identity(const Construction& c, const Params& params, const Check& check, const DomainOptions& opts);

// The options a run was made with, as stored in shard reports (merge rebuilds the check from them).
// Reading them back is strict (exact counts, booleans): InputError (where) otherwise.
nlohmann::json options_json(const DomainOptions& opts);
DomainOptions options_from_json(const nlohmann::json& j, const std::string& where);

// A stored identity against this run's: "" when they agree (each field as written), else which
// field differs and how (values cut short).
std::string identity_mismatch(const nlohmann::json& stored, const nlohmann::json& mine);

}  // namespace cz
