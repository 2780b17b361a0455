// `circuitzoo sweep NAME --vary KEY=V1,V2,...`: builds the construction at each value and
// tabulates its costs (model tuple, parameters, circuit stats, metrics) beside the paper's
// claims, then fits growth: the log-log slope of every quantity against the varied parameter,
// and of every asymptotic claim's achieved value against its O(.) shape (with the ratios).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/plot.h"
#include "app/report/fit.h"
#include "app/report/human_format.h"
#include "app/report/report_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/progress.h"
#include "app/engine/run/cluster.h"
#include "app/engine/engine.h"

namespace cz::cli {
namespace {
using json = nlohmann::json;

std::vector<std::string> split_values(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

// Flattens the numeric quantities of one sweep row: model.*, circuit.*, metrics.* (and, for the
// table and CSV only, timing.*: timings are never fitted, so `fits` stays deterministic).
std::map<std::string, double> numeric_columns(const json& row, bool with_timing = false) {
  std::map<std::string, double> cols;
  for (const char* group : {"model", "circuit", "metrics", "timing"}) {
    if (!with_timing && std::string(group) == "timing") continue;
    if (!row.contains(group) || !row[group].is_object()) continue;
    for (auto it = row[group].begin(); it != row[group].end(); ++it)
      if (it->is_number()) cols[std::string(group) + "." + it.key()] = it->get<double>();
  }
  return cols;
}

json fit_json(const Fit& f) {
  json pts = json::array();
  for (const auto& [x, y] : f.points) pts.push_back({x, y});
  return {{"slope", f.slope}, {"intercept", f.intercept}, {"r2", f.r2}, {"points", pts}};
}

// Integral values print as integers, others with up to 6 significant digits.
std::string num(double y) {
  if (std::fabs(y) < 9e15 && y == std::floor(y)) return std::to_string(static_cast<long long>(y));
  std::ostringstream os;
  os.precision(6);
  os << y;
  return os.str();
}

std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string r = "\"";
  for (char c : s) r += c == '"' ? std::string("\"\"") : std::string(1, c);
  return r + "\"";
}
// The row of one value: the artifact's costs and claims (and its build time under `timing`).
json sweep_row(const Construction& k, const std::string& key, const std::string& value,
               const std::map<std::string, std::string>& given) {
  auto g = given;
  g[key] = value;
  Params p = Params::parse(k.params, g);
  const auto t0 = std::chrono::steady_clock::now();
  Built b = k.build(p);
  const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  json row = {{"value", p.to_json()[key]}, {"params", p.to_json()}};
  if (b.model) row["model"] = model_summary(*b.model);
  if (!b.circuit.is_null()) row["circuit"] = b.circuit;
  if (!b.metrics.empty()) row["metrics"] = b.metrics;
  json claims = json::array();
  for (const auto& c : b.claims) claims.push_back(to_json(c));
  row["claims"] = claims;
  if (timing_enabled()) row["timing"] = timing_json(build_s, b.timing);
  return row;
}
}  // namespace

json sweep_json(const Construction& k, const std::string& key_given, const std::vector<std::string>& values,
                const std::map<std::string, std::string>& given) {
  const std::string key = canonical_param(k.params, key_given);  // --vary vocab_size=... varies c
  if (values.empty()) throw InputError("no values to vary over", "--vary " + key);
  if (given.count(key)) throw InputError("'" + key + "' is both varied and fixed", "-p " + key);
  // Bad input is refused before any work (exit 2): every value's parameters parse.
  std::vector<json> params_of;
  for (const auto& v : values) {
    auto g = given;
    g[key] = v;
    params_of.push_back(Params::parse(k.params, g).to_json());
  }
  // One row per value; a value whose build fails gets a row that says why and the sweep goes on
  // (issue 49 item 10). Under mpirun the values are dealt round-robin to the ranks and the rows
  // gathered on rank 0 (issue 13), which alone fits and writes; the others return null.
  const std::size_t ranks = static_cast<std::size_t>(Cluster::size()), me = static_cast<std::size_t>(Cluster::rank());
  json mine = json::array();
  // The count for a watcher (Python; also how it cancels between values); a terminal gets a status
  // line naming the value being built (issue 49 item 7), the engine's bars inside it have the line.
  Progress progress("sweep " + k.name, values.size(), false);
  StatusLine status("sweep " + k.name);
  for (std::size_t i = me; i < values.size(); i += ranks) {
    progress.poll();
    status.step(key + "=" + values[i] + " (" + std::to_string(i + 1) + " of " + std::to_string(values.size()) + ")");
    json row;
    try {
      row = sweep_row(k, key, values[i], given);
      row["verdict"] = "built";
    } catch (const Cancelled&) {
      throw;
    } catch (const InputError& e) {
      row = {{"value", params_of[i][key]}, {"params", params_of[i]}, {"verdict", "FAILED"}, {"error", e.what()},
             {"error_where", e.where}};
    } catch (const std::exception& e) {
      row = {{"value", params_of[i][key]}, {"params", params_of[i]}, {"verdict", "FAILED"}, {"error", e.what()},
             {"error_where", "internal"}};
    }
    mine.push_back({i, std::move(row)});
    progress.advance(1);
  }
  std::vector<json> by_index(values.size());
  if (!Cluster::active()) {  // one process: its rows, no round trip through text
    for (auto& r : mine) by_index[r[0].get<std::size_t>()] = std::move(r[1]);
  } else {
    for (const std::string& text : Cluster::gather(json({{"rows", mine}}).dump())) {
      const json part = json::parse(text);
      for (const auto& r : part["rows"]) by_index[r[0].get<std::size_t>()] = r[1];
    }
    if (Cluster::rank() != 0) return nullptr;
  }
  json rows = json::array(), failed_values = json::array();
  std::vector<json> built;  // the rows whose build succeeded: the fits use these only
  std::vector<double> xs;
  bool numeric_x = true;
  for (const json& row : by_index) {
    rows.push_back(row);
    if (row.value("verdict", std::string()) == "FAILED") {
      failed_values.push_back(row["value"]);
      continue;
    }
    built.push_back(row);
    numeric_x = numeric_x && row["value"].is_number();
    xs.push_back(numeric_x ? row["value"].get<double>() : 0.0);
  }

  json fits = json::array();
  const std::size_t n_built = built.size();
  if (numeric_x && n_built >= 2) {
    std::map<std::string, std::vector<std::pair<double, double>>> series;
    for (std::size_t r = 0; r < n_built; ++r)
      for (const auto& [col, y] : numeric_columns(built[r])) series[col].emplace_back(xs[r], y);
    // A fit says which points it used: a quantity measured at fewer values than the sweep has (e.g.
    // AIG statistics, skipped above 200k gates) is fitted over those only, and says so.
    // `against` (kept for old readers) is the varied parameter here and the claimed shape below;
    // `variable` and `claim_shape` say each apart (issue 49 item 4).
    for (const auto& [col, pts] : series)
      if (auto f = fit_loglog(pts)) {
        json entry = {{"quantity", col}, {"against", key}, {"variable", key}, {"claim_shape", nullptr},
                      {"fit", fit_json(*f)}, {"points_used", pts.size()}, {"sweep_points", n_built},
                      {"min_points", kMinFitPoints}};
        if (pts.size() < n_built) {
          std::ostringstream os;
          os << "fitted over " << pts.size() << " of " << n_built << " values (" << key << " from "
             << num(pts.front().first) << " to " << num(pts.back().first)
             << "): the quantity is not measured at the others (a cap, e.g. AIG statistics above 200k gates)";
          entry["note"] = os.str();
        }
        fits.push_back(entry);
      }
    // Asymptotic claims: achieved against the claim's shape, row by row.
    std::map<std::string, std::vector<std::pair<double, double>>> shapes;
    std::map<std::string, json> claim_of;
    for (const auto& row : built)
      for (const auto& c : row["claims"])
        if (c.contains("shape_value") && c["achieved"].is_number()) {
          std::string id = c["quantity"].get<std::string>() + " " + c["claimed"].get<std::string>() + " (" +
                           c["source"].get<std::string>() + ")";
          shapes[id].emplace_back(c["shape_value"].get<double>(), c["achieved"].get<double>());
          claim_of[id] = c;
        }
    for (const auto& [id, pts] : shapes) {
      json ratios = json::array();
      for (const auto& [sv, a] : pts) ratios.push_back(sv > 0 ? a / sv : 0.0);
      json entry = {{"quantity", claim_of[id]["quantity"]}, {"against", claim_of[id]["claimed"]},
                    {"variable", key}, {"claim_shape", claim_of[id]["claimed"]},
                    {"source", claim_of[id]["source"]}, {"achieved_over_shape", ratios}};
      // Every entry has `fit` (contract.md): null with `fit_reason` when there is no line to fit.
      if (auto f = fit_loglog(pts)) {
        entry["fit"] = fit_json(*f);
      } else {
        entry["fit"] = nullptr;
        entry["fit_reason"] = no_fit_reason(pts);
      }
      entry["points_used"] = pts.size();
      entry["sweep_points"] = n_built;
      entry["min_points"] = kMinFitPoints;
      if (pts.size() < n_built)
        entry["note"] = "fitted over " + std::to_string(pts.size()) + " of " + std::to_string(n_built) +
                        " values: the claim's achieved value is not measured at the others";
      fits.push_back(entry);
    }
  }

  json out = {{"tool", "circuitzoo"}, {"version", kVersion}, {"construction", k.name}, {"vary", key},
              {"values", values}, {"fixed", given}, {"rows", rows}, {"fits", fits},
              {"failed", failed_values.size()}, {"failed_values", failed_values}};
  return out;
}

namespace {
// The quantities shown first in the human table when they change (as scripts/plot.py), then the
// others that change, then those that do not.
const std::vector<std::string> kPreferred = {"circuit.size", "circuit.depth", "model.L", "model.params_dense",
                                             "model.params_nonzero", "model.inner_N", "model.inner_d",
                                             "metrics.work", "metrics.state_bits"};

std::string value_text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The rows as a table within the terminal's width (issue 49 item 6): the varied parameter first and
// never cut (it tells the rows apart), then as many quantities as fit, the changing ones first.
void print_sweep_table(std::ostream& human, const std::string& key, const json& rows) {
  const std::size_t width = human_columns();
  std::map<std::string, std::vector<std::string>> cells;  // quantity -> its text per row ("" where absent)
  std::map<std::string, bool> changes;
  std::vector<std::string> order;
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const auto& [c, y] : numeric_columns(rows[r], true)) {
      if (!cells.count(c)) cells[c] = std::vector<std::string>(rows.size());
      cells[c][r] = human_number(y);
    }
  for (auto& [c, v] : cells) {
    std::string first;
    bool seen = false;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows[r].value("verdict", std::string()) == "FAILED") continue;
      if (!seen) first = v[r], seen = true;
      else if (v[r] != first) changes[c] = true;
    }
  }
  auto is_timing = [](const std::string& c) { return c.rfind("timing.", 0) == 0; };
  for (const auto& c : kPreferred)
    if (cells.count(c) && changes[c]) order.push_back(c);
  for (const auto& [c, _] : cells)
    if (changes[c] && !is_timing(c) && std::find(order.begin(), order.end(), c) == order.end()) order.push_back(c);
  for (const auto& [c, _] : cells)
    if (!changes[c] && !is_timing(c)) order.push_back(c);
  for (const auto& [c, _] : cells)
    if (is_timing(c)) order.push_back(c);
  // The key column, then quantities while they fit.
  std::vector<std::string> keys;
  for (const auto& row : rows) keys.push_back(value_text(row["value"]));
  std::size_t key_w = display_width(key);
  for (const auto& k : keys) key_w = std::max(key_w, display_width(k));
  std::vector<std::string> shown;
  std::vector<std::size_t> w;
  std::size_t used = 2 + key_w;
  for (const auto& c : order) {
    std::size_t cw = display_width(c);
    for (const auto& t : cells[c]) cw = std::max(cw, display_width(t));
    if (used + 2 + cw > width) continue;  // a narrower one later may still fit
    used += 2 + cw;
    shown.push_back(c);
    w.push_back(cw);
  }
  auto line_of = [&](const std::string& first, const std::vector<std::string>& rest) {
    std::string line = "  " + pad_to(first, key_w);
    for (std::size_t i = 0; i < rest.size(); ++i) line += "  " + pad_to(rest[i], w[i]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line;
  };
  human << line_of(key, shown) << "\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].value("verdict", std::string()) == "FAILED") {
      print_wrapped(human, "  " + pad_to(keys[r], key_w) + "  ",
                    "FAILED: " + rows[r].value("error", std::string()) + " (" + rows[r].value("error_where", std::string()) + ")",
                    4 + key_w);
      continue;
    }
    std::vector<std::string> rest;
    for (const auto& c : shown) rest.push_back(cells[c][r]);
    human << line_of(keys[r], rest) << "\n";
  }
  if (shown.size() < order.size())
    print_wrapped(human, "  ",
                  std::to_string(order.size() - shown.size()) + " more quantities not shown within " +
                      std::to_string(width) + " columns (COLUMNS=N for wider); --csv or --json: all of them", 4);
}

