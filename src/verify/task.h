// Tasks as first-class objects (issue 15; `circuitzoo tasks`): what a construction is FOR,
// independently of any construction. A task states its parameters, how an instance is encoded
// into the input matrix u (which row/column holds what), how the output is decoded, its domains,
// and its independent reference (src/tasks). Where the task has a fixed input and output shape,
// it can also check ANY artifact that maps N×d inputs to outputs exactly (a user's model-json,
// a circuit file: `verify --model/--circuit FILE --task TASK`, app/engine/byo/byo.h) on the same
// domain the built-in constructions of the task use, so the counts agree with theirs.
//
// The registry is an explicit list (no static registration: src/ is a static archive, which
// would drop unreferenced registrations).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "exact/integer.h"
#include "tensor/matrix.h"
#include "verify/construction.h"

namespace cz {

// A user's artifact, seen only as an exact function of its input matrix.
struct TaskArtifact {
  std::size_t N = 0, d = 0;          // the input shape the artifact takes (rows × columns)
  std::size_t out_N = 0, out_d = 0;  // the output shape it returns
  std::string where;                 // the file, for error messages
  // Exact and thread-safe: y = artifact(u), out_N × out_d.
  std::function<Matrix<Int>(const Matrix<std::int64_t>&)> eval;
};

// The input and output shapes the task needs at given parameters.
struct TaskShapeNeed {
  std::size_t N = 0, d = 0, out_N = 0, out_d = 0;
  // Columns [out_d, out_d + out_optional) the task also judges where the artifact has them (MQAR's
  // found column, tasks/mqar.h): a circuit that outputs any of their cells returns out_d +
  // out_optional columns; a model never has them.
  std::size_t out_optional = 0;
  std::string optional_text;  // what they hold, e.g. "found column"
  std::string text;  // e.g. "N = 3n = 9 rows of d = c = 3 one-hot columns"
  // Tasks whose ports have their own names (sort: k<i>[b] in, key<i>[b], idx<i>[b] out; compare:
  // x[k], y[k] in, lt, eq, min[k], max[k] out): the name of each cell of the N×d input and of the
  // out_N×out_d output, row-major. Empty: the u[i][j] / y[i][j] grid. Where set, a circuit file
  // has exactly these ports, each once: a port the file lacks, or one the task does not have, is
  // refused by every method (app/engine/byo/byo.cpp place_circuit).
  std::vector<std::string> in_names, out_names;
};

struct Task {
  std::string name;      // e.g. "shift_down", "mqar"
  std::string summary;   // one line
  std::string semantics; // the exact statement (the reference's definition)
  std::vector<ParamSpec> params;
  std::string input_encoding;   // which row/column holds what
  std::string output_decoding;  // how the answer is read off the output
  std::vector<std::string> domains;  // exhaustive / sampled / --from-npy, as they apply
  std::string reference;             // the independent reference solver (file and function)
  std::vector<std::string> constructions;  // built-ins that solve it
  std::string claims_from;  // built-in whose paper claims are shown beside a user's artifact ("" none)
  // Why a user's file cannot be checked against this task here ("" when it can).
  std::string byo_unsupported;
  // Parameters a user's file fills in when -p does not give them (e.g. N and d of a primitive).
  std::function<void(std::map<std::string, std::string>& given, std::size_t N, std::size_t d)> fill_from_artifact;
  // The same from a circuit file's input names (sort: n and d from k<i>[b]; compare: d from x[k]).
  std::function<void(std::map<std::string, std::string>& given, const std::vector<std::string>& input_names)> fill_from_inputs;
  // Shapes at validated parameters; throws InputError on impossible parameters.
  std::function<TaskShapeNeed(const Params&)> shape;
  // The check of an artifact whose shapes fit (the caller has compared them with shape()).
  std::function<Check(const Params&, const TaskArtifact&, const DomainOptions&)> check;
  // Where set: one instance judged, u (N×d) the task input and y (out_N×out_d, placed as for check)
  // the artifact's answer; nullopt when right. The check's own per-instance verdict, shared with
  // --method sat's confirmation of a model found and the differential tests (task_words.cpp).
  std::function<std::optional<Failure>(const Params&, const Matrix<std::int64_t>& u, const Matrix<Int>& y)> judge;
  // Parameters that never change a check of a file (mqar's `instance`: which instance a built-in
  // model is reported for), and the task's reading of defaults (mqar: c = 0 is c = n): a report on
  // a user's file states what was checked (checked_params).
  std::vector<std::string> not_checked;
  std::function<Params(const Params&)> resolve;
  // The methods that check a user's artifact against this task, per artifact kind ("circuit",
  // "model", "program" -> "enumerate", "sat", "algebra"; a kind left out: none). The one statement
  // of it: `verify --circuit/--model/--program FILE --task` refuses a method not listed here before
  // dispatching (method_refusal), and `tasks --json` reports it as "methods".
  std::map<std::string, std::vector<std::string>> methods;
  // Operator tasks (hyena, h3, retnet, rwkv; task_operators.cpp, issue 47 item 3): what the
  // `--operator FILE` holds (a model-json file whose one layer is this kind of architecture layer,
  // with its weights), the reference being that operator's exact evaluation. "" for other tasks.
  std::string operator_file;
};

// The artifact kinds of Task::methods, in report order.
inline const std::vector<std::string>& artifact_kinds() {
  static const std::vector<std::string> k = {"circuit", "model", "program"};
  return k;
}
// "" when `method` checks a `kind` artifact against task t (Task::methods), else the refusal's text.
std::string method_refusal(const Task& t, const std::string& kind, const std::string& method);

// The parameters a check of a user's file ran on (issue 46 item 6): the task's parameters that
// apply at these values (ParamSpec::when: zoology's N and kv mean nothing for triples), less
// not_checked, defaults resolved. What every report on a user's file carries as `params`.
Params checked_params(const Task& t, const Params& p);

const std::vector<Task>& task_registry();
// Throws InputError("unknown task ...", where) listing the known tasks.
const Task& find_task(const std::string& name, const std::string& where = "--task");
// The `tasks --json` object of one task.
nlohmann::json to_json(const Task& t);

// The task entries, one file per family (task_primitives.cpp, task_mqar.cpp, task_others.cpp).
std::vector<Task> primitive_tasks();
std::vector<Task> mqar_tasks();
std::vector<Task> other_tasks();  // SD, GAR, EQ
std::vector<Task> word_tasks();   // sort, compare (task_words.cpp)
std::vector<Task> operator_tasks();  // hyena, h3, retnet, rwkv against an --operator FILE (task_operators.cpp)

}  // namespace cz
