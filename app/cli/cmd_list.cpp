#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"

namespace cz::cli {

int cmd_list(const Common& c) {
  check_outputs({{"--json", c.json_path}});
  const nlohmann::json arr = registry_json();
  if (!c.json_path.empty()) {
    emit_json(arr, c.json_path);
    if (to_stdout(c.json_path)) return 0;
  }
  for (const auto& k : registry()) {
    std::cout << std::left << std::setw(24) << k.name << k.summary << "\n    params:";
    for (const auto& p : k.params) std::cout << " " << p.name << "=" << p.default_value;
    std::cout << "\n";
  }
  return 0;
}

}  // namespace cz::cli
