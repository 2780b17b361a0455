#include "app/cli/circuit_artifact.h"

#include <nlohmann/json.hpp>

#include "circuits/builder.h"
#include "circuits/model_to_circuit.h"
#include "circuits/stats.h"

namespace cz::cli {

CircuitArtifact circuit_of(const Built& b, std::size_t cap) {
  CircuitArtifact a;
  if (b.circuit_ir) {
    a.circuit = b.circuit_ir;
    a.origin = "circuit";
    return a;
  }
  if (!b.model) {
    a.skipped = "the construction builds neither a circuit nor a model";
    return a;
  }
  try {
    a.circuit = std::make_shared<const circuits::Circuit>(circuits::model_to_circuit(*b.model, cap));
    a.origin = "compiled from model";
  } catch (const circuits::TooManyGates&) {
    a.skipped = "the compiled circuit would exceed " + std::to_string(cap) + " gates (skipped)";
  } catch (const std::invalid_argument& e) {
    a.skipped = e.what();
  }
  return a;
}

nlohmann::json circuit_stats_json(const Built& b, std::size_t cap) {
  if (!b.circuit_ir && !b.model) return nullptr;
  CircuitArtifact a = circuit_of(b, cap);
  if (!a.circuit) return {{"skipped", a.skipped}};
  nlohmann::json j = circuits::to_json(circuits::compute_stats(*a.circuit));
  if (a.origin != "circuit") j["compiled_from"] = "model";
  return j;
}

}  // namespace cz::cli
