#include "app/cli/config_file.h"

#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/arg_checks.h"
#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/text.h"
#include "util/suggest.h"

namespace cz::cli {
namespace {
using json = nlohmann::json;

// The file as a JSON object whose keys are all among `known`.
json read_config(const std::string& path, const std::vector<std::string>& known) {
  const json j = read_json_file(path, kConfigMaxBytes, "a config file", JsonLimits{kJsonMaxDepth, 0, {}, kModelMaxValues});
  if (!j.is_object()) throw InputError("a config file is a JSON object {\"key\": value, ...}", "--config " + path);
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const auto& k : known) ok |= k == it.key();
    if (!ok) {
      std::string all;
      for (const auto& k : known) all += (all.empty() ? "" : ", ") + k;
      throw InputError("unknown key '" + quoted_value(it.key()) + "' (known: " + all + ")" + did_you_mean(it.key(), known),
                       "--config " + path);
    }
  }
  return j;
}

std::string where(const std::string& path, const std::string& key) { return "--config " + path + ": " + key; }

// A scalar as the text a flag would carry: strings as they are, numbers and booleans as JSON prints them.
std::string text_of(const json& v, const std::string& w) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned() || v.is_boolean()) return v.dump();
  if (v.is_number_float()) return v.dump();
  throw InputError("want a number or a string", w);
}

std::uint64_t uint_of(const json& v, const std::string& w, std::uint64_t min, std::uint64_t max) {
  if (!(v.is_number_unsigned() || v.is_number_integer() || v.is_string())) throw InputError("want a whole number", w);
  return parse_uint_flag(text_of(v, w), w, min, max);
}

bool bool_of(const json& v, const std::string& w) {
  if (!v.is_boolean()) throw InputError("want true or false", w);
  return v.get<bool>();
}

// The first of `names` present in j (our name or zoology's; both at once is refused).
const json* one_of(const json& j, const std::string& path, std::initializer_list<const char*> names) {
  const json* found = nullptr;
  std::string first;
  for (const char* n : names)
    if (j.contains(n)) {
      if (found) throw InputError("'" + first + "' and '" + n + "' name the same setting: give one", "--config " + path);
      found = &j[n];
      first = n;
    }
  return found;
}

// -p values: the file's under "params" ({"KEY": VALUE}), then the command line's (which win).
void merge_params(const json& j, const std::string& path, std::vector<std::string>& params) {
  if (!j.contains("params")) return;
  const json& p = j["params"];
  if (!p.is_object()) throw InputError("want an object {\"KEY\": VALUE, ...}", where(path, "params"));
  std::set<std::string> cli;
  for (const auto& kv : params) cli.insert(kv.substr(0, kv.find('=')));
  std::vector<std::string> merged;
  for (auto it = p.begin(); it != p.end(); ++it)
    if (!cli.count(it.key())) merged.push_back(it.key() + "=" + text_of(*it, where(path, "params." + it.key())));
  merged.insert(merged.end(), params.begin(), params.end());
  params = std::move(merged);
}

void name_from(const json& j, const std::string& path, std::string& name) {
  if (const json* v = one_of(j, path, {"construction", "name"}); v && name.empty()) {
    if (!v->is_string()) throw InputError("want a construction name", where(path, "construction"));
    name = v->get<std::string>();
  }
}
}  // namespace

void apply_verify_config(const std::string& path, VerifyOptions& o, const std::set<std::string>& cli) {
  const json j = read_config(path, {"construction", "name", "params", "samples", "seed", "exhaustive", "threads", "device"});
  name_from(j, path, o.name);
  merge_params(j, path, o.params);
  if (j.contains("samples") && !cli.count("--samples"))
    o.samples = static_cast<long long>(uint_of(j["samples"], where(path, "samples"), kSamplesArg.min, kSamplesArg.max));
  if (j.contains("seed") && !cli.count("--seed")) o.seed = uint_of(j["seed"], where(path, "seed"), kSeedArg.min, kSeedArg.max);
  if (j.contains("threads") && !cli.count("--threads"))
    o.threads = static_cast<unsigned>(uint_of(j["threads"], where(path, "threads"), kThreadsArg.min, kThreadsArg.max));
  if (j.contains("exhaustive") && !cli.count("--exhaustive")) o.exhaustive = bool_of(j["exhaustive"], where(path, "exhaustive"));
  if (j.contains("device") && !cli.count("--device")) {
    if (!j["device"].is_string()) throw InputError("want cpu, cuda, auto or twin", where(path, "device"));
    o.device = j["device"].get<std::string>();
  }
}

