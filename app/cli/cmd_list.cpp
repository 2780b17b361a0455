// `circuitzoo list [NAME] [--json]`: the constructions, their parameters (defaults) and methods.
// `list NAME` (issue 49 item 9): one construction's parameters, each with its meaning (help text),
// default, range or choices, zoology's names and the `when` condition under which it means
// something; `--json` the same as one object (the entry of `list --json`).
#include <iomanip>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "util/error.h"

namespace cz::cli {

namespace {
using json = nlohmann::json;

// What a special default means, where the help text says so as "(DEFAULT: meaning; ...)" or
// "(DEFAULT: meaning)": e.g. c=0 of mqar/attention "triples c = n, zoology c = N + 2". "" none.
std::string default_meaning(const json& p) {
  if (p.value("kind", "") != "int") return "";
  const std::string help = p.value("help", ""), def = p.value("default", "");
  const std::size_t at = help.find("(" + def + ": ");
  if (at == std::string::npos) return "";
  std::string out;
  int depth = 0;
  for (std::size_t i = at + def.size() + 3; i < help.size(); ++i) {
    const char ch = help[i];
    if (depth == 0 && (ch == ')' || ch == ';')) return out;
    depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
    out += ch;
  }
  return out;
}

std::string text_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

void print_one(std::ostream& out, const json& k) {
  out << k["name"].get<std::string>() << ": " << k["summary"].get<std::string>() << "\n";
  out << "  task: " << k["task"].get<std::string>() << " (`circuitzoo tasks " << k["task"].get<std::string>()
      << "`)   methods:";
  for (const auto& m : k["methods"]) out << " " << m.get<std::string>();
  out << "\n  parameters (-p KEY=VALUE; shown at their defaults):\n";
  for (const auto& p : k["params"]) {
    const std::string head = p["name"].get<std::string>() + "=" + p["default"].get<std::string>();
    std::string range;
    if (p["kind"] == "int") {
      range = text_of(p["min"]) + ".." + text_of(p["max"]);
    } else {
      range = "one of";
      for (const auto& c : p["choices"]) range += " " + c.get<std::string>();
    }
    if (p.contains("when")) range += "; only when " + p["when"].get<std::string>();
    if (p.contains("aliases")) {
      range += "; also";
      for (const auto& a : p["aliases"]) range += " " + a.get<std::string>();
    }
    out << "    " << std::left << std::setw(20) << head << " " << range << "\n";
    out << "        " << p["help"].get<std::string>() << "\n";
    if (const std::string m = default_meaning(p); !m.empty())
      out << "        default " << head << ": " << m << "\n";
  }
}
}  // namespace

int cmd_list(const Common& c) {
  check_outputs({{"--json", c.json_path}});
  const json arr = registry_json();
  if (!c.name.empty()) {
    (void)find_construction(c.name);  // an unknown NAME: the usual message (with a suggestion), exit 2
    const json* one = nullptr;
    for (const auto& k : arr)
      if (k["name"] == c.name) one = &k;
    if (!c.json_path.empty()) {
      emit_json(*one, c.json_path);
      if (to_stdout(c.json_path)) return 0;
    }
    print_one(std::cout, *one);
    return 0;
  }
  if (!c.json_path.empty()) {
    emit_json(arr, c.json_path);
    if (to_stdout(c.json_path)) return 0;
  }
  for (const auto& k : arr) {
    // At least one space after a name longer than the column (it ran into its summary).
    std::cout << std::left << std::setw(23) << k["name"].get<std::string>() << " " << k["summary"].get<std::string>() << "\n    params:";
    std::string meanings;
    for (const auto& p : k["params"]) {
      std::cout << " " << p["name"].get<std::string>() << "=" << p["default"].get<std::string>();
      if (const std::string m = default_meaning(p); !m.empty())
        meanings += (meanings.empty() ? "" : "; ") + p["name"].get<std::string>() + "=" + p["default"].get<std::string>() + ": " + m;
    }
    if (!meanings.empty()) std::cout << "\n    defaults: " << meanings;
    std::cout << "\n    methods:";
    for (const auto& m : k["methods"]) std::cout << " " << m.get<std::string>();
    std::cout << "\n";
  }
  std::cout << "(`circuitzoo list NAME`: each parameter's meaning, range and default)\n";
  return 0;
}

}  // namespace cz::cli
