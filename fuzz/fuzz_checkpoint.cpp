// libFuzzer harness: a checkpoint read back for --resume (app/engine/run/checkpoint.h, issue 25):
// bounded JSON, format and version, the run identity compared field by field, exact counts and
// their consistency, against the run of the seeds (primitive/shift_down -p N=8 -p d=2 -p s=3,
// with "build": "fuzz") over the whole domain and over its shard 1/3.
#include <nlohmann/json.hpp>

#include "app/engine/run/checkpoint.h"
#include "fuzz/fuzz_common.h"

namespace {
const nlohmann::json& identity() {
  static const nlohmann::json id = nlohmann::json::parse(R"({"build": "fuzz", "construction": "primitive/shift_down",
    "domain": "exhaustive", "domain_description": "all {0,1}^(8x2) input matrices", "instances": 65536,
    "params": {"N": 8, "conv": "causal", "d": 2, "range": 3, "s": 3}, "seed": 1})");
  return id;
}

void one_range(const std::string& text, std::uint64_t begin, std::uint64_t end) {
  try {
    const cz::CheckpointState s = cz::parse_checkpoint(text, "ck.json", identity(), begin, end);
    const auto& r = s.result;
    if (s.done_until < begin || s.done_until > end || r.failed > s.done_until - begin ||
        (r.first && (*r.first < begin || *r.first >= s.done_until)) || (r.failed > 0) != r.first.has_value())
      cz::fuzz::finding("parse_checkpoint accepted counts outside its range");
  } catch (const cz::InputError& e) {
    cz::fuzz::check_message(e);
  }
}
}  // namespace

void fuzz_one(const std::string& text) {
  one_range(text, 0, 65536);
  one_range(text, 21845, 43690);  // shard 1/3
}
