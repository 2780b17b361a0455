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
  for (const auto& k : arr) {
    std::cout << std::left << std::setw(24) << k["name"].get<std::string>() << k["summary"].get<std::string>() << "\n    params:";
    for (const auto& p : k["params"]) std::cout << " " << p["name"].get<std::string>() << "=" << p["default"].get<std::string>();
    std::cout << "\n    methods:";
    for (const auto& m : k["methods"]) std::cout << " " << m.get<std::string>();
    std::cout << "\n";
  }
  return 0;
}

}  // namespace cz::cli
