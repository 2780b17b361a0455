#include "app/report/report_json.h"

#include <algorithm>
#include <cmath>

#include <iomanip>
#include <sstream>

#include "app/report/human_format.h"

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
  complete_report(j);
  return j;
}

void complete_report(json& j) {
  if (!j.is_object()) return;
  if (!j.contains("method")) j["method"] = "enumerate";
  const json inst = j.value("instances", json(nullptr));
  if (!j.contains("instances_log10")) {
    json lg = nullptr;
    if (inst.is_number_unsigned() || inst.is_number_integer()) {
      const double v = inst.get<double>();
      lg = v > 0 ? json(std::log10(v)) : json(nullptr);
    } else if (inst.is_string()) {
      const std::string& s = inst.get_ref<const std::string&>();
      if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos && s != "0") {
        // A decimal string: its digit count and its leading digits give the logarithm.
        const std::string head = s.substr(0, std::min<std::size_t>(s.size(), 17));
        lg = std::log10(std::stod(head)) + static_cast<double>(s.size() - head.size());
      }
    }
    j["instances_log10"] = lg;
  }
  const std::string verdict = j.value("verdict", std::string());
  const bool finite = !j["instances_log10"].is_null();
  if (!j.contains("failed")) j["failed"] = verdict == "proved" ? json(0) : verdict == "refuted" ? json(1) : json(nullptr);
  if (!j.contains("passed")) j["passed"] = verdict == "proved" && finite ? inst : json(nullptr);
}

namespace {
std::string achieved_str(const Report& r, bool wide) {
  if (!r.model) {
    // Circuit-only artifacts: size, depth and width of the circuit (contract "circuit stats").
    const json& c = r.circuit;
    if (!c.is_object() || !c.contains("size")) return "-";
    std::ostringstream os;
    os << (wide ? "circuit size " : "size ") << c["size"] << " depth " << c.value("depth", json(nullptr));
    if (wide) os << " width " << c.value("width", json(nullptr));
    return os.str();
  }
  const json& m = *r.model;
  std::ostringstream os;
  os << "(" << m["N"] << "," << m["L"] << "," << m["d"] << "," << m["inner_N"] << "," << m["inner_d"] << ") "
     << m["params_nonzero"] << "/" << m["params_dense"] << "p";
  return os.str();
}

// The paper's claims shown beside what we achieved; our own (binding) claims only when they fail.
bool shown_claim(const Claim& c) { return !c.binding || (c.holds && !*c.holds); }

std::string claim_str(const Report& r, const Claim& c) {
  std::string s = c.quantity + " " + c.claimed + "→" + (c.achieved.is_null() ? "?" : c.achieved.dump());
  if (c.holds) s += !*c.holds ? (c.binding ? " ✗FAILED" : " ✗missed") : (r.failed > 0 ? " (unverified)" : " ✓");
  return s;
}

std::string claims_str(const Report& r) {
  std::string s;
  for (const auto& c : r.claims) {
    if (!shown_claim(c)) continue;
    if (!s.empty()) s += "; ";
    s += claim_str(r, c);
  }
  return s.empty() ? "-" : s;
}

// The claims column of the compact table: how many hold, are missed, failed, or are shapes
// (O(·), Θ(·): compared, no verdict).
std::string claims_summary(const Report& r) {
  std::size_t hold = 0, missed = 0, failed = 0, unverified = 0, shapes = 0;
  for (const auto& c : r.claims) {
    if (!shown_claim(c)) continue;
    if (!c.holds) ++shapes;
    else if (!*c.holds) ++(c.binding ? failed : missed);
    else if (r.failed > 0) ++unverified;
    else ++hold;
  }
  std::string s;
  auto add = [&s](std::size_t n, const std::string& what) {
    if (n) s += (s.empty() ? "" : " ") + std::to_string(n) + what;
  };
  add(hold, "✓");
  add(missed, " missed");
  add(failed, " FAILED");
  add(unverified, " unverified");
  add(shapes, " shape" + std::string(shapes == 1 ? "" : "s"));
  return s.empty() ? "-" : s;
}

std::string domain_str(const std::string& d, bool wide) { return !wide && d == "exhaustive+sampled" ? "exh+sampled" : d; }

// Pads every column but the last; in the compact table cuts cells (params first, then the claims
// and achieved columns) until a row fits kHumanColumns.
void print_rows(std::ostream& os, std::vector<std::vector<std::string>> rows, bool fit) {
  const std::size_t cols = rows[0].size();
  std::vector<std::size_t> w(cols, 0);
  for (const auto& row : rows)
    for (std::size_t k = 0; k < cols; ++k) w[k] = std::max(w[k], display_width(row[k]));
  if (fit) {
    auto total = [&] {
      std::size_t t = 0;
      for (std::size_t k = 0; k < cols; ++k) t += w[k] + (k + 1 < cols ? 2 : 0);
      return t;
    };
    for (std::size_t k : {std::size_t{1}, cols - 1, cols - 2}) {
      const std::size_t floor = display_width(rows[0][k]);
      while (total() > kHumanColumns && w[k] > floor) --w[k];
    }
    for (auto& row : rows)
      for (std::size_t k = 0; k < cols; ++k) row[k] = cut_to(row[k], w[k]);
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t k = 0; k + 1 < cols; ++k) line += pad_to(row[k], w[k] + 2);
    os << line << row.back() << "\n";
  }
}
}  // namespace

void print_table(std::ostream& os, const std::vector<Report>& reports, bool wide) {
  if (wide) {
    std::vector<std::vector<std::string>> rows = {
        {"construction", "params", "domain", "checked", "verdict", "achieved (N,L,d,N',d') nz/dense", "paper claims (claimed→ours)"}};
    for (const auto& r : reports)
      rows.push_back({r.construction, params_text(r.construction, r.params, false), r.domain, std::to_string(r.instances),
                      r.exit_code() == 0 ? "verified" : "FAILED", achieved_str(r, true), claims_str(r)});
    print_rows(os, rows, false);
    return;
  }
  std::vector<std::vector<std::string>> rows = {
      {"construction", "params", "domain", "checked", "verdict", "achieved", "paper claims"}};
  for (const auto& r : reports)
    rows.push_back({r.construction, params_text(r.construction, r.params, true), domain_str(r.domain, false),
                    short_count(r.instances), r.exit_code() == 0 ? "verified" : "FAILED", achieved_str(r, false),
                    claims_summary(r)});
  print_rows(os, rows, true);
  if (reports.size() == 1) {  // one construction: its claims in full, one per line
    for (const auto& c : reports[0].claims)
      if (shown_claim(c)) print_wrapped(os, "  claim: ", claim_str(reports[0], c) + " (" + c.source + ")", 4);
  } else {
    print_wrapped(os, "", "achieved: a model's (N, L, d, N', d') and nonzero/dense parameters, or a circuit's size and depth. "
                         "--wide: every parameter, exact counts and each paper claim; --json: the whole report.", 0);
  }
}

void print_notes(std::ostream& os, const Report& r, bool wide, bool named) {
  const std::string prefix = named ? "  note (" + r.construction + "): " : "  note: ";
  for (const auto& n : r.notes) {
    if (wide) os << prefix << n << "\n";
    else print_wrapped(os, prefix, n, 4);
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
