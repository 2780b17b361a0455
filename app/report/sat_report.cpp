#include "app/report/sat_report.h"

#include "app/report/report_json.h"

namespace cz {

nlohmann::json sat_report_json(const SatOutcome& r) {
  nlohmann::json j = {{"tool", "circuitzoo"}, {"version", kVersion}};
  j.update(r.report);
  if (r.counterexample) j["counterexample"] = to_json(*r.counterexample);
  nlohmann::json cl = nlohmann::json::array();
  for (const auto& c : r.claims) cl.push_back(claim_json(c, r.verdict == "refuted"));
  j["claims"] = cl;
  if (timing_enabled()) j["timing"] = timing_json(r.seconds, r.timing);
  complete_report(j);  // one shape for every method (report_json.h)
  return j;
}

}  // namespace cz
