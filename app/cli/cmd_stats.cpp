#include <chrono>
#include <iostream>

#include "app/cli/circuit_artifact.h"
#include "app/cli/commands.h"
#include "app/report/report_json.h"
#include "model/kmatrix_projection.h"
#include "model/model_json.h"
#include "util/error.h"

namespace cz::cli {

namespace {

// stats --model FILE: the file's shape and parameter counts, dense beside K-matrix.
int stats_of_file(const StatsOptions& c) {
  check_outputs({{"--json", c.json_path}}, {{"--model", c.model_file}});
  if (!c.params.empty()) throw InputError("-p applies to a construction, not to --model", "-p " + c.params[0]);
  const Model m = read_model_file(c.model_file);
  nlohmann::json model = model_summary(m);
  model.update(kmatrix_params_json(m));
  nlohmann::json j = {{"tool", "circuitzoo"}, {"version", kVersion}, {"model_file", c.model_file}, {"model", model}};
  if (json_wanted(c.json_path, c.capture)) {
    deliver_json(j, c.json_path, c.capture);
    if (to_stdout(c.json_path) || c.capture.on()) return 0;
  }
  std::cout << c.model_file << "\n  model:   " << model.dump() << "\n";
  return 0;
}

}  // namespace

int cmd_stats(const StatsOptions& c) {
  if (!c.model_file.empty() && !c.name.empty()) throw InputError("give a construction NAME or --model FILE, not both", "stats " + c.name);
  if (!c.model_file.empty()) return stats_of_file(c);
  if (c.name.empty()) throw InputError("stats needs a construction NAME or --model FILE", "command line");
  check_outputs({{"--json", c.json_path}});
  const Construction& k = find_construction(c.name);
  Params params = Params::parse(k.params, parse_params(c.params));
  const auto t0 = std::chrono::steady_clock::now();
  Built b = k.build(params);
  const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::json claims = nlohmann::json::array();
  for (const auto& cl : b.claims) claims.push_back(to_json(cl));
  nlohmann::json j = {{"tool", "circuitzoo"}, {"version", kVersion}, {"construction", k.name},
                      {"params", params.to_json()}, {"claims", claims}, {"notes", b.notes}};
  if (b.model) {
    j["model"] = model_summary(*b.model);
    // K-matrix projections counted by their factors beside the dense count (issue 28): the
    // structured W's (identity, monomial, sparse) get their forms here (with_kmatrix_forms).
    if (const auto kp = kmatrix_params_json(with_kmatrix_forms(*b.model)); !kp["kmatrix_projections"].empty()) j["model"].update(kp);
  }
  if (!b.circuit.is_null()) j["circuit"] = b.circuit;
  else if (auto cs = circuit_stats_json(b); !cs.is_null()) j["circuit"] = cs;  // a model compiled (capped)
  if (!b.metrics.empty()) j["metrics"] = b.metrics;
  if (timing_enabled()) j["timing"] = timing_json(build_s, b.timing);
  if (json_wanted(c.json_path, c.capture)) {
    deliver_json(j, c.json_path, c.capture);
    if (to_stdout(c.json_path) || c.capture.on()) return 0;
  }
  std::cout << k.name << "  " << params.to_json().dump() << "\n";
  if (b.model) std::cout << "  model:   " << j["model"].dump() << "\n";
  if (j.contains("circuit")) std::cout << "  circuit: " << j["circuit"].dump() << "\n";
  if (!b.metrics.empty()) std::cout << "  metrics: " << b.metrics.dump() << "\n";
  if (j.contains("timing")) std::cout << "  timing:  " << j["timing"].dump() << "\n";
  for (const auto& cl : claims)
    std::cout << "  claim:   " << cl["quantity"].get<std::string>() << " claimed " << cl["claimed"].get<std::string>()
              << " (" << cl["kind"].get<std::string>() << ", " << cl["source"].get<std::string>() << ") achieved "
              << cl["achieved"].dump() << " -> " << cl["status"].get<std::string>() << "\n";
  return 0;
}

}  // namespace cz::cli
