// A shard's part report as `merge` reads it back (issue 25): every field merge uses, checked
// before anything is rebuilt from it. Apart from the construction (rebuilt by merge.cpp), this
// needs no registry, so the fuzz harness (fuzz/fuzz_part.cpp) runs exactly this code.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/run/shard.h"
#include "verify/construction.h"

namespace cz {

struct ShardPart {
  std::string file;
  ShardSpec spec;
  std::uint64_t begin = 0, end = 0, domain_instances = 0;
  BlockResult result;
  std::string device;               // what ran it ("cpu" when the part does not say)
  nlohmann::json identity, options; // the run it belongs to (app/engine/run/run_identity.h)
};

// The parsed JSON of a part file: at most kPartMaxBytes, a regular file, strings and nesting
// bounded; only the keys merge reads are kept (app/engine/run/read_back.h).
nlohmann::json read_part_json(const std::string& text, const std::string& file);
nlohmann::json read_part_file(const std::string& file);

// One part's fields, each an exact count within its range: index < count <= 2^32, begin/end that
// of shard index/count of domain_instances, instances = end - begin, failed <= instances, and a
// first failure inside [begin, end) exactly when failed > 0. InputError (where = file) otherwise.
ShardPart read_part(const std::string& file, const nlohmann::json& j);

// The parts tile [0, instances) exactly: one run (identity and options of the first part), one
// shard count, each index once and none missing, each range that of its index. Returns the parts
// ordered by index. InputError naming the offending part otherwise.
std::vector<ShardPart> check_tiling(std::vector<ShardPart> parts, std::uint64_t instances);

}  // namespace cz
