#include "app/engine/merge.h"

#include <chrono>
#include <map>
#include <set>

#include "app/engine/run_identity.h"
#include "app/engine/shard.h"
#include "util/error.h"

namespace cz {

namespace {
struct Part {
  std::string file;
  ShardSpec spec;
  std::uint64_t begin = 0, end = 0;
  BlockResult result;
};

// The `shard` object of a part report (InputError when there is none).
const nlohmann::json& shard_of(const std::string& file, const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("shard") || !j["shard"].is_object())
    throw InputError("not a shard report (no `shard` object: write parts with verify --shard I/K --json)", file);
  return j["shard"];
}

Part read_part(const std::string& file, const nlohmann::json& j, const nlohmann::json& identity, const nlohmann::json& options) {
  const nlohmann::json& s = shard_of(file, j);
  Part p;
  p.file = file;
  try {
    const std::string why = identity_mismatch(s.at("identity"), identity);
    if (!why.empty()) throw InputError("a part of another run: " + why, file);
    if (s.at("options") != options) throw InputError("made with other options: " + s.at("options").dump(), file);
    p.spec.index = s.at("index").get<std::uint64_t>();
    p.spec.count = s.at("count").get<std::uint64_t>();
    p.begin = s.at("begin").get<std::uint64_t>();
    p.end = s.at("end").get<std::uint64_t>();
    p.result.failed = j.at("failed").get<std::uint64_t>();
    if (!s.at("first_failure").is_null()) p.result.first = s.at("first_failure").get<std::uint64_t>();
    if (j.at("instances").get<std::uint64_t>() != p.end - p.begin) throw InputError("instances do not match its range", file);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("malformed shard report (") + e.what() + ")", file);
  }
  const bool first_ok = !p.result.first || (*p.result.first >= p.begin && *p.result.first < p.end);
  if (p.end < p.begin || p.result.failed > p.end - p.begin || !first_ok || (p.result.failed > 0) != p.result.first.has_value())
    throw InputError("inconsistent shard report (counts outside its range)", file);
  return p;
}

std::map<std::string, std::string> given_of(const nlohmann::json& params) {
  std::map<std::string, std::string> g;
  for (auto it = params.begin(); it != params.end(); ++it) g[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
  return g;
}
}  // namespace

Report merge_shards(const std::vector<std::pair<std::string, nlohmann::json>>& parts) {
  auto t0 = std::chrono::steady_clock::now();
  if (parts.empty()) throw InputError("no shard reports given", "merge");
  const auto& [file0, j0] = parts.front();
  const nlohmann::json& s0 = shard_of(file0, j0);
  const nlohmann::json identity = s0.value("identity", nlohmann::json()), options = s0.value("options", nlohmann::json());

  // Rebuild the run from the first part; its identity (build included) must be this tool's.
  if (!identity.is_object() || !identity.contains("construction") || !identity["construction"].is_string() ||
      !identity.contains("params") || !identity["params"].is_object())
    throw InputError("malformed shard identity", file0);
  const Construction& c = find_construction(identity["construction"].get<std::string>());
  DomainOptions opts;
  try {
    opts = options_from_json(options);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("malformed shard options (") + e.what() + ")", file0);
  }
  Params params = Params::parse(c.params, given_of(identity["params"]));
  Built built = c.build(params);
  Check check = c.check(params, built, opts);
  const std::string why = identity_mismatch(identity, run_identity(c, params, check, opts));
  if (!why.empty()) throw InputError("the parts are not of this tool's run: " + why, file0);

  std::map<std::uint64_t, Part> by_index;
  std::uint64_t K = 0;
  for (const auto& [file, j] : parts) {
    Part p = read_part(file, j, identity, options);
    if (K == 0) K = p.spec.count;
    if (p.spec.count != K)
      throw InputError("a part of " + std::to_string(p.spec.count) + " shards among parts of " + std::to_string(K), file);
    const auto [lo, hi] = shard_range(p.spec, check.instances);
    if (p.begin != lo || p.end != hi) throw InputError("its range is not that of shard " + std::to_string(p.spec.index) + "/" + std::to_string(K), file);
    auto [it, fresh] = by_index.emplace(p.spec.index, p);
    if (!fresh) throw InputError("shard " + std::to_string(p.spec.index) + "/" + std::to_string(K) + " given twice (also " + it->second.file + ")", file);
  }
  if (by_index.size() != K) {
    std::uint64_t i = 0;
    while (by_index.count(i)) ++i;  // the first missing one (at most parts.size() steps)
    throw InputError("shard " + std::to_string(i) + "/" + std::to_string(K) + " is missing (" + std::to_string(by_index.size()) +
                         " of " + std::to_string(K) + " parts given)",
                     "merge");
  }

  BlockResult all;
  for (const auto& [i, p] : by_index) all.merge(p.result);
  Report r = report_from_run(c, params, built, check, opts, with_counterexample(check, all));
  r.shards = static_cast<unsigned>(K);
  // What ran the parts (issue 12: parts may come from CPUs and GPUs): one name, or all of them.
  std::set<std::string> devices;
  for (const auto& [file, j] : parts)
    devices.insert(j.contains("device") && j["device"].is_string() ? j["device"].get<std::string>() : "cpu");
  r.device.clear();
  for (const auto& d : devices) r.device += (r.device.empty() ? "" : " + ") + d;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // the merge's own time
  return r;
}

}  // namespace cz
