// CLI glue for circuits: the circuit of a construction, for `stats` and `export`. A construction
// either hands over its circuit (Built::circuit_ir) or has a model, which is compiled into a
// circuit (circuits/model_to_circuit.h) under a gate cap; MLP layers and over-cap models give no
// circuit and a reason instead.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "circuits/circuit.h"
#include "verify/construction.h"

namespace cz::cli {

inline constexpr std::size_t kStatsCompileCap = 1000000;    // `stats`: skip compiling above 10^6 gates
inline constexpr std::size_t kExportCompileCap = 50000000;  // `export`: 5·10^7 gates

struct CircuitArtifact {
  std::shared_ptr<const circuits::Circuit> circuit;
  std::string origin;   // "circuit" | "compiled from model"
  std::string skipped;  // why there is no circuit
};

CircuitArtifact circuit_of(const Built& b, std::size_t cap);
// Stats JSON of the artifact's circuit ({"compiled_from": "model", ...} when compiled), or
// {"skipped": reason}; null when the construction has neither a circuit nor a model.
nlohmann::json circuit_stats_json(const Built& b, std::size_t cap = kStatsCompileCap);

}  // namespace cz::cli
