#include "app/engine/sat/sat_parts.h"

#include <cstdio>
#include <map>

#include "app/engine/run/read_back.h"
#include "model/model_json.h"
#include "util/error.h"

namespace cz {

namespace {
using nlohmann::json;

std::string hex(std::uint64_t h) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
  return b;
}

std::uint64_t unhex(const json& j, const std::string& where) {
  if (!j.is_string() || j.get_ref<const std::string&>().size() != 16 ||
      j.get_ref<const std::string&>().find_first_not_of("0123456789abcdef") != std::string::npos)
    throw InputError("a miter hash wants 16 hex digits", where);
  return std::stoull(j.get<std::string>(), nullptr, 16);
}
}  // namespace

json sat_part_options(const SatOptions& o) {
  return {{"confirm", o.confirm},       {"split", o.split},         {"cubes", o.cubes},       {"order", o.order},
          {"strategy", o.strategy},     {"zero_one", o.zero_one},   {"cube_after", o.cube_after}, {"cube_bits", o.cube_bits},
          {"timeout", o.timeout_s},     {"blocks", o.blocks},
          {"pbs_facts", o.pbs_facts}};
}

json sat_part_json(const std::string& construction, const std::map<std::string, std::string>& given, const SatOptions& o,
                   const SatOutcome& out, const std::string& version) {
  json calls = json::array();
  for (const SatParts::Call& c : o.parts->calls) {
    json hashes = json::array(), results = json::object();
    for (std::uint64_t h : c.hashes) hashes.push_back(hex(h));
    for (std::size_t k = 0; k < c.results.size(); ++k)
      if (c.results[k]) results[std::to_string(k)] = *c.results[k];
    calls.push_back({{"hashes", hashes}, {"results", results}});
  }
  json part = {{"sat_part",
           {{"format", 1},
            {"tool", "circuitzoo"},
            {"version", version},
            {"construction", construction},
            {"params", given},
            {"options", sat_part_options(o)},
            {"shard", {{"index", o.parts->shard->index}, {"count", o.parts->shard->count}}},
            {"calls", calls},
            // What this shard saw with the other shards' miters taken as UNSAT: not a verdict.
            {"own_verdict", out.verdict},
            {"seconds", out.seconds}}}};
  // --certify (issue 38): what this shard checked; merge sums the parts' counts.
  if (out.report.contains("sat") && out.report["sat"].contains("certify")) {
    const json& c = out.report["sat"]["certify"];
    part["sat_part"]["certify"] = {{"certified", c["unsat_answers_checked"]}, {"lemmas", c["lemmas"]}, {"core", c["core_lemmas_checked"]},
                                   {"rat", c["rat_lemmas"]}, {"seconds", c["check_seconds"]}};
  }
  return part;
}

bool is_sat_part(const json& j) { return j.is_object() && j.contains("sat_part"); }

json read_sat_part_text(const std::string& text, const std::string& file) {
  JsonLimits limits;
  limits.max_string = std::size_t{64} << 20;  // a SAT model: one character per variable
  limits.keep_keys = {"sat_part", "shard", "instances", "passed", "failed", "device"};
  return parse_json_input(text, file, limits);
}

