#include "app/engine/run/part_report.h"

#include <algorithm>
#include <map>

#include "app/engine/run/read_back.h"
#include "app/engine/run/run_identity.h"
#include "model/model_json.h"
#include "util/error.h"

namespace cz {

namespace {
constexpr const char* kWhat = "a shard report (write parts with verify --shard I/K --json)";
constexpr std::uint64_t kMaxShards = std::uint64_t{1} << 32;  // as --shard accepts (app/engine/run/shard.h)

std::string of(const ShardSpec& s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }
}  // namespace

nlohmann::json read_part_json(const std::string& text, const std::string& file) {
  JsonLimits limits;
  limits.max_string = kReadBackMaxString;
  limits.keep_keys = {"shard", "instances", "passed", "failed", "device"};
  return parse_json_input(text, file, limits);
}

nlohmann::json read_part_file(const std::string& file) { return read_part_json(read_back_file(file, kPartMaxBytes, kWhat), file); }

ShardPart read_part(const std::string& file, const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("shard") || !j["shard"].is_object())
    throw InputError("not a shard report (no `shard` object: write parts with verify --shard I/K --json)", file);
  const nlohmann::json& s = j["shard"];
  ShardPart p;
  p.file = file;
  p.spec.count = exact_uint(s, "count", "shard.count", file);
  p.spec.index = exact_uint(s, "index", "shard.index", file);
  if (p.spec.count == 0 || p.spec.count > kMaxShards || p.spec.index >= p.spec.count)
    throw InputError("shard " + of(p.spec) + " is not one of 0 <= index < count <= 2^32", file);
  p.begin = exact_uint(s, "begin", "shard.begin", file);
  p.end = exact_uint(s, "end", "shard.end", file);
  p.domain_instances = exact_uint(s, "domain_instances", "shard.domain_instances", file);
  const auto [lo, hi] = shard_range(p.spec, p.domain_instances);
  if (p.begin != lo || p.end != hi)
    throw InputError("its range [" + std::to_string(p.begin) + ", " + std::to_string(p.end) + ") is not that of shard " +
                         of(p.spec) + " of " + std::to_string(p.domain_instances) + " instances",
                     file);
  const std::uint64_t n = exact_uint(j, "instances", "instances", file);
  p.result.failed = exact_uint(j, "failed", "failed", file);
  p.result.first = exact_uint_or_null(s, "first_failure", "shard.first_failure", file);
  if (n != p.end - p.begin) throw InputError("instances do not match its range", file);
  if (j.contains("passed") && exact_uint(j, "passed", "passed", file) + p.result.failed != n)
    throw InputError("inconsistent shard report (passed + failed != instances)", file);
  const bool first_ok = !p.result.first || (*p.result.first >= p.begin && *p.result.first < p.end);
  if (p.result.failed > n || !first_ok || (p.result.failed > 0) != p.result.first.has_value())
    throw InputError("inconsistent shard report (counts outside its range)", file);
  p.device = j.contains("device") ? bounded_string(j, "device", "device", file) : "cpu";
  p.identity = s.contains("identity") ? s["identity"] : nlohmann::json();
  if (!p.identity.is_object()) throw InputError("malformed shard identity (want an object)", file);
  bounded_string(p.identity, "construction", "shard.identity.construction", file);
  if (!p.identity.contains("params") || !p.identity["params"].is_object())
    throw InputError("malformed shard identity (want params as an object)", file);
  if (p.identity.contains("instances") && exact_uint(p.identity, "instances", "shard.identity.instances", file) != p.domain_instances)
    throw InputError("shard.domain_instances differs from its identity's instances", file);
  p.options = s.contains("options") ? s["options"] : nlohmann::json();
  if (!p.options.is_object()) throw InputError("malformed shard options (want an object)", file);
  return p;
}

std::vector<ShardPart> check_tiling(std::vector<ShardPart> parts, std::uint64_t instances) {
  if (parts.empty()) throw InputError("no shard reports given", "merge");
  const ShardPart& p0 = parts.front();
  const std::uint64_t K = p0.spec.count;
  std::map<std::uint64_t, const ShardPart*> by_index;
  for (const ShardPart& p : parts) {
    const std::string why = identity_mismatch(p.identity, p0.identity);
    if (!why.empty()) throw InputError("a part of another run than " + p0.file + ": " + why, p.file);
    if (p.options.dump() != p0.options.dump())
      throw InputError("made with other options than " + p0.file + ": " + json_brief(p.options), p.file);
    if (p.spec.count != K) throw InputError("a part of " + std::to_string(p.spec.count) + " shards among parts of " + std::to_string(K), p.file);
    if (p.domain_instances != instances)
      throw InputError("a part of a domain of " + std::to_string(p.domain_instances) + " instances, this run has " +
                           std::to_string(instances),
                       p.file);
    auto [it, fresh] = by_index.emplace(p.spec.index, &p);
    if (!fresh) throw InputError("shard " + of(p.spec) + " given twice (also " + it->second->file + ")", p.file);
  }
  // Each range is that of its index (read_part), each index is below K and given once: all K
  // present means the ranges tile [0, instances).
  if (by_index.size() != K) {
    std::uint64_t i = 0;
    while (by_index.count(i)) ++i;  // the first missing one (at most parts.size() steps)
    throw InputError("shard " + std::to_string(i) + "/" + std::to_string(K) + " is missing (" + std::to_string(by_index.size()) +
                         " of " + std::to_string(K) + " parts given)",
                     "merge");
  }
  std::sort(parts.begin(), parts.end(), [](const ShardPart& a, const ShardPart& b) { return a.spec.index < b.spec.index; });
  return parts;
}

}  // namespace cz