std::string ratios_text(const json& ratios) {
  std::string s;
  for (const auto& r : ratios) s += (s.empty() ? "" : ", ") + human_number(r.get<double>());
  return "[" + s + "]";
}
}  // namespace

int cmd_sweep(const SweepOptions& o) {
  if (o.name.empty()) throw InputError("a construction NAME is required (or \"construction\" in --config)", "sweep");
  if (o.vary.empty()) throw InputError("--vary KEY=V1,V2,... is required (or \"vary\" in --config)", "sweep");
  check_outputs({{"--json", o.json_path}, {"--csv", o.csv_path}, {"--plot", o.plot_path}});
  if (!o.plot_path.empty()) {
    check_plot_path(o.plot_path);
    check_plotting_available();  // a missing matplotlib is refused before any work
  }
  const Construction& k = find_construction(o.name);
  auto [key_given, list] = split_kv(o.vary, "--vary " + o.vary);
  const std::string key = canonical_param(k.params, key_given);
  std::vector<std::string> values = split_values(list);
  if (values.empty()) throw InputError("no values to vary over", "--vary " + o.vary);
  auto given = parse_params(o.params);
  if (given.count(key)) throw InputError("'" + key + "' is both varied and fixed", "-p " + key);
  const json out = sweep_json(k, key, values, given);
  if (out.is_null()) return 0;  // a rank other than 0 under mpirun: rank 0 writes
  const json& rows = out["rows"];
  const json& fits = out["fits"];
  std::vector<OutputFile> files;  // --json and --csv: written all or nothing
  if (!o.json_path.empty()) files.push_back({o.json_path, json_text(out), "--json"});

  if (!o.csv_path.empty()) {
    std::vector<std::string> cols;
    std::map<std::string, bool> seen;
    for (const auto& row : rows)
      for (const auto& [c, _] : numeric_columns(row, true))
        if (!seen[c]) { seen[c] = true; cols.push_back(c); }
    // Then every other parameter of the row as param.KEY (given or default), so that a CSV alone
    // says what was held fixed (issue 26 item 10); appended, so earlier columns keep their places.
    std::vector<std::string> fixed;
    for (auto it = rows[0]["params"].begin(); it != rows[0]["params"].end(); ++it)
      if (it.key() != key) fixed.push_back(it.key());
    auto text_of = [](const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
    std::ostringstream csv;
    csv << csv_escape(key);
    for (const auto& c : cols) csv << "," << csv_escape(c);
    for (const auto& f : fixed) csv << "," << csv_escape("param." + f);
    // A value that failed (issue 49 item 10): an `error` column, last, says why (empty on the others).
    const bool with_error = out["failed"].get<std::size_t>() > 0;
    if (with_error) csv << ",error";
    csv << "\n";
    for (const auto& row : rows) {
      auto nc = numeric_columns(row, true);
      csv << csv_escape(text_of(row["value"]));
      for (const auto& c : cols) {
        csv << ",";
        if (nc.count(c)) csv << num(nc[c]);
      }
      for (const auto& f : fixed) csv << "," << csv_escape(row["params"].contains(f) ? text_of(row["params"][f]) : "");
      if (with_error)
        csv << "," << csv_escape(row.contains("error") ? row["error"].get<std::string>() + " (" + row.value("error_where", std::string()) + ")" : "");
      csv << "\n";
    }
    files.push_back({o.csv_path, csv.str(), "--csv"});
  }
  if (!o.plot_path.empty()) files.push_back({o.plot_path, render_sweep_plot(out, o.plot_path), "--plot"});
  write_files_atomic(files);

  std::ostream& human = to_stdout(o.json_path) || to_stdout(o.csv_path) ? std::cerr : std::cout;
  const std::size_t n_failed = out["failed"].get<std::size_t>();
  print_wrapped(human, k.name + ": ", "sweep over " + key + " (" + std::to_string(rows.size()) + " value" + (rows.size() == 1 ? "" : "s") + ")", 4);
  print_sweep_table(human, key, rows);
  // Fits: a slope is printed over kMinFitPoints points or more (issue 49 item 5; the JSON keeps
  // every fit and its points); with fewer, one line says so.
  const std::size_t n_built = rows.size() - n_failed;
  bool any_fit = false;
  for (const auto& f : fits) any_fit = any_fit || f["fit"].is_object();
  if (any_fit && n_built < kMinFitPoints) {
    print_wrapped(human, "  fits: ",
                  "fewer than " + std::to_string(kMinFitPoints) + " points: no slope (" + std::to_string(n_built) +
                      " value" + (n_built == 1 ? "" : "s") + " built; --json keeps each fit and its points)",
                  4);
  }
  for (const auto& f : fits) {
    const std::string what = "fit " + f["quantity"].get<std::string>() + " ~ " + f["against"].get<std::string>();
    const std::size_t used = f["points_used"].get<std::size_t>();
    std::string text;
    if (!f["fit"].is_object()) {
      text = what + ": no fit (" + f.value("fit_reason", std::string()) + ")";
    } else if (used < kMinFitPoints || f["fit"]["points"].size() < kMinFitPoints) {
      if (n_built < kMinFitPoints && !f.contains("achieved_over_shape")) continue;  // said once above
      text = what + ": fewer than " + std::to_string(kMinFitPoints) + " points: no slope";
    } else {
      text = what + "^" + human_number(f["fit"]["slope"].get<double>()) + " (r2 " + human_number(f["fit"]["r2"].get<double>()) +
             ", " + std::to_string(f["fit"]["points"].size()) + " points)";
    }
    if (f.contains("achieved_over_shape")) text += " ratios " + ratios_text(f["achieved_over_shape"]);
    if (f.contains("note")) text += " [" + f["note"].get<std::string>() + "]";
    print_wrapped(human, "  ", text, 4);
  }
  if (n_failed) {
    print_wrapped(human, "  ",
                  std::to_string(n_failed) + " of " + std::to_string(rows.size()) + " values FAILED (their rows say why); " +
                      (fits.empty() ? std::string("no fits") : "the fits use the " + std::to_string(n_built) + " built"),
                  4);
    return 1;
  }
  return 0;
}

}  // namespace cz::cli
