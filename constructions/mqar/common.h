// Shared pieces of the MQAR constructions (mqar/attention, mqar/autocorrelation): the task
// parameters and their validation, the verification domain for given options, the reported
// instance of a data-dependent model, and exact evaluation of a per-instance model.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "exact/integer.h"
#include "model/eval.h"
#include "model/model.h"
#include "tasks/mqar.h"
#include "tasks/mqar_domain.h"
#include "verify/construction.h"
#include "verify/mqar_task.h"

namespace cz::mqarc {

// The task's parameters, shape, domain and reported instance live in core (verify/mqar_task.h),
// shared with the task registry; the constructions keep their old names.
using mqar::TaskShape;
using mqar::task_params;
using mqar::task_shape;
using mqar::domain_for;
using mqar::worst_case_instance;
using mqar::reported_instance;
using mqar::reported_instance_text;

// Exact evaluation of a Model: checked int64 first, the whole computation redone in Z on overflow.
Matrix<Int> eval_exact(const Model& m, const Matrix<std::int64_t>& u);

// Models store dense d'×d' weights (model/model.h); refuse widths beyond 8192 channels (67M
// weights per layer) with an InputError naming the parameter to lower, instead of exhausting memory.
void check_width(std::size_t inner_d, const std::string& what);

// Largest number of distinct query-key distances over the layout's domain (triples n-1, zoology K).
std::size_t max_distances(const TaskShape& s);

}  // namespace cz::mqarc
