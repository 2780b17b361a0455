// libFuzzer harness: `-p KEY=VALUE` parsing. Each input line is one -p argument: split_kv, then
// Params::parse against a fixed schema shaped like the constructions' (integers with bounds,
// choices), then every accessor the constructions use.
#include <map>
#include <nlohmann/json.hpp>

#include "fuzz/fuzz_common.h"
#include "verify/params.h"

namespace {
const std::vector<cz::ParamSpec>& schema() {
  static const std::vector<cz::ParamSpec> s = {
      cz::int_param("N", 8, 1, 4096, "sequence length"),
      cz::int_param("d", 2, 1, 1024, "width"),
      cz::int_param("c", 4, 2, 1 << 20, "vocabulary"),
      cz::int_param("s", 0, -64, 64, "shift"),
      cz::choice_param("encoding", "onehot", {"onehot", "binary", "phot"}, "encoding"),
      cz::choice_param("conv", "causal", {"causal", "cyclic", "anticausal"}, "convolution"),
  };
  return s;
}
}  // namespace

void fuzz_one(const std::string& text) {
  std::map<std::string, std::string> given;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    auto [k, v] = cz::split_kv(text.substr(pos, nl - pos), "-p");
    given[k] = v;
    pos = nl + 1;
  }
  cz::Params p = cz::Params::parse(schema(), given);
  for (const auto& spec : schema()) {
    if (spec.kind == cz::ParamSpec::Integer) {
      const auto v = p.i(spec.name);
      if (v < spec.min || v > spec.max) cz::fuzz::finding("Params::parse let a value past its bounds");
    } else {
      (void)p.s(spec.name);
    }
  }
  (void)p.to_json().dump();
}
