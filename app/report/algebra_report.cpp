#include "app/report/algebra_report.h"

#include "app/report/report_json.h"

namespace cz {

nlohmann::json algebra_report_json(const AlgebraOutcome& r) {
  nlohmann::json j = {{"tool", "circuitzoo"}, {"version", kVersion}};
  j.update(r.report);
  j["counterexample"] = r.counterexample ? to_json(*r.counterexample) : nlohmann::json(nullptr);
  nlohmann::json cl = nlohmann::json::array();
  for (const auto& c : r.claims) cl.push_back(claim_json(c, r.verdict == "refuted"));
  j["claims"] = cl;
  complete_report(j);  // one shape for every method (report_json.h)
  return j;
}

}  // namespace cz
