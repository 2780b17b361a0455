#include "circuits/port_match.h"

#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "circuits/io.h"
#include "util/error.h"
#include "util/text.h"

namespace cz::circuits {

namespace {

std::string normalised(const std::string& s) {
  std::string r = s;
  for (char& ch : r)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return r;
}

// perm[k] = the position in `b` of the port matching a's port k, when the names determine it.
std::optional<std::vector<std::size_t>> by_names(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                                 bool normalise) {
  if (a.size() != b.size()) return std::nullopt;
  std::map<std::string, std::size_t> at;
  for (std::size_t k = 0; k < b.size(); ++k)
    if (!at.emplace(normalise ? normalised(b[k]) : b[k], k).second) return std::nullopt;  // a name twice
  std::vector<std::size_t> perm(a.size());
  std::vector<char> used(b.size(), 0);
  for (std::size_t k = 0; k < a.size(); ++k) {
    auto it = at.find(normalise ? normalised(a[k]) : a[k]);
    if (it == at.end() || used[it->second]) return std::nullopt;
    used[it->second] = 1;
    perm[k] = it->second;
  }
  return perm;
}

std::vector<std::size_t> match(const std::vector<std::string>& a, const std::vector<std::string>& b, std::string& how) {
  if (auto p = by_names(a, b, false)) {
    how = "by name";
    return *p;
  }
  if (auto p = by_names(a, b, true)) {
    how = "by normalised name";
    return *p;
  }
  how = "by position";
  std::vector<std::size_t> id(b.size());
  for (std::size_t k = 0; k < id.size(); ++k) id[k] = k;
  return id;
}

bool identity(const std::vector<std::size_t>& p) {
  for (std::size_t k = 0; k < p.size(); ++k)
    if (p[k] != k) return false;
  return true;
}

}  // namespace

Circuit match_ports(const Circuit& a, Circuit b, PortMatch& how) {
  std::vector<std::string> ai, bi, ao, bo;
  for (std::size_t k = 0; k < a.num_inputs(); ++k) ai.push_back(a.input_name(k));
  for (std::size_t k = 0; k < b.num_inputs(); ++k) bi.push_back(b.input_name(k));
  for (const auto& o : a.outputs()) ao.push_back(o.name);
  for (const auto& o : b.outputs()) bo.push_back(o.name);
  const std::vector<std::size_t> pin = match(ai, bi, how.inputs), pout = match(ao, bo, how.outputs);
  if (identity(pin) && identity(pout)) return b;  // moved out (Circuit is move-only)
  // In circuit-json, positions 0..I-1 are the inputs and every operand is a position: moving
  // input perm[k] to position k renumbers those operands and nothing else.
  nlohmann::json j = circuit_to_json(b, false);
  const std::size_t I = bi.size();
  std::vector<std::size_t> new_pos(I);
  for (std::size_t k = 0; k < I; ++k) new_pos[pin[k]] = k;
  auto renumber = [&](nlohmann::json& v) {
    const std::size_t x = v.get<std::size_t>();
    if (x < I) v = new_pos[x];
  };
  nlohmann::json ins = nlohmann::json::array(), types = nlohmann::json::array();
  for (std::size_t k = 0; k < I; ++k) {
    ins.push_back(j["inputs"][pin[k]]);
    if (j.contains("input_types")) types.push_back(j["input_types"][pin[k]]);
  }
  j["inputs"] = ins;
  if (j.contains("input_types")) j["input_types"] = types;
  for (auto& g : j["gates"]) {
    for (const char* key : {"a", "b"})
      if (g.contains(key)) renumber(g[key]);
    if (g.contains("bit"))
      for (const char* key : {"x", "y", "z"})
        if (g["bit"].contains(key)) renumber(g["bit"][key]);
  }
  nlohmann::json outs = nlohmann::json::array();
  for (std::size_t k = 0; k < pout.size(); ++k) {
    nlohmann::json o = j["outputs"][pout[k]];
    renumber(o["gate"]);
    outs.push_back(o);
  }
  j["outputs"] = outs;
  return circuit_from_json(j, "the reordered circuit");
}

Circuit rename_ports(const Circuit& names, const Circuit& c, const std::string& where) {
  if (names.num_inputs() != c.num_inputs() || names.outputs().size() != c.outputs().size())
    throw InputError("the circuit has " + std::to_string(c.num_inputs()) + " inputs and " + std::to_string(c.outputs().size()) +
                         " outputs; the names file has " + std::to_string(names.num_inputs()) + " and " +
                         std::to_string(names.outputs().size()) + " (names are given by position)",
                     where);
  nlohmann::json j = circuit_to_json(c, false);
  std::set<std::string> seen_in, seen_out;
  for (std::size_t k = 0; k < names.num_inputs(); ++k) {
    if (!seen_in.insert(names.input_name(k)).second) throw InputError("input name '" + printable(names.input_name(k)) + "' repeats", where);
    j["inputs"][k] = names.input_name(k);
  }
  for (std::size_t k = 0; k < names.outputs().size(); ++k) {
    if (!seen_out.insert(names.outputs()[k].name).second)
      throw InputError("output name '" + printable(names.outputs()[k].name) + "' repeats", where);
    j["outputs"][k]["name"] = names.outputs()[k].name;
  }
  return circuit_from_json(j, where);
}

}  // namespace cz::circuits
