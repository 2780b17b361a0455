#include "verify/task.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/text.h"

namespace cz {

const std::vector<Task>& task_registry() {
  static const std::vector<Task> all = [] {
    std::vector<Task> v = primitive_tasks();
    for (auto* f : {&mqar_tasks, &other_tasks})
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
  if (!t.byo_unsupported.empty()) j["check_files_note"] = t.byo_unsupported;
  if (!t.claims_from.empty()) j["claims_from"] = t.claims_from;
  return j;
}

}  // namespace cz
