// A user's model file checked against the MQAR task on the paths the built-ins use (issue 15: "through
// the block engine where it has landed"; issue 12): a batched int64 lane program with a static
// overflow bound (constructions/mqar/batch_model.h) as the block path, and the modular device path
// (gpu/modmodel_check.h) for --device cuda|twin|auto. Both decide exactly what the task's scalar
// check decides; instances the lane program cannot bound go through that scalar check.
#pragma once
#include "model/model.h"
#include "verify/construction.h"
#include "verify/params.h"

namespace cz {

// Adds the paths that fit (triples layout; BaseConv/LinearAttention layers with int64 integer
// weights); leaves `check` as it is otherwise.
void add_mqar_model_paths(const Params& p, const Model& m, const DomainOptions& o, Check& check);

}  // namespace cz
