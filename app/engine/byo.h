// "Bring your own construction" (issue 15): a user's model-json or circuit file checked against a
// task (verify/task.h) on the task's domain, reported like a built-in construction: verdict,
// smallest counterexample, the file's measured costs (model N, L, d, N', d', params; circuit size,
// depth, width, degree) and beside them the paper's claims for the task (taken from the task's
// built-in construction, non-binding: the paper's numbers for the paper's construction).
#pragma once
#include <map>
#include <string>

#include "app/engine/engine.h"
#include "circuits/circuit.h"
#include "model/model.h"
#include "verify/task.h"

namespace cz {

// The artifact as an exact function, with its measured costs.
struct ByoArtifact {
  TaskArtifact fn;
  std::string kind;    // "model" | "circuit"
  std::string file, format;
  std::optional<Model> model;           // kind model: for the report's model summary
  nlohmann::json circuit = nullptr;     // kind circuit: circuit stats
  std::map<std::string, long long> measured;  // claim quantity -> achieved (layers, size, depth, ...)
};

// A model (ring Z, or Q with integral weights): InputError (where = file) otherwise.
ByoArtifact model_artifact(Model m, const std::string& file);
// A circuit with integral constants. Inputs named u[i][j] / outputs y[i][j] (row-major, as
// `export` names them) are placed by name; otherwise inputs and outputs are taken in file order,
// row-major. The shape is checked against the task's by run_task_check.
ByoArtifact circuit_artifact(std::shared_ptr<const circuits::Circuit> c, const std::string& file, const std::string& format);

// Fills parameters from the artifact where the task says so, checks that the artifact's shapes
// fit the task's (InputError "... needs ..." where = the file), runs the task's check through the
// engine (run_check) and returns the report (construction = the file, notes say the task).
Report run_task_check(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                      const DomainOptions& opts);

}  // namespace cz
