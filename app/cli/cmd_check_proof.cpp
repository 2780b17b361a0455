// `circuitzoo check-proof DIR` (issue 38; contract.md "check-proof"): a --proof DIR checked
// offline by app/engine/sat/sat_certificates.h, one line per miter, then the verdict.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/engine/sat/sat_certificates.h"
#include "app/report/report_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/threads.h"

namespace cz::cli {

namespace {
// The report never lands on an input (issue 46 row 7: `check-proof P --json P/index.json` replaced
// the index with the report and the certificate was gone): refused before any work, an output
// that would be written inside a certificate directory (compared by device and inode up the
// output's real directory, so through symbolic links and other spellings too) or that is one of
// a directory's files under another name (a hard link).
void refuse_output_on_inputs(const std::string& out, const std::vector<std::string>& dirs) {
  if (out.empty() || !is_replaced_output(out)) return;  // stdout, devices, FIFOs: written through, nothing replaced
  char buf[PATH_MAX];
  std::string real;  // the file the output replaces (a symlink's target), or the new file's path
  if (::realpath(out.c_str(), buf)) {
    real = buf;
  } else {
    const auto slash = out.find_last_of('/');
    const std::string parent = slash == std::string::npos ? "." : (slash == 0 ? "/" : out.substr(0, slash));
    if (!::realpath(parent.c_str(), buf)) return;  // check_outputs refuses it
    real = std::string(buf) + "/" + (slash == std::string::npos ? out : out.substr(slash + 1));
  }
  struct stat os {};
  const bool exists = ::stat(real.c_str(), &os) == 0;
  for (const std::string& d : dirs) {
    struct stat ds {};
    if (d.empty() || ::stat(d.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode)) continue;  // check_proof_dirs says what is wrong
    for (std::string up = real.substr(0, real.find_last_of('/'));; up = up.substr(0, up.find_last_of('/'))) {
      if (up.empty()) up = "/";
      struct stat us {};
      if (::stat(up.c_str(), &us) == 0 && us.st_dev == ds.st_dev && us.st_ino == ds.st_ino)
        throw InputError("the report would be written into the certificate directory " + d +
                             ", an input of check-proof (its index and files are never replaced): write it elsewhere",
                         "--json " + out);
      if (up == "/") break;
    }
    if (!exists) continue;
    if (DIR* dp = ::opendir(d.c_str())) {
      std::string hit;
      while (const dirent* de = ::readdir(dp)) {
        struct stat fs {};
        if (::fstatat(::dirfd(dp), de->d_name, &fs, AT_SYMLINK_NOFOLLOW) == 0 && fs.st_dev == os.st_dev && fs.st_ino == os.st_ino &&
            S_ISREG(fs.st_mode)) {
          hit = de->d_name;
          break;
        }
      }
      ::closedir(dp);
      if (!hit.empty())
        throw InputError("the report would replace " + d + "/" + hit + " (the same file under another name), an input of check-proof",
                         "--json " + out);
    }
  }
}
}  // namespace

int cmd_check_proof(const CheckProofOptions& o) {
  const std::vector<std::string> dirs = o.dirs.empty() ? std::vector<std::string>{o.dir} : o.dirs;
  refuse_output_on_inputs(o.json_path, dirs);
  check_outputs({{"--json", o.json_path}});
  CheckProofResult r = check_proof_dirs(dirs, resolve_threads(o.threads), o.circuits);
  std::ostream& human = human_stream(o.json_path, o.capture);
  for (const auto& m : r.report["miters"])
    human << (m["verdict"] == "certified" ? "certified  " : "REJECTED   ") << m["what"].get<std::string>() << " ("
          << m["answer"].get<std::string>() << ", " << m["cnf"].get<std::string>() << ")"
          << (m["verdict"] == "certified" ? std::string() : ": " + m["verdict"].get<std::string>()) << "\n";
  if (r.report.contains("splits"))  // cube-and-conquer (issue 38): each split made again, its cubes all answered
    for (const auto& sp : r.report["splits"])
      if (sp["verdict"] != "certified")
        human << "REJECTED   split of " << sp["miter"].get<std::string>() << " at cube " << sp["cube"].dump() << ": " << sp["verdict"].get<std::string>() << "\n";
  // An equivalence run (circuit A --equiv B --proof DIR, issue 47) names its two files, not a construction.
  human << (r.report.contains("what") ? r.report["what"].get<std::string>()
                                      : r.report["construction"].get<std::string>() + "  " + r.report["params"].dump())
        << "  " << r.report["verdict"].get<std::string>()
        << "  (" << r.report["miters"].size() << " certificates"
        << (r.report.contains("splits") ? ", " + std::to_string(r.report["splits"].size()) + " splits into cubes" : std::string())
        << (r.report.contains("dirs") ? ", " + std::to_string(r.report["dirs"].size()) + " shards" : std::string()) << "; the re-encoded run: " << r.report["run_verdict"].get<std::string>() << ")\n";
  if (r.report.contains("why")) human << "  why: " << r.report["why"].get<std::string>() << "\n";
  nlohmann::json j = r.report;
  j["tool"] = "circuitzoo";
  j["version"] = kVersion;
  if (!timing_enabled()) j.erase("seconds");
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return r.exit_code;
}

}  // namespace cz::cli
