// Helpers shared by the --method sat problem builders (sat_mqar.cpp, sat_words.cpp,
// sat_model_path.cpp) and the solver driver (sat_solve.cpp).
#include "app/engine/sat/sat_problem.h"

#include <unordered_map>

#include "circuits/bit_infer.h"
#include "util/error.h"

namespace cz {

namespace ref = circuits::reference;

std::vector<std::string> sat_output_names(const circuits::Circuit& c) {
  std::vector<std::string> v;
  for (const auto& o : c.outputs()) v.push_back(o.name);
  return v;
}

Int sat_power(Int b, std::size_t e) {
  Int r(1);
  for (std::size_t k = 0; k < e; ++k) r *= b;
  return r;
}

nlohmann::json sat_count_json(const Int& x) {
  if (x.fits_int64()) return x.to_int64();
  return x.str();
}

// The input bits in the artifact's input order (the circuit's inputs are matched to the task's by
// name, as the miter matches them).
std::vector<std::string> sat_task_input_names(const ref::Checker& ch) {
  std::vector<std::string> v;
  for (std::size_t k = 0; k < ch.task_inputs; ++k) v.push_back(ch.circuit.input_name(k));
  return v;
}
std::vector<std::int64_t> sat_artifact_inputs(const circuits::Circuit& a, const std::vector<std::string>& names,
                                          const std::vector<int>& bits) {
  std::unordered_map<std::string, std::size_t> at;
  for (std::size_t k = 0; k < names.size(); ++k) at.emplace(names[k], k);
  std::vector<std::int64_t> in(a.num_inputs());
  for (std::size_t k = 0; k < a.num_inputs(); ++k) in[k] = bits[at.at(a.input_name(k))];
  return in;
}

// Runs a one-instance check through the engine (the same run/shrink path `verify` reports).
std::optional<Failure> sat_engine_failure(const Check& check, std::uint64_t k) {
  RunPlan plan;
  plan.begin = k;
  plan.end = k + 1;
  plan.scalar = true;
  BlockResult br = run_range(check, 1, "sat-confirm", plan);
  if (!br.first) return std::nullopt;
  RunResult rr = with_counterexample(check, br);
  Failure f = rr.first->second;
  f.instance["index"] = rr.first->first;
  return check.shrink ? check.shrink(f) : f;
}

nlohmann::json sat_head_of(const std::string& name, const Params& p, const Built& bt) {
  nlohmann::json j = {{"construction", name}, {"params", p.to_json()}};
  j["circuit"] = bt.circuit;
  return j;
}

std::shared_ptr<const circuits::Circuit> sat_bit_circuit(std::shared_ptr<const circuits::Circuit> c, const std::string& where) {
  if (c->all_inputs_bit() && c->all_outputs_bit()) return c;
  auto b = std::make_shared<const circuits::Circuit>(circuits::infer_bits(*c));
  if (!b->all_outputs_bit())
    throw InputError("--method sat needs an all-Bit circuit: this file has Field wires, and bit inference (on 0/1 inputs) "
                     "could not certify every output as 0/1",
                     where);
  return b;
}

}  // namespace cz
