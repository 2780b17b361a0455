// `verify NAME --from-npy INPUTS LABELS` (contract.md): runs the batch check that
// verify/mqar_check.h prepares from a zoology batch through the engine, and times it with the
// reading of the files included.
#pragma once
#include <map>
#include <string>

#include "app/engine/engine.h"

namespace cz {

Report run_verify_npy(const Construction& c, std::map<std::string, std::string> given, const DomainOptions& opts,
                      const std::string& inputs_path, const std::string& labels_path);

}  // namespace cz
