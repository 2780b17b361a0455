// `circuitzoo check-proof DIR` (issue 38; contract.md "check-proof"): a --proof DIR checked
// offline by app/engine/sat_certificates.h, one line per miter, then the verdict.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/engine/sat_certificates.h"
#include "app/report/report_json.h"
#include "util/error.h"
#include "util/threads.h"

namespace cz::cli {

int cmd_check_proof(const CheckProofOptions& o) {
  check_outputs({{"--json", o.json_path}});
  CheckProofResult r = check_proof_dirs(o.dirs.empty() ? std::vector<std::string>{o.dir} : o.dirs, resolve_threads(o.threads));
  std::ostream& human = human_stream(o.json_path, o.capture);
  for (const auto& m : r.report["miters"])
    human << (m["verdict"] == "certified" ? "certified  " : "REJECTED   ") << m["what"].get<std::string>() << " ("
          << m["answer"].get<std::string>() << ", " << m["cnf"].get<std::string>() << ")"
          << (m["verdict"] == "certified" ? std::string() : ": " + m["verdict"].get<std::string>()) << "\n";
  if (r.report.contains("splits"))  // cube-and-conquer (issue 38): each split made again, its cubes all answered
    for (const auto& sp : r.report["splits"])
      if (sp["verdict"] != "certified")
        human << "REJECTED   split of " << sp["miter"].get<std::string>() << " at cube " << sp["cube"].dump() << ": " << sp["verdict"].get<std::string>() << "\n";
  human << r.report["construction"].get<std::string>() << "  " << r.report["params"].dump() << "  " << r.report["verdict"].get<std::string>()
        << "  (" << r.report["miters"].size() << " certificates"
        << (r.report.contains("splits") ? ", " + std::to_string(r.report["splits"].size()) + " splits into cubes" : std::string())
        << (r.report.contains("dirs") ? ", " + std::to_string(r.report["dirs"].size()) + " shards" : std::string()) << "; the re-encoded run: " << r.report["run_verdict"].get<std::string>() << ")\n";
  if (r.report.contains("why")) human << "  why: " << r.report["why"].get<std::string>() << "\n";
  nlohmann::json j = r.report;
  j["tool"] = "circuitzoo";
  j["version"] = kVersion;
  if (!timing_enabled()) j.erase("seconds");
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return r.exit_code;
}

}  // namespace cz::cli
