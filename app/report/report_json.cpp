#include "app/report/report_json.h"

#include <iomanip>
#include <sstream>

namespace cz {
using json = nlohmann::json;

json to_json(const Failure& f) {
  json j = {{"instance", f.instance}, {"input", f.input}, {"expected", f.expected}, {"got", f.got}};
  if (!f.message.empty()) j["message"] = f.message;
  return j;
}

namespace {
bool g_timing = true;
}

void set_timing_enabled(bool on) { g_timing = on; }
bool timing_enabled() { return g_timing; }

json timing_json(std::optional<double> seconds, const json& extra) {
  json t = json::object();
  if (seconds) t["seconds"] = std::round(*seconds * 1000) / 1000;
  if (extra.is_object())
    for (auto it = extra.begin(); it != extra.end(); ++it) t[it.key()] = *it;
  return t;
}

json claim_json(const Claim& c, bool artifact_failed) {
  json j = to_json(c);
  if (artifact_failed && c.holds && *c.holds) {
    j["holds"] = nullptr;
    j["status"] = "unverified";
  }
  return j;
}

json to_json(const Report& r) {
  const bool failed = r.failed > 0;
  json claims = json::array();
  for (const auto& c : r.claims) claims.push_back(claim_json(c, failed));
  json j = {{"tool", "circuitzoo"}, {"version", kVersion}, {"construction", r.construction}, {"params", r.params},
            {"domain", r.domain}, {"domain_description", r.description}, {"preconditions", r.preconditions},
            {"seed", r.seed}, {"instances", r.instances}, {"passed", r.passed}, {"failed", r.failed},
            {"counterexample", r.counterexample ? to_json(*r.counterexample) : json(nullptr)},
            {"claims", claims}, {"notes", r.notes}, {"verdict", r.exit_code() == 0 ? "verified" : "FAILED"}};
  if (r.model) j["model"] = *r.model;
  if (!r.circuit.is_null()) j["circuit"] = r.circuit;
  if (!r.metrics.empty()) j["metrics"] = r.metrics;
  if (!r.engine.is_null()) j["engine"] = r.engine;
  j["device"] = r.device;  // contract.md: --device cpu|cuda|auto, the report says which ran
  if (!r.shard.is_null()) j["shard"] = r.shard;
  if (r.ranks) j["ranks"] = r.ranks;
  if (r.shards) j["shards"] = r.shards;
  if (g_timing) {
    j["timing"] = timing_json(r.seconds, r.timing);
    j["seconds"] = j["timing"]["seconds"];  // the contract's original field, kept for old readers
  }
  return j;
}

namespace {
std::string params_str(const json& p) {
  std::string s;
  for (auto it = p.begin(); it != p.end(); ++it) {
    if (!s.empty()) s += " ";
    s += it.key() + "=" + (it->is_string() ? it->get<std::string>() : it->dump());
  }
  return s;
}

std::string achieved_str(const Report& r) {
  if (!r.model) {
    // Circuit-only artifacts: size, depth and width of the circuit (contract "circuit stats").
    const json& c = r.circuit;
    if (!c.is_object() || !c.contains("size")) return "-";
    std::ostringstream os;
    os << "circuit size " << c["size"] << " depth " << c.value("depth", json(nullptr)) << " width "
       << c.value("width", json(nullptr));
    return os.str();
  }
  const json& m = *r.model;
  std::ostringstream os;
  os << "(" << m["N"] << "," << m["L"] << "," << m["d"] << "," << m["inner_N"] << "," << m["inner_d"] << ") "
     << m["params_nonzero"] << "/" << m["params_dense"] << "p";
  return os.str();
}

std::string claims_str(const Report& r) {
  // The paper's claims beside what we achieved; our own (binding) claims only when they fail.
  std::string s;
  for (const auto& c : r.claims) {
    if (c.binding && (!c.holds || *c.holds)) continue;
    if (!s.empty()) s += "; ";
    s += c.quantity + " " + c.claimed + "→" + (c.achieved.is_null() ? "?" : c.achieved.dump());
    if (c.holds) s += !*c.holds ? (c.binding ? " ✗FAILED" : " ✗missed") : (r.failed > 0 ? " (unverified)" : " ✓");
  }
  return s.empty() ? "-" : s;
}
}  // namespace

void print_table(std::ostream& os, const std::vector<Report>& reports) {
  std::vector<std::vector<std::string>> rows = {
      {"construction", "params", "domain", "checked", "verdict", "achieved (N,L,d,N',d') nz/dense", "paper claims (claimed→ours)"}};
  for (const auto& r : reports)
    rows.push_back({r.construction, params_str(r.params), r.domain, std::to_string(r.instances),
                    r.exit_code() == 0 ? "verified" : "FAILED", achieved_str(r), claims_str(r)});
  std::vector<std::size_t> w(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t k = 0; k < row.size(); ++k) w[k] = std::max(w[k], row[k].size());
  for (const auto& row : rows) {
    for (std::size_t k = 0; k + 1 < row.size(); ++k) os << std::left << std::setw(static_cast<int>(w[k] + 2)) << row[k];
    os << row.back() << "\n";
  }
}

void print_counterexample(std::ostream& os, const Report& r) {
  if (!r.counterexample) return;
  const Failure& f = *r.counterexample;
  os << "counterexample for " << r.construction << " (" << r.failed << " of " << r.instances << " failed)";
  if (!f.message.empty()) os << ": " << f.message;
  os << "\n  instance: " << f.instance.dump() << "\n  input:    " << f.input.dump() << "\n  expected: "
     << f.expected.dump() << "\n  got:      " << f.got.dump() << "\n";
}

}  // namespace cz
