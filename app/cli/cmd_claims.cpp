// `circuitzoo claims [--fast] [--json [PATH|-] | --markdown | --latex | --errata] [--plot FILE.svg|png]`: the claims
// ledger (proofs-checks/ledger): every row of spec §12 and every claim a construction declares,
// each with a computed status. Exit 0 (the ledger records refutations; it is not a failure of
// the tool), 2 on bad input.
#include <chrono>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/plot.h"
#include "proofs-checks/ledger/ledger.h"
#include "app/report/report_json.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz::cli {

int cmd_claims(const ClaimsOptions& o) {
  if (static_cast<int>(!o.json_path.empty()) + o.markdown + o.latex + o.errata > 1)
    throw InputError("choose one of --json, --markdown, --latex, --errata", "claims");
  check_outputs({{"--json", o.json_path}, {"--plot", o.plot_path}});
  if (!o.plot_path.empty()) {
    check_plot_path(o.plot_path);
    check_plotting_available();  // a missing matplotlib is refused before any work
  }
  const bool text_to_stdout = o.markdown || o.latex || o.errata || to_stdout(o.json_path);
  std::ostream& human = error_stream(o.capture);
  ledger::Options lo;
  lo.fast = o.fast;
  lo.progress = &human;
  human << "claims ledger (" << (o.fast ? "fast" : "full") << "):\n";
  const auto t0 = std::chrono::steady_clock::now();
  auto L = ledger::build_ledger(lo);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ostringstream captured;  // the Python module: the text comes back as a JSON string
  std::ostream& doc = o.capture.on() ? captured : std::cout;
  if (o.markdown) doc << ledger::ledger_markdown(L);
  else if (o.latex) doc << ledger::ledger_latex(L);
  else if (o.errata) doc << ledger::errata_markdown(ledger::errata(L));
  if (o.capture.on() && (o.markdown || o.latex || o.errata)) *o.capture.json = captured.str();
  const bool json_asked = !o.json_path.empty() || (o.capture.on() && !o.markdown && !o.latex && !o.errata);
  if (json_asked || !o.plot_path.empty()) {
    nlohmann::json j = ledger::ledger_json(L, o.fast);
    if (timing_enabled()) j["timing"] = timing_json(secs, nlohmann::json::object());
    // Both outputs or neither (util/atomic_file.h write_files_atomic).
    std::vector<OutputFile> files;
    if (!o.json_path.empty()) files.push_back({o.json_path, json_text(j), "--json"});
    if (json_asked && o.capture.on()) *o.capture.json = j;
    if (!o.plot_path.empty()) files.push_back({o.plot_path, render_claims_plot(j, o.plot_path), "--plot"});
    write_files_atomic(files);
  }
  // Summary over the spec rows.
  std::map<std::string, int> counts;
  int rows = 0;
  for (const auto& e : L)
    if (e.row) ++counts[e.status], ++rows;
  std::ostream& sum = o.capture.on() ? human : text_to_stdout ? std::cerr : std::cout;
  sum << rows << " spec rows:";
  for (const auto& s : ledger::kStatuses)
    if (counts[s]) sum << " " << s << " " << counts[s] << ";";
  sum << " (" << L.size() << " entries in all)\n";
  return 0;
}

}  // namespace cz::cli
