// A construction's artifact as a list of models for one instance (issue 15, item 4): data-
// dependent constructions (sd/based-jrt: the G.21 filter is read off G.20's output, the G.18 MLP
// is built from the first set) have no single model, so `export NAME --format models
// -p instance=k` writes every stage model that instance k of the default domain runs through,
// complete (the data-dependent ones included), with the prompt and what each stage reads.
// Constructions register a factory here (like register_mqar_solver); a construction with one
// model exports it as a one-stage list.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "verify/construction.h"

namespace cz {

struct ModelPart {
  std::string name;   // e.g. "g21-shift"
  std::string reads;  // what the stage is applied to, e.g. "the output of g21-insert"
  bool data_dependent = false;
  Model model;
};

struct Parts {
  nlohmann::json instance = nullptr;  // the task instance (index and fields)
  nlohmann::json input = nullptr;     // the first stage's input matrix
  std::vector<ModelPart> models;
  std::vector<std::string> notes;     // how the answer is read, where the kernel comes from, ...
};

// `instance` is the index into the construction's default domain.
using PartsFactory = std::function<Parts(const Params&, const Built&, std::uint64_t instance)>;
bool register_parts(const std::string& construction, PartsFactory f);
const PartsFactory* find_parts(const std::string& construction);

// {"format": "circuitzoo.models/1", "construction", "params", "instance", "input", "notes",
//  "stages": [{"name", "reads", "data_dependent", "model": model-json}]}
nlohmann::json parts_to_json(const std::string& construction, const nlohmann::json& params, const Parts& p);

// Recurrent algorithms as a program file (model/program_json.h): `export NAME --format program`.
using ProgramFactory = std::function<nlohmann::json(const Params&)>;
bool register_program(const std::string& construction, ProgramFactory f);
const ProgramFactory* find_program(const std::string& construction);

// Composite reductions as their parts (issue 15, item 4): `export NAME --format reduction
// [-p instance=k] -o PATH` writes
//   {"format": "circuitzoo.reduction/1", "construction", "params", "reduction" (e.g. "GAR -> SD"),
//    "source" (the paper's proposition), "map" (how an instance of one task becomes calls of the
//    other and how the answers come back), "parts" (the solver each call goes to: a construction
//    with its parameters and the command that exports it), "instance" (instance k of the default
//    domain: its calls, what the part answered to each, and the answers read back)}.
using ReductionFactory = std::function<nlohmann::json(const Params&, std::uint64_t instance)>;
bool register_reduction(const std::string& construction, ReductionFactory f);
const ReductionFactory* find_reduction(const std::string& construction);

}  // namespace cz
