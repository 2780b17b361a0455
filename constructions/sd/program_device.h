// The device path (issue 12) of a recurrent program file on an SD domain: the file compiled to
// bytecode (gpu/program_code.h) run on the domain's instances generated where they are checked
// (gpu/sd_pairs.h). sd/recurrent-jrt gives it its exported program (alg3_export.cpp), so the
// device runs the EXPORTED artifact; `verify --program FILE --task sd` gives it the user's file.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "constructions/sd/domain.h"
#include "verify/construction.h"

namespace cz::sdc {

// nullptr (no device path: the CPU engine checks it) when the domain's sets can exceed the
// device's per-thread arrays or the program its fixed state (gpu/program_code.h); *why says which.
std::shared_ptr<const DeviceProgram> sd_program_device(const nlohmann::json& program, const std::string& source,
                                                       const SdDomain& dom, bool exact_min_state, std::string* why = nullptr);

}  // namespace cz::sdc