void apply_sweep_config(const std::string& path, SweepOptions& o, const std::set<std::string>& cli) {
  const json j = read_config(path, {"construction", "name", "params", "vary"});
  name_from(j, path, o.name);
  merge_params(j, path, o.params);
  if (j.contains("vary") && !cli.count("--vary")) {
    const json& v = j["vary"];
    const std::string w = where(path, "vary");
    if (v.is_string()) {
      o.vary = v.get<std::string>();
    } else if (v.is_object() && v.size() == 1 && v.begin()->is_array()) {  // {"n": [4, 8, 16]}
      std::string list;
      for (const auto& x : *v.begin()) list += (list.empty() ? "" : ",") + text_of(x, w);
      o.vary = v.begin().key() + "=" + list;
    } else {
      throw InputError("want \"KEY=V1,V2,...\" or {\"KEY\": [V1, V2, ...]}", w);
    }
  }
}

void apply_mqar_data_config(const std::string& path, MqarDataOptions& o, const std::set<std::string>& cli) {
  const json j = read_config(path, {"vocab", "vocab_size", "seq_len", "input_seq_len", "kv", "num_kv_pairs", "examples",
                                     "num_examples", "seed", "power_a", "random_non_queries", "num_passes", "name",
                                     "include_slices", "inputs", "labels"});
  struct Num {
    std::initializer_list<const char*> names;
    const char* flag;
    const UintArg& arg;
    std::size_t& target;
  };
  for (const Num& n : {Num{{"vocab", "vocab_size"}, "--vocab", kVocabArg, o.vocab}, Num{{"seq_len", "input_seq_len"}, "--seq-len", kSeqLenArg, o.seq_len},
                       Num{{"kv", "num_kv_pairs"}, "--kv", kKvArg, o.kv}, Num{{"examples", "num_examples"}, "--examples", kExamplesArg, o.examples}})
    if (const json* v = one_of(j, path, n.names); v && !cli.count(n.flag))
      n.target = static_cast<std::size_t>(uint_of(*v, where(path, *n.names.begin()), n.arg.min, n.arg.max));
  if (j.contains("seed") && !cli.count("--seed")) o.seed = uint_of(j["seed"], where(path, "seed"), kDataSeedArg.min, kDataSeedArg.max);
  if (j.contains("power_a") && !cli.count("--power-a")) {
    if (!j["power_a"].is_number() && !j["power_a"].is_string()) throw InputError("want a number", where(path, "power_a"));
    o.power_a = text_of(j["power_a"], where(path, "power_a"));
  }
  // Absent from the file: false, as on the command line and in Python (contract.md, "mqar-data";
  // issue 39). A zoology MQARConfig dump always states it, so a dump keeps its own value.
  if (!cli.count("--random-non-queries") && j.contains("random_non_queries"))
    o.random_non_queries = bool_of(j["random_non_queries"], where(path, "random_non_queries"));
  if (j.contains("num_passes") && uint_of(j["num_passes"], where(path, "num_passes"), 0, UINT64_MAX) != 1)
    throw InputError("only num_passes = 1 (zoology's default) is reproduced: zoology's multiquery_ar fails for num_passes > 1 "
                     "(its kvs has 2·K·num_passes columns and keys fill K of them), so no zoology batch defines the repeated prompt",
                     where(path, "num_passes"));
  if (j.contains("name") && j["name"] != "multiquery_ar")
    throw InputError("this is mqar-data: name must be \"multiquery_ar\" (zoology's MQARConfig) when given", where(path, "name"));
  for (const char* k : {"inputs", "labels"})
    if (j.contains(k) && !cli.count(std::string("--") + k)) {
      if (!j[k].is_string() || j[k].get<std::string>().empty()) throw InputError("want a path", where(path, k));
      (std::string(k) == "inputs" ? o.inputs : o.labels) = j[k].get<std::string>();
    }
}

}  // namespace cz::cli
