// --method sat in shards (issue 38; contract.md "verify --method sat --shard"): `verify NAME
// --method sat --shard I/K --json PART` proves shard I's share of every schedule call's miters
// (app/engine/sat/sat_schedule.h shard_jobs) and writes a part file: the run (construction,
// parameters, options, tool version), every call's miter hashes and this shard's results.
// `circuitzoo merge PART...` checks that the parts are one run's K shards, each once, and replays
// the run with their results (nothing solved): the report one process would have written, SAT
// models decoded and confirmed by the engine as always.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_certify_counts.h"
#include "app/engine/sat/sat_path.h"
#include "app/engine/sat/sat_schedule.h"

namespace cz {

// The options a part records (those that change the miters or their results) and back.
nlohmann::json sat_part_options(const SatOptions& o);

// The part file of a shard's run (its outcome: what it found among its own miters).
nlohmann::json sat_part_json(const std::string& construction, const std::map<std::string, std::string>& given,
                             const SatOptions& o, const SatOutcome& out, const std::string& version);

// Whether a file's JSON is a --method sat part (it has "sat_part").
bool is_sat_part(const nlohmann::json& j);
// The text of a part file, parsed with bounds fit for SAT parts (models are long strings).
nlohmann::json read_sat_part_text(const std::string& text, const std::string& file);

struct SatMerge {
  std::string construction;
  std::map<std::string, std::string> given;
  SatOptions options;  // with parts->replay
  std::size_t shards = 0;
  // --certify (issue 38): the parts' checks summed; certified only when every part has them.
  CertifyCounts certify;
  std::size_t certified_parts = 0;
  std::string uncertified;  // the first part run without --certify ("" when none)
};
// The parts checked (one run, K shards each once, well-formed calls); InputError naming the file.
// version: this tool's (app/report kVersion); parts of another version are refused.
SatMerge read_sat_parts(const std::vector<std::pair<std::string, nlohmann::json>>& parts, const std::string& version);

}  // namespace cz
