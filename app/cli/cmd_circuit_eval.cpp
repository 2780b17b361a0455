// `circuit FILE --eval INPUT.json` (exact evaluation over Q) and `circuit FILE --equiv-model
// MODEL.json` (the circuit against a model on every 0/1 input), issue 15. Called by cmd_circuit.
#include "app/cli/cmd_circuit_eval.h"

#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "circuits/equiv.h"
#include "circuits/eval.h"
#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz::cli {

nlohmann::json circuit_eval_json(const circuits::Circuit& c, const std::string& path, const nlohmann::json* given) {
  const std::string input_path = path.empty() ? "input" : path;
  if (c.ring().rfind("Fp", 0) == 0)
    throw InputError("--eval evaluates over Q; this circuit is over " + c.ring(), "--eval " + input_path);
  const nlohmann::json in = given ? *given : read_json_file(input_path, kModelMaxBytes, "an input file", JsonLimits{kJsonMaxDepth, 0, {}, kModelMaxValues});
  if (!in.is_object() || !in.contains("input") || !in["input"].is_array())
    throw InputError("want {\"input\": [v, ...]} (one value per input) or {\"input\": [[...], ...]} (rows)", input_path);
  // Rows [[...], ...] are flattened row-major (as `export` names inputs u[i][j]).
  std::vector<Rat> x;
  std::size_t idx = 0;
  for (const auto& e : in["input"]) {
    if (e.is_array()) {
      std::size_t j = 0;
      for (const auto& v : e) x.push_back(rat_from_json(v, input_path + ": input[" + std::to_string(idx) + "][" + std::to_string(j++) + "]"));
    } else {
      x.push_back(rat_from_json(e, input_path + ": input[" + std::to_string(idx) + "]"));
    }
    ++idx;
  }
  if (x.size() != c.num_inputs())
    throw InputError("the circuit has " + std::to_string(c.num_inputs()) + " inputs; the file gives " + std::to_string(x.size()) +
                         " values",
                     input_path);
  circuits::Evaluator<RingQ> ev(RingQ{}, c);
  const std::vector<Rat> y = ev(x);
  nlohmann::json outs = nlohmann::json::array();
  for (std::size_t k = 0; k < y.size(); ++k) outs.push_back({{"name", c.outputs()[k].name}, {"value", rat_to_json(y[k])}});
  nlohmann::json j = {{"input", input_path}, {"outputs", outs}};
  // Outputs named y[i][j] (a compiled model's, a task circuit's): also as the N×d matrix.
  std::size_t rows = 0, cols = 0;
  std::vector<std::pair<std::size_t, std::size_t>> cells;
  for (const auto& o : c.outputs()) {
    unsigned long i = 0, jj = 0;
    char tail = 0;
    if (std::sscanf(o.name.c_str(), "y[%lu][%lu]%c", &i, &jj, &tail) != 2) return j;
    cells.emplace_back(i, jj);
    rows = std::max<std::size_t>(rows, i + 1);
    cols = std::max<std::size_t>(cols, jj + 1);
  }
  if (rows * cols != y.size()) return j;
  nlohmann::json m = nlohmann::json::array();
  for (std::size_t i = 0; i < rows; ++i) m.push_back(nlohmann::json::array());
  std::vector<std::vector<nlohmann::json>> grid(rows, std::vector<nlohmann::json>(cols));
  for (std::size_t k = 0; k < y.size(); ++k) grid[cells[k].first][cells[k].second] = rat_to_json(y[k]);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t jj = 0; jj < cols; ++jj) {
      if (grid[i][jj].is_null()) return j;  // a repeated name: no matrix
      m[i].push_back(grid[i][jj]);
    }
  j["output"] = m;
  return j;
}

nlohmann::json circuit_equiv_model_json(const circuits::Circuit& c, const std::string& model_path, unsigned threads) {
  const Model m = read_model_file(model_path);
  // The model maps N×d inputs u[i][j] to N×d outputs y[i][j]: the circuit must have those counts
  // (a mismatch is a usage error, exit 2, not a "not equivalent").
  if (c.num_inputs() != m.N * m.d || c.outputs().size() != m.N * m.d)
    throw InputError("the model maps " + std::to_string(m.N) + "×" + std::to_string(m.d) + " inputs to as many outputs (" +
                         std::to_string(m.N * m.d) + " each); the circuit has " + std::to_string(c.num_inputs()) + " inputs and " +
                         std::to_string(c.outputs().size()) + " outputs",
                     "--equiv-model " + model_path);
  circuits::EquivResult r;
  try {
    r = circuits::equivalent_on_01(c, m, threads);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what(), "--equiv-model " + model_path);
  }
  nlohmann::json j = {{"file", model_path}, {"equivalent", r.equivalent}, {"instances", r.instances}, {"method", r.method}};
  if (r.counterexample)
    j["counterexample"] = {{"instance", r.counterexample->instance}, {"inputs", r.counterexample->inputs},
                           {"output", r.counterexample->output}, {"circuit", r.counterexample->want},
                           {"model", r.counterexample->got}};
  return j;
}

}  // namespace cz::cli
