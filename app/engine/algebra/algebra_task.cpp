#include "app/engine/algebra/algebra_task.h"

#include "app/engine/sat/sat_primitive_ref.h"
#include "tensor/conv_poly.h"  // conv() on symbols: before the evaluator is instantiated
#include "util/error.h"
#include "verify/symbolic_reference.h"

namespace cz {

bool algebra_task_covers(const Task& t) { return circuits::reference::is_integer_map(t.name); }

AlgebraOutcome run_task_algebra(const Task& t, std::map<std::string, std::string> given, const Model& m, const std::string& file,
                                const AlgebraOptions& o) {
  if (!algebra_task_covers(t))
    throw InputError("--method algebra proves a model file against a task that is a polynomial map (the primitives) or an operator "
                     "(--operator FILE); task " + t.name + " is neither",
                     "--task " + t.name);
  if (t.fill_from_artifact) t.fill_from_artifact(given, m.N, m.d);
  const Params p = Params::parse(t.params, given);
  const TaskShapeNeed need = t.shape(p);
  if (m.N != need.N || m.d != need.d)
    throw InputError("the model takes " + std::to_string(m.N) + "×" + std::to_string(m.d) + " inputs; task " + t.name + " needs " +
                         need.text,
                     file);
  const std::string task = t.name;
  const auto ref = make_symbolic_reference([task, p](const auto& r, const auto& u) { return circuits::reference::integer_map(task, p, r, u); },
                                           "the task's semantics (src/tasks/primitive_semantics.h, " + task + ")");
  nlohmann::json head = {{"construction", file},
                         {"params", checked_params(t, p).to_json()},
                         {"task", t.name},
                         {"artifact", {{"kind", "model"}, {"file", file}, {"format", "model-json"}}},
                         {"model", {{"ring", m.ring}, {"N", m.N}, {"d", m.d}, {"layers", m.layers.size()}, {"inner_N", m.inner_N},
                                    {"inner_d", m.inner_d}, {"conv", to_string(m.conv)}}},
                         {"notes", {"task " + t.name + ": your model (model-json) against the task's own semantics, on symbols"}}};
  return prove_model_identity(m, *ref, o, std::move(head), file);
}

}  // namespace cz
