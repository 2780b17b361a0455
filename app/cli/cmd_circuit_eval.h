// `circuit FILE --eval INPUT.json` and `circuit FILE --equiv-model MODEL.json` (issue 15).
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "circuits/circuit.h"

namespace cz::cli {

// {"input": PATH, "outputs": [{"name", "value"}...], "output": [[...]] when outputs are y[i][j]}.
// INPUT.json: {"input": [v, ...]} in input order, or rows [[...], ...] flattened row-major; values
// are JSON integers, decimal strings or "p/q". Evaluation is exact over Q. `given`: that JSON itself
// (the Python module), named by input_path or "input".
nlohmann::json circuit_eval_json(const circuits::Circuit& c, const std::string& input_path, const nlohmann::json* given = nullptr);
// {"file", "equivalent", "instances", "method", "counterexample"?}: every 0/1 input (<= 24 inputs).
nlohmann::json circuit_equiv_model_json(const circuits::Circuit& c, const std::string& model_path, unsigned threads);

}  // namespace cz::cli
