// `circuitzoo sweep NAME --vary KEY=V1,V2,...`: builds the construction at each value and
// tabulates its costs (model tuple, parameters, circuit stats, metrics) beside the paper's
// claims, then fits growth: the log-log slope of every quantity against the varied parameter,
// and of every asymptotic claim's achieved value against its O(.) shape (with the ratios).
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/plot.h"
#include "app/report/fit.h"
#include "app/report/report_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/progress.h"
#include "app/engine/cluster.h"
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
  // One row per value. Under mpirun the values are dealt round-robin to the ranks and the rows
  // gathered on rank 0 (issue 13), which alone fits and writes; the others return null.
  const std::size_t ranks = static_cast<std::size_t>(Cluster::size()), me = static_cast<std::size_t>(Cluster::rank());
  json mine = json::array();
  json error = nullptr;  // {what, where} of this rank's first failure
  Progress progress("sweep " + k.name, values.size());  // also how a watcher (Python) cancels between values
  for (std::size_t i = me; i < values.size() && error.is_null(); i += ranks) {
    try {
      progress.poll();
      mine.push_back({i, sweep_row(k, key, values[i], given)});
      progress.advance(1);
    } catch (const InputError& e) {
      if (!Cluster::active()) throw;  // one process: as any command
      error = {{"what", e.what()}, {"where", e.where}};
    } catch (const std::exception& e) {
      if (!Cluster::active()) throw;
      error = {{"what", e.what()}, {"where", "rank " + std::to_string(me)}};
    }
  }
  std::vector<json> by_index(values.size());
  if (!Cluster::active()) {  // one process: its rows, no round trip through text
    for (auto& r : mine) by_index[r[0].get<std::size_t>()] = std::move(r[1]);
  } else {
    json first_error = nullptr;
    for (const std::string& text : Cluster::gather(json({{"rows", mine}, {"error", error}}).dump())) {
      const json part = json::parse(text);
      for (const auto& r : part["rows"]) by_index[r[0].get<std::size_t>()] = r[1];
      if (first_error.is_null()) first_error = part["error"];
    }
    if (Cluster::broadcast(first_error.is_null() ? 0 : 2) != 0) {
      if (first_error.is_null()) throw InputError("another rank failed", "sweep");  // not printed (rank > 0)
      throw InputError(first_error["what"].get<std::string>(), first_error["where"].get<std::string>());
    }
    if (Cluster::rank() != 0) return nullptr;
  }
  json rows = json::array();
  std::vector<double> xs;
  bool numeric_x = true;
  for (const json& row : by_index) {
    rows.push_back(row);
    numeric_x = numeric_x && row["value"].is_number();
    xs.push_back(numeric_x ? row["value"].get<double>() : 0.0);
  }

  json fits = json::array();
  if (numeric_x && rows.size() >= 2) {
    std::map<std::string, std::vector<std::pair<double, double>>> series;
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (const auto& [col, y] : numeric_columns(rows[r])) series[col].emplace_back(xs[r], y);
    // A fit says which points it used: a quantity measured at fewer values than the sweep has (e.g.
    // AIG statistics, skipped above 200k gates) is fitted over those only, and says so.
    for (const auto& [col, pts] : series)
      if (auto f = fit_loglog(pts)) {
        json entry = {{"quantity", col}, {"against", key}, {"fit", fit_json(*f)},
                      {"points_used", pts.size()}, {"sweep_points", rows.size()}};
        if (pts.size() < rows.size()) {
          std::ostringstream os;
          os << "fitted over " << pts.size() << " of " << rows.size() << " values (" << key << " from "
             << num(pts.front().first) << " to " << num(pts.back().first)
             << "): the quantity is not measured at the others (a cap, e.g. AIG statistics above 200k gates)";
          entry["note"] = os.str();
        }
        fits.push_back(entry);
      }
    // Asymptotic claims: achieved against the claim's shape, row by row.
    std::map<std::string, std::vector<std::pair<double, double>>> shapes;
    std::map<std::string, json> claim_of;
    for (const auto& row : rows)
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
                    {"source", claim_of[id]["source"]}, {"achieved_over_shape", ratios}};
      if (auto f = fit_loglog(pts)) entry["fit"] = fit_json(*f);
      entry["points_used"] = pts.size();
      entry["sweep_points"] = rows.size();
      if (pts.size() < rows.size())
        entry["note"] = "fitted over " + std::to_string(pts.size()) + " of " + std::to_string(rows.size()) +
                        " values: the claim's achieved value is not measured at the others";
      fits.push_back(entry);
    }
  }

  json out = {{"tool", "circuitzoo"}, {"version", kVersion}, {"construction", k.name}, {"vary", key},
              {"values", values}, {"fixed", given}, {"rows", rows}, {"fits", fits}};
  return out;
}

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
    csv << "\n";
    for (const auto& row : rows) {
      auto nc = numeric_columns(row, true);
      csv << csv_escape(text_of(row["value"]));
      for (const auto& c : cols) {
        csv << ",";
        if (nc.count(c)) csv << num(nc[c]);
      }
      for (const auto& f : fixed) csv << "," << csv_escape(row["params"].contains(f) ? text_of(row["params"][f]) : "");
      csv << "\n";
    }
    files.push_back({o.csv_path, csv.str(), "--csv"});
  }
  if (!o.plot_path.empty()) files.push_back({o.plot_path, render_sweep_plot(out, o.plot_path), "--plot"});
  write_files_atomic(files);

  std::ostream& human = to_stdout(o.json_path) || to_stdout(o.csv_path) ? std::cerr : std::cout;
  human << k.name << ": sweep over " << key << "\n";
  for (const auto& row : rows) {
    human << "  " << key << "=" << (row["value"].is_string() ? row["value"].get<std::string>() : row["value"].dump());
    for (const auto& [c, y] : numeric_columns(row, true)) human << "  " << c << "=" << num(y);
    human << "\n";
  }
  for (const auto& f : fits) {
    if (!f.contains("fit")) continue;
    human << "  fit " << f["quantity"].get<std::string>() << " ~ " << f["against"].get<std::string>() << "^"
          << num(std::round(f["fit"]["slope"].get<double>() * 1e4) / 1e4) << " (r2 "
          << num(std::round(f["fit"]["r2"].get<double>() * 1e4) / 1e4) << ")";
    if (f.contains("achieved_over_shape")) human << " ratios " << f["achieved_over_shape"].dump();
    if (f.contains("note")) human << " [" << f["note"].get<std::string>() << "]";
    human << "\n";
  }
  return 0;
}

}  // namespace cz::cli
