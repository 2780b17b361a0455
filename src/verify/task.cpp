#include "verify/task.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/text.h"

namespace cz {

const std::vector<Task>& task_registry() {
  static const std::vector<Task> all = [] {
    std::vector<Task> v = primitive_tasks();
    for (auto* f : {&mqar_tasks, &other_tasks, &word_tasks, &operator_tasks})
      for (auto& t : f()) v.push_back(std::move(t));
    return v;
  }();
  return all;
}

const Task& find_task(const std::string& name, const std::string& where) {
  std::string known;
  for (const auto& t : task_registry()) {
    if (t.name == name) return t;
    known += (known.empty() ? "" : ", ") + t.name;
  }
  throw InputError("unknown task '" + quoted_value(name) + "' (known: " + known + "; see `circuitzoo tasks`)", quoted_value(where));
}

Params checked_params(const Task& t, const Params& p) {
  std::map<std::string, std::string> values;
  for (const auto& spec : t.params) values[spec.name] = p.s(spec.name);
  std::vector<std::string> keep;
  for (const auto& spec : t.params)
    if (param_applies(spec, values) && std::find(t.not_checked.begin(), t.not_checked.end(), spec.name) == t.not_checked.end())
      keep.push_back(spec.name);
  return t.resolve ? t.resolve(p).only(keep) : p.only(keep);
}

std::string method_refusal(const Task& t, const std::string& kind, const std::string& method) {
  auto it = t.methods.find(kind);
  const bool none = it == t.methods.end() || it->second.empty();
  if (!none && std::find(it->second.begin(), it->second.end(), method) != it->second.end()) return "";
  if (none && !t.byo_unsupported.empty()) return "task '" + t.name + "' cannot check a file yet: " + t.byo_unsupported;
  if (none) {  // the tasks that do check this kind of file
    std::string which;
    for (const auto& o : task_registry())
      if (auto m = o.methods.find(kind); m != o.methods.end() && !m->second.empty()) which += (which.empty() ? "" : ", ") + o.name;
    return "task '" + t.name + "' checks no " + kind + " file: a " + kind + " file is checked against task " +
           (which.empty() ? std::string("none") : which) + " only (see `circuitzoo tasks`)";
  }
  std::string has;
  for (const auto& m : it->second) has += (has.empty() ? "" : ", ") + m;
  return "--method " + method + " does not check a " + kind + " file against task " + t.name + " (a " + kind + " file: " + has +
         "; see `circuitzoo tasks " + t.name + "`)";
}

nlohmann::json to_json(const Task& t) {
  nlohmann::json ps = nlohmann::json::array();
  for (const auto& p : t.params) {
    nlohmann::json j = {{"name", p.name}, {"default", p.default_value}, {"help", p.help}};
    if (p.kind == ParamSpec::Choice) j["choices"] = p.choices;
    else j["range"] = {p.min, p.max};
    ps.push_back(j);
  }
  nlohmann::json j = {{"name", t.name},
                      {"summary", t.summary},
                      {"semantics", t.semantics},
                      {"params", ps},
                      {"input_encoding", t.input_encoding},
                      {"output_decoding", t.output_decoding},
                      {"domains", t.domains},
                      {"reference", t.reference},
                      {"constructions", t.constructions},
                      {"check_files", t.byo_unsupported.empty()}};
  // Per artifact kind, every kind present (an empty list: none), from Task::methods, which the
  // dispatcher of `verify FILE --task` reads too (method_refusal).
  nlohmann::json ms = nlohmann::json::object();
  for (const auto& kind : artifact_kinds()) {
    auto it = t.methods.find(kind);
    ms[kind] = it == t.methods.end() ? std::vector<std::string>{} : it->second;
  }
  j["methods"] = ms;
  if (!t.byo_unsupported.empty()) j["check_files_note"] = t.byo_unsupported;
  if (!t.claims_from.empty()) j["claims_from"] = t.claims_from;
  if (!t.operator_file.empty()) j["operator_file"] = t.operator_file;  // operator tasks: what --operator FILE holds
  return j;
}

}  // namespace cz