SatMerge read_sat_parts(const std::vector<std::pair<std::string, json>>& parts, const std::string& version) {
  if (parts.empty()) throw InputError("no shard reports given", "merge");
  SatMerge m;
  std::map<std::uint64_t, std::string> seen;
  json run0;
  std::string file0;
  std::vector<std::vector<SatParts::Call>> shards;
  for (const auto& [file, whole] : parts) {
    if (!is_sat_part(whole)) throw InputError("not a --method sat part (parts of one run are all of one kind)", file);
    const json& p = whole["sat_part"];
    if (!p.is_object() || !p.contains("format") || p["format"] != 1) throw InputError("not a --method sat part of format 1", file);
    for (const char* k : {"version", "construction", "params", "options", "shard", "calls"})
      if (!p.contains(k)) throw InputError(std::string("a --method sat part wants `") + k + "`", file);
    const json run = {{"version", p["version"]}, {"construction", p["construction"]}, {"params", p["params"]}, {"options", p["options"]}};
    if (file0.empty()) {
      run0 = run, file0 = file;
      if (p["version"] != version) throw InputError("a part of version " + json_brief(p["version"]) + ", not this tool's " + version, file);
    } else if (run != run0) {
      throw InputError("a part of another run than " + file0 + " (construction, parameters, options or version differ)", file);
    }
    const std::uint64_t K = exact_uint(p["shard"], "count", "sat_part.shard.count", file);
    const std::uint64_t i = exact_uint(p["shard"], "index", "sat_part.shard.index", file);
    if (K == 0 || i >= K || K > 4096) throw InputError("shard " + std::to_string(i) + "/" + std::to_string(K) + " is not one of 0 <= I < K <= 4096", file);
    if (shards.empty()) shards.resize(K);
    if (shards.size() != K) throw InputError("a part of " + std::to_string(K) + " shards among parts of " + std::to_string(shards.size()), file);
    if (!seen.emplace(i, file).second) throw InputError("shard " + std::to_string(i) + " given twice (also " + seen[i] + ")", file);
    if (!p["calls"].is_array()) throw InputError("sat_part.calls wants an array", file);
    if (p.contains("certify")) {
      m.certify += certify_counts_of(p["certify"], file + ": sat_part.certify");
      ++m.certified_parts;
    } else if (m.uncertified.empty()) {
      m.uncertified = file;
    }
    for (const json& c : p["calls"]) {
      if (!c.is_object() || !c.contains("hashes") || !c["hashes"].is_array() || !c.contains("results") || !c["results"].is_object())
        throw InputError("a call wants hashes (an array) and results (an object)", file);
      SatParts::Call call;
      for (const json& h : c["hashes"]) call.hashes.push_back(unhex(h, file));
      call.results.resize(call.hashes.size());
      for (auto it = c["results"].begin(); it != c["results"].end(); ++it) {
        const std::string& key = it.key();
        if (key.empty() || key.size() > 9 || key.find_first_not_of("0123456789") != std::string::npos ||
            std::stoull(key) >= call.hashes.size())
          throw InputError("a result of miter '" + key.substr(0, 16) + "', not one of the call's " + std::to_string(call.hashes.size()), file);
        call.results[std::stoull(key)] = it.value();
      }
      shards[i].push_back(std::move(call));
    }
  }
  for (std::uint64_t i = 0; i < shards.size(); ++i)
    if (!seen.count(i)) throw InputError("shard " + std::to_string(i) + "/" + std::to_string(shards.size()) + " is missing", "merge");
  m.shards = shards.size();
  const json& o = run0["options"];
  try {
    m.construction = run0["construction"].get<std::string>();
    for (auto it = run0["params"].begin(); it != run0["params"].end(); ++it) m.given[it.key()] = it.value().get<std::string>();
    m.options.confirm = o.at("confirm").get<bool>();
    m.options.split = o.at("split").get<std::string>();
    m.options.cubes = o.at("cubes").get<bool>();
    m.options.order = o.at("order").get<std::string>();
    m.options.strategy = o.at("strategy").get<std::string>();
    m.options.zero_one = o.at("zero_one").get<std::string>();
    m.options.cube_after = o.at("cube_after").get<double>();
    m.options.cube_bits = o.at("cube_bits").get<unsigned>();
    m.options.timeout_s = o.at("timeout").get<double>();
    m.options.blocks = o.value("blocks", std::string("queries"));  // parts written before --sat-blocks
    if (m.options.blocks != "calls" && m.options.blocks != "queries") throw InputError("run.options.blocks is not calls or queries", file0);
    m.options.pbs_facts = o.value("pbs_facts", std::string("within"));  // parts written before issue 48's facts
    if (m.options.pbs_facts != "across" && m.options.pbs_facts != "within")
      throw InputError("run.options.pbs_facts is not across or within", file0);
  } catch (const json::exception& e) {
    throw InputError(std::string("malformed part run (") + e.what() + ")", file0);
  }
  m.options.parts = std::make_shared<SatParts>();
  m.options.parts->replay = true;
  m.options.parts->shards = std::move(shards);
  m.options.log = std::make_shared<SatScheduleLog>();
  return m;
}

}  // namespace cz
