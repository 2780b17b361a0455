#include "verify/parts.h"

#include <map>

#include "model/model_json.h"

namespace cz {

namespace {
std::map<std::string, PartsFactory>& factories() {
  static std::map<std::string, PartsFactory> m;
  return m;
}
}  // namespace

bool register_parts(const std::string& construction, PartsFactory f) {
  factories()[construction] = std::move(f);
  return true;
}

const PartsFactory* find_parts(const std::string& construction) {
  auto it = factories().find(construction);
  return it == factories().end() ? nullptr : &it->second;
}

namespace {
std::map<std::string, ProgramFactory>& programs() {
  static std::map<std::string, ProgramFactory> m;
  return m;
}
}  // namespace

bool register_program(const std::string& construction, ProgramFactory f) {
  programs()[construction] = std::move(f);
  return true;
}

const ProgramFactory* find_program(const std::string& construction) {
  auto it = programs().find(construction);
  return it == programs().end() ? nullptr : &it->second;
}

namespace {
std::map<std::string, ReductionFactory>& reductions() {
  static std::map<std::string, ReductionFactory> m;
  return m;
}
}  // namespace

bool register_reduction(const std::string& construction, ReductionFactory f) {
  reductions()[construction] = std::move(f);
  return true;
}

const ReductionFactory* find_reduction(const std::string& construction) {
  auto it = reductions().find(construction);
  return it == reductions().end() ? nullptr : &it->second;
}

nlohmann::json parts_to_json(const std::string& construction, const nlohmann::json& params, const Parts& p) {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& m : p.models)
    stages.push_back({{"name", m.name}, {"reads", m.reads}, {"data_dependent", m.data_dependent}, {"model", model_to_json(m.model)}});
  return {{"format", "circuitzoo.models/1"}, {"construction", construction}, {"params", params}, {"instance", p.instance},
          {"input", p.input}, {"notes", p.notes}, {"stages", stages}};
}

}  // namespace cz
