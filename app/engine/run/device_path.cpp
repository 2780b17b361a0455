#include "app/engine/run/device_path.h"

#include "gpu/device.h"
#include "util/error.h"

namespace cz {

namespace {
void need_program(const Check& check, const std::string& name, const std::string& device) {
  if (!check.device)
    throw InputError(name + " has no device path (--device " + device +
                         " runs constructions whose check has one; use --device cpu or auto)",
                     "--device");
}
}  // namespace

void check_device_flag(const std::string& device) {
  if (device != "cpu" && device != "cuda" && device != "auto" && device != "twin")
    throw InputError("unknown device '" + device + "' (cpu | cuda | auto | twin)", "--device");
  if (device == "cuda" && !gpu::cuda_device().present) throw InputError(gpu::cuda_device().why_not, "--device");
}

DevicePath choose_device(const Check& check, const DomainOptions& opts, unsigned threads, const std::string& name) {
  const std::string want = opts.device.empty() ? std::string("cpu") : opts.device;
  check_device_flag(want);
  DevicePath out{check, threads, "cpu"};
  std::string use = want;
  if (want == "auto") use = (check.device && !opts.scalar && gpu::cuda_device().present) ? "cuda" : "cpu";
  if (use == "cpu") return out;
  if (opts.scalar) throw InputError("--scalar is the CPU reference path: drop --device " + want, "--scalar");
  need_program(check, name, use);
  std::shared_ptr<const DeviceProgram> prog = check.device;
  if (use == "twin") {
    out.check.block = [prog] { return prog->twin(); };
    out.check.block_size = prog->twin_block();
    out.check.block_kind = "cpu twin of the device path: " + prog->kind();
    out.device = "cpu-twin";
  } else {
    out.check.block = [prog] { return prog->cuda(); };
    out.check.block_size = prog->cuda_block();
    out.check.block_kind = "cuda: " + prog->kind();
    out.threads = 1;  // one host thread drives the device; the kernels bring the parallelism
    out.device = gpu::cuda_device().label();
  }
  return out;
}

}  // namespace cz
