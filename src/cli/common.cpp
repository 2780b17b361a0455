#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz::cli {

std::map<std::string, std::string> parse_params(const std::vector<std::string>& raw) {
  std::map<std::string, std::string> m;
  for (const auto& kv : raw) {
    auto [k, v] = split_kv(kv, "-p " + kv);
    if (m.count(k)) throw InputError("parameter '" + k + "' given twice", "-p " + kv);
    m[k] = v;
  }
  return m;
}

void emit_json(const nlohmann::json& j, const std::string& path) {
  if (path.empty()) return;
  if (path == "-") {
    std::cout << j.dump(2) << "\n";
    return;
  }
  write_file_atomic(path, j.dump(2) + "\n");
}

}  // namespace cz::cli
