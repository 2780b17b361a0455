// libFuzzer harness: the model-json reader (model/model_json.h), then write -> read back.
#include <nlohmann/json.hpp>

#include "fuzz/fuzz_common.h"
#include "model/model_json.h"

void fuzz_one(const std::string& text) {
  cz::Model m = cz::model_from_json(cz::parse_json_input(text, "fuzz.json"), "fuzz.json");
  (void)cz::count_params(m);
  const std::string out = cz::model_to_json(m).dump(1);
  cz::Model back = cz::model_from_json(cz::parse_json_input(out, "roundtrip.json"), "roundtrip.json");
  if (cz::model_to_json(back).dump(1) != out) cz::fuzz::finding("model-json write -> read is not stable");
}
