// `verify --model FILE --task T --method algebra` for a task that is a polynomial map (issue 47
// item 2: methods by artifact kind and task): a user's BaseConv model against the task's own
// semantics (the primitives: identity, shift_down, shift_up, cumsum, add, hadamard, remember;
// app/engine/sat/sat_primitive_ref.h integer_map, written from src/tasks/primitive_semantics.h) on
// every input of Q^(N×d), as `verify primitive/... --method algebra` proves the built-ins. N and d
// come from the file when -p does not give them; a refutation is a point where the model's exact
// output differs from the task's.
#pragma once
#include <map>
#include <string>

#include "app/engine/algebra/algebra.h"
#include "model/model.h"
#include "verify/task.h"

namespace cz {

// Whether --method algebra proves a model file against task t (a polynomial map with a symbolic reference).
bool algebra_task_covers(const Task& t);
// Throws InputError (exit 2) for another task, shapes that differ, or over budget.
AlgebraOutcome run_task_algebra(const Task& t, std::map<std::string, std::string> given, const Model& m, const std::string& file,
                                const AlgebraOptions& o);

}  // namespace cz
