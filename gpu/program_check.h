// The device path of a recurrent program on SD instances (issue 12): a DeviceProgram whose twin
// runs the bytecode interpreter (gpu/program_kernel.h) on the CPU threads and whose cuda() runs
// it one instance per GPU thread (gpu/program_launch.h). Used by sd/recurrent-jrt (on its exported
// program file, constructions/sd/alg3_export.cpp) and by `verify --program FILE --task sd`.
#pragma once
#include <memory>

#include "gpu/program_code.h"
#include "gpu/sd_pairs.h"
#include "verify/construction.h"

namespace cz::gpu {

// nullptr when the program and the domain disagree on n (the device generates the domain's
// instances and runs the program's rows on them).
std::shared_ptr<const DeviceProgram> program_device(const ProgramCode& code, const SdShape& shape, bool exact_min_state);

}  // namespace cz::gpu
