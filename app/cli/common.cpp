#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/engine/methods.h"
#include "app/cli/commands.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/text.h"

namespace cz::cli {

std::map<std::string, std::string> parse_params(const std::vector<std::string>& raw) {
  std::map<std::string, std::string> m;
  for (const auto& kv : raw) {
    auto [k, v] = split_kv(kv, "-p " + kv);
    if (m.count(k)) throw InputError("parameter '" + k + "' given twice", "-p " + kv);
    m[k] = v;
  }
  return m;
}

namespace {
// A new output goes into a directory that exists and can be written: found out before the work,
// not after it (issue 25: prove --all --json no/d.json failed after 26 s).
void check_output_directory(const std::string& flag, const std::string& path) {
  struct stat st {};
  if (path == "-" || ::lstat(path.c_str(), &st) == 0) return;  // existing outputs: check_output_paths
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string where = flag + " " + path;
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) throw InputError("cannot write file: the directory " + dir + " does not exist", where);
    throw InputError("cannot write file: cannot reach the directory " + dir + ": " + std::strerror(errno), where);
  }
  if (!S_ISDIR(st.st_mode)) throw InputError("cannot write file: " + dir + " is not a directory", where);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError("cannot write file: cannot write in the directory " + dir + ": " + std::strerror(errno), where);
}
}  // namespace

void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                   const std::vector<std::pair<std::string, std::string>>& inputs) {
  std::vector<NamedPath> outs, ins;
  for (const auto& [flag, path] : outputs)
    if (!path.empty()) outs.push_back({flag, path});
  for (const auto& [flag, path] : inputs)
    if (!path.empty()) ins.push_back({flag, path});
  check_output_paths(outs, ins);
  for (const auto& o : outs) check_output_directory(o.flag, o.path);
}

bool to_stdout(const std::string& path) { return path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1"; }

void throw_missing_name(const std::string& what, const std::string& where, const std::string& json_path) {
  if (json_path.empty() || to_stdout(json_path)) throw InputError(what, where);
  const std::string v = quoted_value(json_path);
  throw InputError(what + ": --json took '" + v + "' as its file name (--json takes an optional PATH); put NAME before --json, or write --json - NAME",
                   "--json " + v);
}

std::string json_text(const nlohmann::json& j) { return j.dump(2) + "\n"; }

void emit_json(const nlohmann::json& j, const std::string& path) {
  if (path.empty()) return;
  write_file_atomic(path, json_text(j));  // "-" is stdout
}

namespace {
std::ostream& null_stream() {
  thread_local std::ostream none(nullptr);  // no buffer: every write is dropped
  return none;
}
}  // namespace

std::ostream& human_stream(const std::string& json_path, const Capture& cap) {
  if (cap.on()) return null_stream();
  return to_stdout(json_path) ? std::cerr : std::cout;
}

std::ostream& error_stream(const Capture& cap) { return cap.on() ? null_stream() : std::cerr; }

void deliver_json(const nlohmann::json& j, const std::string& path, const Capture& cap) {
  if (cap.on()) *cap.json = j;
  else emit_json(j, path);
}

std::uint64_t parse_uint_flag(const std::string& text, const std::string& flag, std::uint64_t min, std::uint64_t max) {
  auto fail = [&]() -> std::uint64_t {
    throw InputError(flag + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max), flag + " " + text);
  };
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos) return fail();
  std::uint64_t v = 0;
  for (char ch : text) {
    const auto d = static_cast<std::uint64_t>(ch - '0');
    if (v > (UINT64_MAX - d) / 10) return fail();  // above 2^64 - 1
    v = v * 10 + d;
  }
  if (v < min || v > max) return fail();
  return v;
}

nlohmann::json registry_json() {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& k : registry()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : k.params) {
      nlohmann::json pj = {{"name", p.name}, {"default", p.default_value}, {"help", p.help}};
      if (p.kind == ParamSpec::Integer) { pj["kind"] = "int"; pj["min"] = p.min; pj["max"] = p.max; }
      else { pj["kind"] = "choice"; pj["choices"] = p.choices; }
      if (!p.aliases.empty()) pj["aliases"] = p.aliases;  // zoology's names (issue 26 item 9)
      if (!p.when.empty()) pj["when"] = p.when;            // "KEY=V1|V2": meaningful only then (issue 49 item 9)
      params.push_back(pj);
    }
    // "methods": what `verify NAME --method M` accepts at the defaults (app/engine/methods.h; issue 37)
    arr.push_back({{"name", k.name}, {"task", k.task}, {"summary", k.summary}, {"params", params}, {"methods", methods_at_defaults(k)}});
  }
  return arr;
}

}  // namespace cz::cli
