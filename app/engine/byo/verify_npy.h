// `verify NAME --from-npy INPUTS LABELS` (contract.md): runs the batch check that
// verify/mqar_check.h prepares from a zoology batch through the engine, and times it with the
// reading of the files included. `verify --model FILE --task mqar --from-npy INPUTS LABELS`
// (issue 49 item 13): the same check of a user's model (run_task_npy_check).
#pragma once
#include <map>
#include <string>

#include "app/engine/byo/byo.h"
#include "app/engine/engine.h"

namespace cz {

Report run_verify_npy(const Construction& c, std::map<std::string, std::string> given, const DomainOptions& opts,
                      const std::string& inputs_path, const std::string& labels_path);

// A user's model (or circuit) against task mqar on a zoology batch: the task's parameters filled
// from the batch as for a construction (layout=zoology, N, kv; c from a one-hot model's width, else
// 1 + the largest token or label), the artifact's answer decoded at every labelled position and
// compared with the label (and the reference's answer with the label), reported as
// run_task_check reports a file.
Report run_task_npy_check(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                          const DomainOptions& opts, const std::string& inputs_path, const std::string& labels_path);

}  // namespace cz
