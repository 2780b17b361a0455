// `circuitzoo merge PART.json...` (issue 13): the single-run report from shard reports.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/engine/merge.h"
#include "app/engine/part_report.h"
#include "app/report/report_json.h"
#include "util/error.h"

namespace cz::cli {

int cmd_merge(const MergeOptions& o) {
  if (o.parts.empty()) throw InputError("give the shard reports to merge", "merge");
  std::vector<std::pair<std::string, std::string>> inputs;
  for (const auto& p : o.parts) inputs.push_back({"merge", p});
  check_outputs({{"--json", o.json_path}}, inputs);
  std::vector<std::pair<std::string, nlohmann::json>> parts;
  for (const auto& p : o.parts) parts.emplace_back(p, read_part_file(p));  // bounded and strict (part_report.h)
  Report r = merge_shards(parts);
  std::ostream& human = human_stream(o.json_path, o.capture);
  print_table(human, {r}, o.wide);
  print_notes(human, r, o.wide, false);
  if (r.exit_code()) print_counterexample(error_stream(o.capture), r);
  if (json_wanted(o.json_path, o.capture)) deliver_json(to_json(r), o.json_path, o.capture);
  return r.exit_code();
}

}  // namespace cz::cli
