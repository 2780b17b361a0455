#include <chrono>
#include <iostream>

#include "app/cli/circuit_artifact.h"
#include "app/cli/commands.h"
#include "app/report/human_format.h"
#include "app/report/report_json.h"
#include "model/kmatrix_projection.h"
#include "model/model_json.h"
#include "util/error.h"

namespace cz::cli {

namespace {
// The model's shape first on the human line: (N, L, d, N', d') and its parameter counts.
const std::vector<std::string> kModelFirst = {"N", "L", "d", "inner_N", "inner_d", "params_dense", "params_nonzero"};

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
  std::cout << c.model_file << "\n";
  print_wrapped(std::cout, "  model:   ", fields_text(model, kModelFirst), 11);
  return 0;
}

}  // namespace

int cmd_stats(const StatsOptions& c) {
  if (!c.model_file.empty() && !c.name.empty()) throw InputError("give a construction NAME or --model FILE, not both", "stats " + c.name);
  if (!c.model_file.empty()) return stats_of_file(c);
  if (c.name.empty()) throw_missing_name("stats needs a construction NAME or --model FILE", "command line", c.json_path);
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
  // Human lines (issue 39): the parameters the construction uses, and key=value fields instead of
  // JSON blobs; the JSON (--json) has every key.
  std::cout << k.name << "  " << params_text(k.name, j["params"], false) << "\n";
  if (b.model) print_wrapped(std::cout, "  model:   ", fields_text(j["model"], kModelFirst), 11);
  if (j.contains("circuit")) print_wrapped(std::cout, "  circuit: ", fields_text(j["circuit"], {"size", "depth", "width", "inputs", "outputs"}), 11);
  if (!b.metrics.empty()) print_wrapped(std::cout, "  metrics: ", fields_text(b.metrics), 11);
  if (j.contains("timing")) print_wrapped(std::cout, "  timing:  ", fields_text(j["timing"]), 11);
  for (const auto& cl : claims)
    print_wrapped(std::cout, "  claim:   ",
                  cl["quantity"].get<std::string>() + " claimed " + cl["claimed"].get<std::string>() + " (" +
                      cl["kind"].get<std::string>() + ", " + cl["source"].get<std::string>() + ") achieved " +
                      fields_text(cl["achieved"]) + " -> " + cl["status"].get<std::string>(),
                  11);
  return 0;
}

}  // namespace cz::cli
