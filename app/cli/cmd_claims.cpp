// `circuitzoo claims [--fast] [--json [PATH|-]] [--markdown [PATH|-]] [--latex [PATH|-]] [--errata [PATH|-]]
// [--plot FILE.svg|png]` (at most one of them to stdout): the claims
// ledger (proofs-checks/ledger): every row of spec §12 and every claim a construction declares,
// each with a computed status. Exit 0 (the ledger records refutations; it is not a failure of
// the tool), 2 on bad input.
#include <cerrno>
#include <chrono>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/plot.h"
#include "proofs-checks/ledger/ledger.h"
#include "app/report/report_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/progress.h"

namespace cz::cli {

int cmd_claims(const ClaimsOptions& o) {
  // The renderings asked for, each to stdout ("-") or a file; at most one to stdout.
  struct Rendering {
    bool on;
    const std::string& path;
    const char* flag;
  };
  const Rendering renderings[] = {{o.markdown, o.markdown_path, "--markdown"}, {o.latex, o.latex_path, "--latex"}, {o.errata, o.errata_path, "--errata"}};
  int to_out = to_stdout(o.json_path) ? 1 : 0;
  std::vector<std::pair<std::string, std::string>> named = {{"--json", o.json_path}, {"--plot", o.plot_path}};
  for (const Rendering& r : renderings) {
    if (!r.on) continue;
    if (to_stdout(r.path)) ++to_out;
    else named.push_back({r.flag, r.path});
  }
  if (to_out > 1 || (o.capture.on() && static_cast<int>(o.markdown) + o.latex + o.errata > 1))
    throw InputError("one output to stdout at most: give the others a PATH (e.g. --markdown ledger.md --latex ledger.tex)", "claims");
  check_outputs(named);
  // Issue 46 item 15: access() passes directories a file cannot be created in (root on sysfs, a
  // read-only mount seen as writable): create and remove a probe in each output's directory before
  // the ledger's work, so such an output is refused at once, not after it.
  for (const auto& [flag, path] : named) {
    if (path.empty() || to_stdout(path)) continue;
    const auto slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    const std::string probe = dir + "/.circuitzoo-probe-" + std::to_string(::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) throw InputError("cannot write file: cannot create a file in the directory " + dir + ": " + std::strerror(errno), flag + " " + path);
    ::close(fd);
    ::unlink(probe.c_str());
  }
  if (!o.plot_path.empty()) {
    check_plot_path(o.plot_path);
    check_plotting_available();  // a missing matplotlib is refused before any work
  }
  const bool text_to_stdout = to_out > 0;
  std::ostream& human = error_stream(o.capture);
  ledger::Options lo;
  lo.fast = o.fast;
  lo.progress = &human;
  human << "claims ledger (" << (o.fast ? "fast" : "full") << "):\n";
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<ledger::Entry> L;
  {
    // Every step shows (issue 49 item 7): a status line on a terminal's stderr between the rows'
    // lines (util/progress.h StatusLine; the engine's bar inside a verification has the line).
    StatusLine status(std::string("claims ledger (") + (o.fast ? "fast" : "full") + ")");
    status.step("computing row 1");
    lo.on_row = [&](const std::string& line, std::size_t entries) {
      status.print(human, line);
      status.step(std::to_string(entries) + " entries done, computing the next");
    };
    L = ledger::build_ledger(lo);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<OutputFile> files;  // every file or none (util/atomic_file.h write_files_atomic)
  std::string text_out;           // the one rendering for stdout (or Python)
  bool text_asked = false;
  for (const Rendering& r : renderings) {
    if (!r.on) continue;
    const std::string text = r.flag == std::string("--markdown") ? ledger::ledger_markdown(L)
                             : r.flag == std::string("--latex")  ? ledger::ledger_latex(L)
                                                                 : ledger::errata_markdown(ledger::errata(L));
    if (to_stdout(r.path) || o.capture.on()) text_out = text, text_asked = true;
    else files.push_back({r.path, text, r.flag});
  }
  const bool json_asked = !o.json_path.empty() || (o.capture.on() && !text_asked);
  if (json_asked || !o.plot_path.empty()) {
    nlohmann::json j = ledger::ledger_json(L, o.fast);
    if (timing_enabled()) j["timing"] = timing_json(secs, nlohmann::json::object());
    if (!o.json_path.empty()) files.push_back({o.json_path, json_text(j), "--json"});
    if (json_asked && o.capture.on()) *o.capture.json = j;
    if (!o.plot_path.empty()) files.push_back({o.plot_path, render_claims_plot(j, o.plot_path), "--plot"});
  }
  write_files_atomic(files);
  if (text_asked) {
    if (o.capture.on()) *o.capture.json = text_out;  // the Python module: the text comes back as a JSON string
    else std::cout << text_out;
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
