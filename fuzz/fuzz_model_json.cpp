// libFuzzer harness: the model-json reader (model/model_json.h) with the limits read_model_file
// applies (values counted before parsing, duplicate keys, per-layer fields and lengths: issue 36),
// then write -> read back. Seeds in tests/fuzz/model_json: BaseConv, MLP, Fp, K-matrix and every
// architecture layer kind.
#include <nlohmann/json.hpp>

#include "fuzz/fuzz_common.h"
#include "model/model_json.h"

void fuzz_one(const std::string& text) {
  cz::JsonLimits limits;
  limits.max_values = cz::kModelMaxValues;
  cz::Model m = cz::model_from_json(cz::parse_json_input(text, "fuzz.json", limits), "fuzz.json");
  (void)cz::count_params(m);
  const std::string out = cz::model_to_json(m).dump(1);
  cz::Model back = cz::model_from_json(cz::parse_json_input(out, "roundtrip.json", limits), "roundtrip.json");
  if (cz::model_to_json(back).dump(1) != out) cz::fuzz::finding("model-json write -> read is not stable");
}
