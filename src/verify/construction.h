// The registry of constructions (Yosys-style: each construction file registers itself with its
// help text). A construction declares its parameter schema, builds an artifact for given
// parameters (with the paper's claims beside what it achieved), and says how to check it: a
// domain of instances and a thread-safe per-instance check against an independent reference.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "verify/claim.h"
#include "verify/params.h"

namespace cz::circuits {
class Circuit;  // circuits/circuit.h (src/verify does not include circuits headers)
}

namespace cz {

struct Failure {
  nlohmann::json instance;  // what the instance is (index, task fields)
  nlohmann::json input;     // the input matrix
  nlohmann::json expected;  // reference answer
  nlohmann::json got;       // artifact's answer
  std::string message;      // one line: what went wrong
};

struct DomainOptions {
  bool force_exhaustive = false;
  std::optional<std::uint64_t> samples;  // force a sampled domain of this size
  std::uint64_t seed = 1;
  unsigned threads = 0;                  // 0: all cores
};

struct Check {
  std::string domain;                    // "exhaustive" | "sampled"
  std::uint64_t instances = 0;
  std::string description;               // e.g. "all {0,1}^(8x2) input matrices"
  std::vector<std::string> preconditions;
  // Checks instance k in [0, instances); must be thread-safe and depend only on k (and seed).
  std::function<std::optional<Failure>(std::uint64_t k)> run;
  // Optional: a smaller failing input from a failing one (cheap greedy shrinking).
  std::function<Failure(const Failure&)> shrink;
};

struct Built {
  std::optional<Model> model;            // when the artifact is (or compiles to) a model
  nlohmann::json circuit = nullptr;      // circuit stats, when the artifact is a circuit
  std::shared_ptr<const circuits::Circuit> circuit_ir;  // the circuit itself (for stats/export)
  nlohmann::json metrics = nlohmann::json::object();  // other measured quantities (state_bits, f, work...)
  // Wall-clock measurements (build_seconds, gates_per_second): reported under `timing` only, so
  // that everything else is byte-identical between runs (contract.md; `--no-timing` drops it).
  nlohmann::json timing = nlohmann::json::object();
  std::vector<Claim> claims;
  std::vector<std::string> notes;        // errata choices, conv mode, ...
  std::shared_ptr<const void> state;     // construction-private data for check()
};

struct Construction {
  std::string name;     // e.g. "primitive/shift_down"
  std::string task;     // e.g. "shift_down"
  std::string summary;  // one line of help
  std::vector<ParamSpec> params;
  std::function<Built(const Params&)> build;
  std::function<Check(const Params&, const Built&, const DomainOptions&)> check;
};

// Registers at static-initialisation time; returns true so it can initialise a static.
bool register_construction(Construction c);
const std::vector<Construction>& registry();
// Throws InputError (where = the name) for an unknown construction.
const Construction& find_construction(const std::string& name);

}  // namespace cz
