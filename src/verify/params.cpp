#include "verify/params.h"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "util/error.h"
#include "util/suggest.h"
#include "util/text.h"

namespace cz {

ParamSpec int_param(std::string name, std::int64_t def, std::int64_t min, std::int64_t max, std::string help) {
  ParamSpec p;
  p.name = std::move(name);
  p.kind = ParamSpec::Integer;
  p.default_value = std::to_string(def);
  p.min = min;
  p.max = max;
  p.help = std::move(help);
  return p;
}

ParamSpec choice_param(std::string name, std::string def, std::vector<std::string> choices, std::string help) {
  ParamSpec p;
  p.name = std::move(name);
  p.kind = ParamSpec::Choice;
  p.default_value = std::move(def);
  p.choices = std::move(choices);
  p.help = std::move(help);
  return p;
}

ParamSpec with_aliases(ParamSpec p, std::vector<std::string> aliases) {
  p.aliases = std::move(aliases);
  return p;
}

ParamSpec only_when(ParamSpec p, std::string when) {
  p.when = std::move(when);
  return p;
}

bool param_applies(const ParamSpec& p, const std::map<std::string, std::string>& values) {
  if (p.when.empty()) return true;
  const auto eq = p.when.find('=');
  const auto it = values.find(p.when.substr(0, eq));
  if (eq == std::string::npos || it == values.end()) return true;
  const std::string alts = "|" + p.when.substr(eq + 1) + "|";
  return alts.find("|" + it->second + "|") != std::string::npos;
}

std::string canonical_param(const std::vector<ParamSpec>& schema, const std::string& name) {
  for (const auto& s : schema)
    if (std::find(s.aliases.begin(), s.aliases.end(), name) != s.aliases.end()) return s.name;
  return name;
}

Params Params::parse(const std::vector<ParamSpec>& schema, const std::map<std::string, std::string>& given_in) {
  Params out;
  // zoology's names (ParamSpec::aliases, issue 26 item 9) become ours; both at once is refused.
  std::map<std::string, std::string> given;
  for (const auto& [k, v] : given_in) {
    std::string name = k;
    for (const auto& s : schema)
      if (std::find(s.aliases.begin(), s.aliases.end(), k) != s.aliases.end()) name = s.name;
    if (name != k && given_in.count(name))
      throw InputError("'" + printable(k) + "' is zoology's name for '" + name + "': give one of them", "-p " + printable(k + "=" + v));
    given[name] = v;
  }
  for (const auto& [k, v] : given) {
    bool known = false;
    for (const auto& s : schema) known |= s.name == k;
    if (!known) {
      std::string names;
      std::vector<std::string> all;
      for (const auto& s : schema) {
        names += (names.empty() ? "" : ", ") + s.name;
        all.push_back(s.name);
        all.insert(all.end(), s.aliases.begin(), s.aliases.end());
      }
      throw InputError("unknown parameter '" + printable(k) + "' (known: " + (names.empty() ? "none" : names) + ")" +
                           did_you_mean(printable(k), all),
                       "-p " + printable(k + "=" + v));
    }
  }
  for (const auto& s : schema) {
    auto it = given.find(s.name);
    const std::string v = it == given.end() ? s.default_value : it->second;
    const std::string where = "-p " + printable(s.name + "=" + v);
    if (s.kind == ParamSpec::Integer) {
      // an optional '-' and digits only (std::stoll alone would take " 5", "+5"), within int64
      const std::size_t digits_at = !v.empty() && v[0] == '-' ? 1 : 0;
      const bool digits = v.size() > digits_at && v.find_first_not_of("0123456789", digits_at) == std::string::npos;
      std::int64_t x = 0;
      bool in_range = digits;
      if (digits) {
        try {
          x = std::stoll(v);
        } catch (const std::out_of_range&) {
          in_range = false;
        }
      }
      if (!digits) throw InputError("'" + s.name + "' must be an integer", where);
      if (!in_range)
        throw InputError("'" + s.name + "' must lie in [" + std::to_string(s.min) + ", " + std::to_string(s.max) + "]", where);
      if (x < s.min || x > s.max)
        throw InputError("'" + s.name + "' must lie in [" + std::to_string(s.min) + ", " + std::to_string(s.max) + "]", where);
      out.values_[s.name] = std::to_string(x);
      out.is_int_[s.name] = true;
    } else {
      bool ok = false;
      std::string all;
      for (const auto& c : s.choices) { ok |= c == v; all += (all.empty() ? "" : "|") + c; }
      if (!ok) throw InputError("'" + s.name + "' must be one of " + all, where);
      out.values_[s.name] = v;
      out.is_int_[s.name] = false;
    }
  }
  return out;
}

std::int64_t Params::i(const std::string& key) const { return std::stoll(values_.at(key)); }
const std::string& Params::s(const std::string& key) const { return values_.at(key); }

nlohmann::json Params::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : values_) {
    if (is_int_.at(k)) j[k] = std::stoll(v);
    else j[k] = v;
  }
  return j;
}

Params Params::only(const std::vector<std::string>& keys) const {
  Params p;
  for (const auto& k : keys)
    if (auto it = values_.find(k); it != values_.end()) {
      p.values_[k] = it->second;
      p.is_int_[k] = is_int_.at(k);
    }
  return p;
}

Params Params::with(const std::string& key, const std::string& value) const {
  Params p = *this;
  p.values_[key] = value;
  return p;
}

std::pair<std::string, std::string> split_kv(const std::string& kv, const std::string& flag) {
  auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError("expected KEY=VALUE, got '" + printable(kv) + "'", flag);
  return {kv.substr(0, eq), kv.substr(eq + 1)};
}

}  // namespace cz
