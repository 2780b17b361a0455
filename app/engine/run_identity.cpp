#include "app/engine/run_identity.h"

#include <cstdint>
#include <fstream>
#include <iterator>

namespace cz {

const std::string& build_id() {
  static const std::string id = [] {
    // FNV-1a over the executable: cheap (a few MB once) and changes with every rebuild.
    std::ifstream in("/proc/self/exe", std::ios::binary);
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

DomainOptions options_from_json(const nlohmann::json& j) {
  DomainOptions o;
  o.force_exhaustive = j.at("exhaustive").get<bool>();
  if (!j.at("samples").is_null()) o.samples = j.at("samples").get<std::uint64_t>();
  o.seed = j.at("seed").get<std::uint64_t>();
  o.scalar = j.at("scalar").get<bool>();
  o.block = j.at("block").get<std::uint64_t>();
  return o;
}

std::string identity_mismatch(const nlohmann::json& stored, const nlohmann::json& mine) {
  if (!stored.is_object()) return "no run identity";
  for (auto it = mine.begin(); it != mine.end(); ++it) {
    if (!stored.contains(it.key())) return it.key() + " missing";
    if (stored[it.key()] != *it) return it.key() + " " + stored[it.key()].dump() + " (this run: " + it->dump() + ")";
  }
  return "";
}

}  // namespace cz
