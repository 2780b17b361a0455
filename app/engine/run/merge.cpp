#include "app/engine/run/merge.h"

#include <chrono>
#include <set>

#include "app/engine/run/part_report.h"
#include "app/engine/run/run_identity.h"
#include "util/error.h"

namespace cz {

namespace {
std::map<std::string, std::string> given_of(const nlohmann::json& params) {
  std::map<std::string, std::string> g;
  for (auto it = params.begin(); it != params.end(); ++it) g[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
  return g;
}
}  // namespace

Report merge_shards(const std::vector<std::pair<std::string, nlohmann::json>>& files) {
  auto t0 = std::chrono::steady_clock::now();
  if (files.empty()) throw InputError("no shard reports given", "merge");
  std::vector<ShardPart> parts;
  for (const auto& [file, j] : files) parts.push_back(read_part(file, j));
  const ShardPart& p0 = parts.front();

  // Rebuild the run from the first part; its identity (build included) must be this tool's.
  const Construction& c = find_construction(p0.identity["construction"].get<std::string>());
  DomainOptions opts;
  try {
    opts = options_from_json(p0.options, p0.file);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("malformed shard options (") + e.what() + ")", p0.file);
  }
  Params params = Params::parse(c.params, given_of(p0.identity["params"]));
  Built built = c.build(params);
  Check check = c.check(params, built, opts);
  const std::string why = identity_mismatch(p0.identity, run_identity(c, params, check, opts));
  if (!why.empty()) throw InputError("the parts are not of this tool's run: " + why, p0.file);
  parts = check_tiling(std::move(parts), check.instances);

  BlockResult all;
  std::string first_file;  // the part that holds the smallest failing index
  for (const ShardPart& p : parts) {
    if (p.result.first && (!all.first || *p.result.first < *all.first)) first_file = p.file;
    all.merge(p.result);
  }
  Report r = report_from_run(c, params, built, check, opts, with_counterexample(check, all, first_file));
  r.shards = static_cast<unsigned>(parts.size());
  // What ran the parts (issue 12: parts may come from CPUs and GPUs): one name, or all of them.
  std::set<std::string> devices;
  for (const ShardPart& p : parts) devices.insert(p.device);
  r.device.clear();
  for (const auto& d : devices) r.device += (r.device.empty() ? "" : " + ") + d;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // the merge's own time
  return r;
}

}  // namespace cz
