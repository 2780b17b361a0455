// libFuzzer harness: a merge part read back (app/engine/run/part_report.h, issue 25): bounded JSON,
// exact counts, its shard's range, its options; then the tiling check on the part alone (one
// shard of one: accepted only when it covers the whole domain) and on the part twice (refused).
#include <nlohmann/json.hpp>

#include "app/engine/run/part_report.h"
#include "app/engine/run/run_identity.h"
#include "fuzz/fuzz_common.h"

void fuzz_one(const std::string& text) {
  const nlohmann::json j = cz::read_part_json(text, "part.json");
  const cz::ShardPart p = cz::read_part("part.json", j);
  if (p.spec.index >= p.spec.count || p.begin > p.end || p.end > p.domain_instances || p.result.failed > p.end - p.begin)
    cz::fuzz::finding("read_part accepted a part outside its range");
  (void)cz::options_from_json(p.options, "part.json");
  try {
    cz::check_tiling({p, p}, p.domain_instances);
    cz::fuzz::finding("check_tiling accepted a part given twice");
  } catch (const cz::InputError& e) {
    cz::fuzz::check_message(e);
  }
  const auto tiled = cz::check_tiling({p}, p.domain_instances);
  if (tiled.size() != 1 || p.spec.count != 1 || p.begin != 0 || p.end != p.domain_instances)
    cz::fuzz::finding("check_tiling accepted one part that does not cover the domain");
}
