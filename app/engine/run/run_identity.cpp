#include "app/engine/run/run_identity.h"

#include <dlfcn.h>

#include <cstdint>
#include <fstream>
#include <iterator>

#include "app/engine/run/read_back.h"
#include "model/model_json.h"
#include "util/error.h"

namespace cz {

namespace {
// The file this code was loaded from: the executable, or the shared object that holds it (the
// Python module: /proc/self/exe is then python3, the same file before and after a rebuild).
std::string code_file() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&code_file), &info) != 0 && info.dli_fname && info.dli_fbase) {
    const std::string f = info.dli_fname;
    if (f.size() > 3 && f.find(".so") != std::string::npos) return f;
  }
  return "/proc/self/exe";
}
}  // namespace

const std::string& build_id() {
  static const std::string id = [] {
    // FNV-1a over the executable (or the Python module): cheap (a few MB once) and changes with
    // every rebuild. The CLI and the module are different files: each merges and resumes its own
    // shards and checkpoints.
    std::ifstream in(code_file(), std::ios::binary);
    std::uint64_t h = 0xcbf29ce484222325ULL;
    char buf[1 << 16];
    bool any = false;
    while (in) {
      in.read(buf, sizeof buf);
      for (std::streamsize i = 0; i < in.gcount(); ++i) {
        h ^= static_cast<unsigned char>(buf[i]);
        h *= 0x100000001b3ULL;
        any = true;
      }
    }
    static const char* hex = "0123456789abcdef";
    std::string s = "0.1.0+";
    if (!any) return s + "unknown";
    for (int i = 60; i >= 0; i -= 4) s += hex[(h >> i) & 15];
    return s;
  }();
  return id;
}

nlohmann::json run_identity(const Construction& c, const Params& params, const Check& check, const DomainOptions& opts) {
  return {{"construction", c.name},        {"params", params.to_json()}, {"domain", check.domain},
          {"domain_description", check.description}, {"instances", check.instances}, {"seed", opts.seed},
          {"build", build_id()}};
}

nlohmann::json options_json(const DomainOptions& opts) {
  return {{"exhaustive", opts.force_exhaustive},
          {"samples", opts.samples ? nlohmann::json(*opts.samples) : nlohmann::json(nullptr)},
          {"seed", opts.seed},
          {"scalar", opts.scalar},
          {"block", opts.block}};
}

DomainOptions options_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw InputError("malformed options (want an object)", where);
  auto flag = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_boolean()) throw InputError(std::string("options.") + key + " must be true or false", where);
    return j[key].get<bool>();
  };
  DomainOptions o;
  o.force_exhaustive = flag("exhaustive");
  o.samples = exact_uint_or_null(j, "samples", "options.samples", where);
  o.seed = exact_uint(j, "seed", "options.seed", where);
  o.scalar = flag("scalar");
  o.block = exact_uint(j, "block", "options.block", where);
  // As the command line allows (--samples 1.., --block-size 1..2^24; 0 is the check's own block).
  if ((o.samples && (*o.samples == 0 || *o.samples > std::uint64_t{INT64_MAX})) || o.block > (std::uint64_t{1} << 24))
    throw InputError("options outside what verify accepts (1 <= samples < 2^63, block <= 2^24)", where);
  return o;
}

std::string identity_mismatch(const nlohmann::json& stored, const nlohmann::json& mine) {
  if (!stored.is_object()) return "no run identity";
  for (auto it = mine.begin(); it != mine.end(); ++it) {
    if (!stored.contains(it.key())) return it.key() + " missing";
    // Compared as written: 65536.0 is not the count 65536 (nlohmann's == would say it is).
    if (stored[it.key()].dump() != it->dump()) return it.key() + " " + json_brief(stored[it.key()]) + " (this run: " + json_brief(*it) + ")";
  }
  return "";
}

}  // namespace cz
