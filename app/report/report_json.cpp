#include "app/report/report_json.h"

#include <algorithm>
#include <cmath>

#include <iomanip>
#include <set>
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
  std::string s = c.quantity + " " + c.claimed + "→" + (c.achieved.is_null() ? "?" : c.achieved.is_number_float() ? human_number(c.achieved.get<double>()) : c.achieved.dump());
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

// Pads every column but the last. In the compact table (fit) the rows are made to fit
// human_columns() (issue 49 item 6): the widest of the params, achieved and claims cells is cut a
// column at a time down to 14 columns, then the domain column is left out, then those cells are
// cut further (params down to PARAMS_FLOOR, the part that tells rows of one construction apart;
// the others down to their headers), then the achieved and claims columns are left out (ONE_REPORT:
// the claims, the achieved, then the domain column: its claims are listed below the row); never
// the construction, its distinguishing parameters, the count or the verdict. Returns the headers
// of the columns left out.
std::vector<std::string> print_rows(std::ostream& os, std::vector<std::vector<std::string>> rows, bool fit,
                                    std::size_t params_floor = 0, bool one_report = false) {
  const std::size_t cols = rows[0].size();
  std::vector<std::size_t> w(cols, 0);
  std::vector<bool> keep(cols, true);
  std::vector<std::string> dropped;
  for (const auto& row : rows)
    for (std::size_t k = 0; k < cols; ++k) w[k] = std::max(w[k], display_width(row[k]));
  if (fit) {
    const std::size_t width = human_columns();
    auto total = [&] {
      std::size_t t = 0, shown = 0;
      for (std::size_t k = 0; k < cols; ++k)
        if (keep[k]) t += w[k], ++shown;
      return t + 2 * (shown ? shown - 1 : 0);
    };
    auto drop = [&](std::size_t k) {
      if (total() <= width || !keep[k]) return;
      keep[k] = false;
      dropped.push_back(rows[0][k]);
    };
    // The widest of params, achieved and claims loses a column at a time, down to FLOOR.
    const std::size_t cut[] = {1, cols - 2, cols - 1};
    auto shrink = [&](const std::vector<std::size_t>& floor) {
      while (total() > width) {
        std::size_t best = cols;
        for (std::size_t k : cut)
          if (w[k] > floor[k] && (best == cols || w[k] > w[best])) best = k;
        if (best == cols) break;
        --w[best];
      }
    };
    std::vector<std::size_t> hard(cols, 0), soft(cols, 0);
    for (std::size_t k : cut) {
      hard[k] = std::min(w[k], std::max(display_width(rows[0][k]), k == 1 ? params_floor : 0));
      soft[k] = std::min(w[k], std::max<std::size_t>(hard[k], 14));
    }
    shrink(soft);
    if (one_report) {  // its claims are listed below the row: the claims column goes first, the domain last
      shrink(hard);
      drop(cols - 1);
      drop(cols - 2);
      drop(2);
    } else {
      drop(2);  // the domain: the count beside it says how much was checked
      shrink(hard);
      drop(cols - 2);
      drop(cols - 1);
    }
    for (auto& row : rows)
      for (std::size_t k = 0; k < cols; ++k) row[k] = cut_to(row[k], w[k]);
  }
  std::size_t last = cols - 1;
  while (last > 0 && !keep[last]) --last;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t k = 0; k < last; ++k)
      if (keep[k]) line += pad_to(row[k], w[k] + 2);
    os << line << row[last] << "\n";
  }
  return dropped;
}

// The parameters of each report, those that differ between reports of the same construction
// first (they tell the rows apart and are cut last), and the width of that distinguishing part.
std::vector<std::string> params_cells(const std::vector<Report>& reports, std::size_t& floor) {
  std::vector<std::string> out;
  floor = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Report& r = reports[i];
    std::set<std::string> differ;
    if (r.params.is_object())
      for (const auto& o : reports)
        if (&o != &r && o.construction == r.construction && o.params.is_object())
          for (auto it = r.params.begin(); it != r.params.end(); ++it)
            if (!o.params.contains(it.key()) || o.params[it.key()] != *it) differ.insert(it.key());
    if (differ.empty()) {
      out.push_back(params_text(r.construction, r.params, true));
      continue;
    }
    json first = json::object(), rest = json::object();
    for (auto it = r.params.begin(); it != r.params.end(); ++it) (differ.count(it.key()) ? first : rest)[it.key()] = *it;
    // The distinguishing keys with every value shown (even a default), in schema order.
    const std::string head = params_text(r.construction, first, false);
    const std::string tail = params_text(r.construction, r.params, true);
    std::string cell = head;
    // The others as the compact text has them, less the keys already shown.
    std::size_t pos = 0;
    while (pos < tail.size()) {
      std::size_t sp = tail.find(' ', pos);
      if (sp == std::string::npos) sp = tail.size();
      const std::string tok = tail.substr(pos, sp - pos);
      const std::string k = tok.substr(0, tok.find('='));
      if (!differ.count(k)) cell += " " + tok;
      pos = sp + 1;
    }
    floor = std::max(floor, display_width(head));
    out.push_back(cell);
  }
  return out;
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
  std::size_t floor = 0;
  const std::vector<std::string> params = params_cells(reports, floor);
  // One report: its parameters are what tells this run from another; cut the other cells first
  // (its claims are listed in full below the row).
  if (reports.size() == 1) floor = std::min(display_width(params[0]), human_columns() / 3);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const Report& r = reports[i];
    rows.push_back({r.construction, params[i], domain_str(r.domain, false), short_count(r.instances),
                    r.exit_code() == 0 ? "verified" : "FAILED", achieved_str(r, false), claims_summary(r)});
  }
  const std::vector<std::string> dropped = print_rows(os, rows, true, floor, reports.size() == 1);
  std::string left_out;
  for (const auto& d : dropped) left_out += (left_out.empty() ? "" : ", ") + d;
  if (!left_out.empty()) left_out = " Left out to fit " + std::to_string(human_columns()) + " columns: " + left_out + " (COLUMNS=N for wider).";
  if (reports.size() == 1) {  // one construction: its claims in full, one per line
    for (const auto& c : reports[0].claims)
      if (shown_claim(c)) print_wrapped(os, "  claim: ", claim_str(reports[0], c) + " (" + c.source + ")", 4);
    if (!left_out.empty()) print_wrapped(os, "", left_out.substr(1), 0);
  } else {
    print_wrapped(os, "", "achieved: a model's (N, L, d, N', d') and nonzero/dense parameters, or a circuit's size and depth. "
                         "--wide: every parameter, exact counts and each paper claim; --json: the whole report." + left_out, 0);
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
