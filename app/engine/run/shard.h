// Shards (issue 13): `verify ... --shard I/K` checks the I-th of K contiguous parts of the domain
// and writes a part report; `circuitzoo merge` turns the K parts into the report one process
// would have written (app/engine/run/merge.h). For Slurm job arrays or any scheduler.
#pragma once
#include <cstdint>
#include <string>
#include <utility>

namespace cz {

struct ShardSpec {
  std::uint64_t index = 0, count = 1;
};

// "I/K" with 0 <= I < K and 1 <= K <= 2^32; InputError (where = `where`) otherwise.
ShardSpec parse_shard(const std::string& text, const std::string& where = "--shard");

// Part I of K of [0, total): [floor(I·total/K), floor((I+1)·total/K)), so parts tile the domain
// and differ in size by at most one. Requires index < count (std::logic_error otherwise).
std::pair<std::uint64_t, std::uint64_t> shard_range(const ShardSpec& s, std::uint64_t total);

}  // namespace cz
