// `verify --device cpu|cuda|auto|twin` (issue 12): which engine path runs a check.
//   cpu   the CPU engine (block path, else scalar), as without --device;
//   cuda  the check's DeviceProgram on the current CUDA device, driven by one host thread per
//         process (per rank under mpirun); exit 2 when the build or machine has no device, or
//         the construction has no device path;
//   auto  cuda when both a device and a device path exist, else cpu;
//   twin  the device path's kernel bodies on the CPU threads (what CI runs; the GPU's verdicts
//         must be these bytes).
// Shards, checkpoints and MPI ranks work the same on every device: the device path is a block
// worker like any other, and the counterexample is always rebuilt through the scalar run(k).
#pragma once
#include <string>

#include "verify/construction.h"

namespace cz {

struct DevicePath {
  Check check;          // the check with its block path replaced as asked
  unsigned threads = 1; // host threads to run it on
  std::string device;   // the report's `device`: "cpu", "cpu-twin" or "cuda:0 (NVIDIA H200, sm_90)"
};

// The flag alone, before anything is built: InputError (where "--device") for an unknown value,
// or cuda on a build or machine without a device (the reason). choose_device calls it too.
void check_device_flag(const std::string& device);

// Throws InputError (where "--device") as check_device_flag does, or for a device path asked of a
// construction (`name`) that has none.
DevicePath choose_device(const Check& check, const DomainOptions& opts, unsigned threads, const std::string& name);

}  // namespace cz
