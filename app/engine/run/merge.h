// `circuitzoo merge part-*.json` (issue 13): K shard reports (`verify ... --shard I/K --json`)
// into the report one process would have written. The parts must be of one run (identity:
// construction, parameters, domain, seed, build) and cover every shard exactly once; anything
// else is refused, never merged into a partial verdict. The construction is rebuilt from the
// parts' parameters, and the counterexample of the smallest failing index rebuilt through its
// scalar check, as rank 0 does under mpirun.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/engine.h"

namespace cz {

// parts: (file name, parsed JSON) pairs, in any order.
Report merge_shards(const std::vector<std::pair<std::string, nlohmann::json>>& parts);

}  // namespace cz
