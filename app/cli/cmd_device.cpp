// `circuitzoo device [--json [PATH|-]]` (issue 12): whether this build has CUDA kernels, the device
// `verify --device cuda` would use (or why there is none), and which constructions have a device
// path at their default parameters (the others run on the CPU under --device auto).
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "gpu/device.h"
#include "verify/construction.h"

namespace cz::cli {

int cmd_device(const Common& c) {
  check_outputs({{"--json", c.json_path}});
  const gpu::DeviceInfo& d = gpu::cuda_device();
  nlohmann::json paths = nlohmann::json::array();
  for (const auto& k : registry()) {
    const Params params = Params::parse(k.params, {});
    const Built built = k.build(params);
    const Check check = k.check(params, built, DomainOptions{});
    if (check.device) paths.push_back({{"construction", k.name}, {"kind", check.device->kind()}});
  }
  nlohmann::json j = {{"built_with_cuda", gpu::built_with_cuda()}, {"present", d.present}, {"device_paths", paths}};
  if (d.present)
    j["device"] = {{"label", d.label()}, {"name", d.name}, {"index", d.index}, {"sm_count", d.sm_count},
                   {"compute_capability", std::to_string(d.major) + "." + std::to_string(d.minor)},
                   {"global_bytes", d.global_bytes}};
  else
    j["why_not"] = d.why_not;
  std::ostream& human = human_stream(c.json_path, c.capture);
  if (!c.capture.on() && (c.json_path.empty() || !to_stdout(c.json_path))) {
    human << "CUDA kernels: " << (gpu::built_with_cuda() ? "built" : "not built") << "\n"
          << "device:       " << (d.present ? d.label() : "none: " + d.why_not) << "\n"
          << "device paths (--device cuda|twin|auto; at default parameters):\n";
    if (paths.empty()) human << "  (none)\n";
    for (const auto& p : paths) human << "  " << p["construction"].get<std::string>() << ": " << p["kind"].get<std::string>() << "\n";
  }
  if (json_wanted(c.json_path, c.capture)) deliver_json(j, c.json_path, c.capture);
  return 0;
}

}  // namespace cz::cli
