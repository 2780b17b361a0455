#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"

namespace cz::cli {

int cmd_list(const Common& c) {
  check_outputs({{"--json", c.json_path}});
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& k : registry()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : k.params) {
      nlohmann::json pj = {{"name", p.name}, {"default", p.default_value}, {"help", p.help}};
      if (p.kind == ParamSpec::Integer) { pj["kind"] = "int"; pj["min"] = p.min; pj["max"] = p.max; }
      else { pj["kind"] = "choice"; pj["choices"] = p.choices; }
      params.push_back(pj);
    }
    arr.push_back({{"name", k.name}, {"task", k.task}, {"summary", k.summary}, {"params", params}});
  }
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
