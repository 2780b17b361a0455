// Construction parameters: a schema (name, kind, default, bounds, help) and the validated
// values from `-p KEY=VALUE`. Unknown keys and bad values are InputErrors naming the flag.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace cz {

struct ParamSpec {
  std::string name;
  enum Kind { Integer, Choice } kind = Integer;
  std::string default_value;
  std::int64_t min = 0, max = 0;          // Integer bounds (inclusive)
  std::vector<std::string> choices;       // Choice values
  std::string help;
  std::vector<std::string> aliases;       // other names accepted for it (zoology's: vocab_size, ...)
  // "KEY=V1|V2": the parameter means something only when parameter KEY has one of these values
  // (e.g. zoology's N only in layout=zoology); human output leaves it out otherwise. "" always.
  std::string when;
};

ParamSpec int_param(std::string name, std::int64_t def, std::int64_t min, std::int64_t max, std::string help);
ParamSpec choice_param(std::string name, std::string def, std::vector<std::string> choices, std::string help);
// The same spec, also accepted under `aliases` (zoology's names, issue 26 item 9).
ParamSpec with_aliases(ParamSpec p, std::vector<std::string> aliases);
// The same spec, meaningful only when `when` ("KEY=V1|V2") holds (ParamSpec::when).
ParamSpec only_when(ParamSpec p, std::string when);
// Whether `p` means something for these parameter values (KEY -> VALUE as text): its `when` holds.
bool param_applies(const ParamSpec& p, const std::map<std::string, std::string>& values);
// Our name for `name` in `schema`: the spec whose alias it is, else `name` itself.
std::string canonical_param(const std::vector<ParamSpec>& schema, const std::string& name);

class Params {
 public:
  // Validates `given` (KEY -> VALUE) against the schema and fills in defaults.
  static Params parse(const std::vector<ParamSpec>& schema, const std::map<std::string, std::string>& given);
  std::int64_t i(const std::string& key) const;
  std::size_t u(const std::string& key) const { return static_cast<std::size_t>(i(key)); }
  const std::string& s(const std::string& key) const;
  nlohmann::json to_json() const;
  Params with(const std::string& key, const std::string& value) const;  // no re-validation
  Params only(const std::vector<std::string>& keys) const;              // those keys that it has

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> is_int_;
};

// Splits "KEY=VALUE" (the -p flag); throws InputError.
std::pair<std::string, std::string> split_kv(const std::string& kv, const std::string& flag);

}  // namespace cz
