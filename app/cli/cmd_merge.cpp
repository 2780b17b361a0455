// `circuitzoo merge PART.json...` (issue 13): the single-run report from shard reports.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/engine/run/merge.h"
#include "app/engine/run/part_report.h"
#include "app/engine/run/read_back.h"
#include "app/engine/sat/sat_certificates.h"
#include "app/engine/sat/sat_parts.h"
#include "app/engine/sat/sat_path.h"
#include "verify/construction.h"
#include "app/report/report_json.h"
#include "util/error.h"

namespace cz::cli {

namespace {
// The one-process report replayed from the shards' results (nothing solved; SAT models are
// decoded and confirmed by the engine as in any run).
int merge_sat(const MergeOptions& o, const std::vector<std::pair<std::string, nlohmann::json>>& parts) {
  SatMerge m = read_sat_parts(parts, kVersion);
  VerifyOptions vo;
  vo.json_path = o.json_path;
  SatOutcome r = run_verify_sat(find_construction(m.construction), m.given, m.options);
  r.schedule = sat_schedule_json(m.options);
  r.schedule["shards"] = m.shards;
  // --certify (issue 38): merge says certified only when every shard checked its answers.
  if (m.certified_parts == m.shards) {
    r.report["sat"]["certified"] = m.certify.certified;
    r.report["sat"]["certify"] = certify_report_json(m.certify);
    r.report["sat"]["certify"]["shards"] = m.shards;
  } else if (m.certified_parts > 0) {
    r.report["sat"]["not_certified"] = m.uncertified + " was run without --certify (certified only when every shard was)";
  }
  return finish_sat(vo, r);
}
}  // namespace

int cmd_merge(const MergeOptions& o) {
  if (o.parts.empty()) throw InputError("give the shard reports to merge", "merge");
  std::vector<std::pair<std::string, std::string>> inputs;
  for (const auto& p : o.parts) inputs.push_back({"merge", p});
  check_outputs({{"--json", o.json_path}}, inputs);
  std::vector<std::pair<std::string, nlohmann::json>> parts;
  bool sat = false;  // --method sat parts (issue 38, app/engine/sat/sat_parts.h): all or none
  for (const auto& p : o.parts) {
    const std::string text = read_back_file(p, kPartMaxBytes, "a shard report (write parts with verify --shard I/K --json)");
    nlohmann::json j = read_sat_part_text(text, p);
    if (is_sat_part(j)) {
      if (!parts.empty() && !sat) throw InputError("a --method sat part among enumeration parts", p);
      sat = true;
      parts.emplace_back(p, std::move(j));
      continue;
    }
    if (sat) throw InputError("an enumeration part among --method sat parts", p);
    parts.emplace_back(p, read_part_json(text, p));  // bounded and strict (part_report.h)
  }
  if (sat) return merge_sat(o, parts);
  Report r = merge_shards(parts);
  std::ostream& human = human_stream(o.json_path, o.capture);
  print_table(human, {r}, o.wide);
  print_notes(human, r, o.wide, false);
  if (r.exit_code()) print_counterexample(error_stream(o.capture), r);
  if (json_wanted(o.json_path, o.capture)) deliver_json(to_json(r), o.json_path, o.capture);
  return r.exit_code();
}

}  // namespace cz::cli
