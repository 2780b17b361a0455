// "Bring your own construction" (issue 15): a user's model-json or circuit file checked against a
// task (verify/task.h) on the task's domain, reported like a built-in construction: verdict,
// smallest counterexample, the file's measured costs (model N, L, d, N', d', params; circuit size,
// depth, width, degree) and beside them the paper's claims for the task (taken from the task's
// built-in construction, non-binding: the paper's numbers for the paper's construction).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

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
  std::shared_ptr<const circuits::Circuit> circuit_ir;  // kind circuit: the circuit itself
};

// A model (ring Z, or Q with integral weights): InputError (where = file) otherwise.
ByoArtifact model_artifact(Model m, const std::string& file);
// A circuit with integral constants. Inputs named u[i][j] / outputs y[i][j] (row-major, as
// `export` names them) are placed by name; otherwise inputs and outputs are taken in file order,
// row-major. The shape is checked against the task's by run_task_check (place_circuit).
ByoArtifact circuit_artifact(std::shared_ptr<const circuits::Circuit> c, const std::string& file, const std::string& format);

// Where a circuit's inputs and outputs sit in the task's N×d input and out_N×out_d output (issue 26):
// inputs must be the whole input grid (u[i][j] names, or exactly N·d unnamed inputs, row-major);
// outputs named y[i][j] may leave cells out (they read as 0 and are checked as 0), may have the
// task's optional columns (then judged, cells left out read as 0) and may add columns beyond them
// (not read; noted), never rows i >= out_N or a cell twice; unnamed outputs
// must be exactly the out_N·out_d cells, row-major. A task whose ports have their own names
// (TaskShapeNeed::in_names, out_names: sort, compare) takes exactly its ports, each once, by name:
// a missing or unknown port is refused. InputError (where = file) otherwise. The
// enumerating check and --method sat (app/engine/sat/sat_path.cpp) share this rule.
struct CircuitPlacement {
  std::vector<std::size_t> in_pos;   // input k -> row-major cell of u
  std::size_t in_cols = 0;
  std::vector<std::size_t> out_pos;  // output k -> row-major cell of y (out_cols wide), SIZE_MAX when not read
  std::size_t out_cols = 0;          // need.out_d, or need.out_d + need.out_optional when the file outputs an optional column
  std::vector<std::string> notes;    // cells left out, columns not read
};
CircuitPlacement place_circuit(const circuits::Circuit& c, const TaskShapeNeed& need, const std::string& task,
                               const std::string& file);
// The circuit's input names, in file order (Task::fill_from_inputs reads them).
std::vector<std::string> input_names(const circuits::Circuit& c);
// The circuit as the task's exact function u (N×d) -> y (out_rows × pl.out_cols), placed by `pl`
// (cells that are no output are 0). Thread-safe.
std::function<Matrix<Int>(const Matrix<std::int64_t>&)> placed_eval(std::shared_ptr<const circuits::Circuit> c,
                                                                   const CircuitPlacement& pl, std::size_t out_rows);

// Fills parameters from the artifact where the task says so, checks that the artifact's shapes
// fit the task's (InputError "... needs ..." where = the file), runs the task's check through the
// engine (run_check) and returns the report (construction = the file, notes say the task).
// `check`, where given, replaces the task's own check of the placed artifact (issue 49 item 13: a
// zoology batch, app/engine/byo/verify_npy.h); `given` then already holds what it implies.
Report run_task_check(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                      const DomainOptions& opts,
                      const std::function<Check(const Params&, const TaskArtifact&)>& check = {});

}  // namespace cz
