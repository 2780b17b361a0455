// Certificates of scheduled runs (issue 38): what --proof DIR's index records of cubes and shards,
// and how check-proof reads it back (sat_certificates.cpp uses these; contract.md "Certificates").
//   "splits": every split of the run (sat_schedule.h SatScheduleLog::splits), sorted, so that the
//     same run writes the same bytes; check-proof replays exactly these splits (CubePlan).
//   "shard": "I/K" of a `--shard I/K --proof DIR_I` run; check-proof DIR_0 ... DIR_{K-1} takes the
//     union of K such directories of one run, each shard once.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_schedule.h"

namespace cz {

// <0, 0, >0 as a orders before, with, after b; runs of digits compare as numbers ("query 9" < "query 10").
int natural_compare(const std::string& a, const std::string& b);

// The index's "splits" from the scheduler's record: sorted by miter (natural order), CNF hash and
// parent cube, exact repeats (a miter of the same name and CNF split again in a later call) once.
nlohmann::json index_splits(const nlohmann::json& log_splits);

// An index's "splits" (absent in indexes before cubes: nothing) added to plan; InputError naming
// the entry on anything malformed or on two different splits of one miter and cube.
void read_index_splits(const nlohmann::json& idx, const std::string& ipath, CubePlan& plan);

// Several directories (or one index with "shard"): the indexes (path, JSON) must be the K shards
// of one run, each once, K = their number; InputError naming what is wrong or missing.
void check_shard_indexes(const std::vector<std::pair<std::string, nlohmann::json>>& idx);

}  // namespace cz
