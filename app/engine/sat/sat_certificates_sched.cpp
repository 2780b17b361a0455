#include "app/engine/sat/sat_certificates_sched.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "model/model_json.h"
#include "util/error.h"

namespace cz {

using nlohmann::json;

int natural_compare(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0, db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && a[ie] == '0') ++ie;  // leading zeros do not count
      while (je < b.size() && b[je] == '0') ++je;
      std::size_t ae = ie, be = je;
      while (ae < a.size() && std::isdigit(static_cast<unsigned char>(a[ae]))) ++ae;
      while (be < b.size() && std::isdigit(static_cast<unsigned char>(b[be]))) ++be;
      if (ae - ie != be - je) return ae - ie < be - je ? -1 : 1;
      if (const int c = a.compare(ie, ae - ie, b, je, be - je); c != 0) return c;
      i = ae, j = be;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
    ++i, ++j;
  }
  return (i < a.size()) - (j < b.size());
}

json index_splits(const json& log_splits) {
  std::vector<json> v(log_splits.begin(), log_splits.end());
  std::stable_sort(v.begin(), v.end(), [](const json& a, const json& b) {
    if (const int c = natural_compare(a["miter"].get<std::string>(), b["miter"].get<std::string>()); c != 0) return c < 0;
    return std::make_tuple(a["cnf_hash"].get<std::string>(), a["cube"].get<std::vector<int>>()) <
           std::make_tuple(b["cnf_hash"].get<std::string>(), b["cube"].get<std::vector<int>>());
  });
  json out = json::array();
  for (const json& s : v)
    if (out.empty() || out.back() != s) out.push_back(s);
  return out;
}

void read_index_splits(const json& idx, const std::string& ipath, CubePlan& plan) {
  if (!idx.contains("splits")) return;
  if (!idx["splits"].is_array()) throw InputError("\"splits\" is not an array", ipath);
  for (std::size_t k = 0; k < idx["splits"].size(); ++k) {
    const json& s = idx["splits"][k];
    const std::string where = ipath + ", splits[" + std::to_string(k) + "]";
    CubePlan::Split sp;
    sp.where = where;
    // Every value exactly what the index's writer writes (issue 46 row 10: 2^32+v or v+0.5 were
    // wrapped or cut to another variable, a cube literal 1.5 to 1), named by its field.
    const std::string f = "splits[" + std::to_string(k) + "]";
    if (!s.is_object()) throw InputError(f + " must be an object, got " + json_brief(s), ipath);
    auto field = [&](const char* key, bool array) -> const json& {
      if (!s.contains(key)) throw InputError("missing field " + f + "." + key, ipath);
      const json& v = s[key];
      if (array ? !v.is_array() : !v.is_string())
        throw InputError(f + "." + key + " must be " + (array ? "an array" : "a string") + ", got " + json_brief(v), ipath);
      return v;
    };
    // A literal (cube) or a variable (vars): a JSON integer, 0 < |l| <= 2^26 (circuits/sat/drat_check.h kDratMaxVar).
    auto ints = [&](const char* key, bool literal) {
      std::vector<int> out;
      const json& a = field(key, true);
      for (std::size_t i = 0; i < a.size(); ++i) {
        const json& v = a[i];
        const std::string name = f + "." + key + "[" + std::to_string(i) + "]";
        const bool integer = v.is_number_integer();
        const long long x = integer ? (v.is_number_unsigned() ? (v.get<std::uint64_t>() > (1ull << 40) ? (1ll << 40) : static_cast<long long>(v.get<std::uint64_t>()))
                                                             : v.get<long long>())
                                    : 0;
        const long long lim = 1ll << 26;
        if (!integer || x == 0 || x > lim || x < (literal ? -lim : 1))
          throw InputError(name + " must be " + (literal ? "a literal: a whole number, not 0, |l| <= 2^26" : "a variable: a whole number from 1 to 2^26") +
                               ", got " + json_brief(v),
                           ipath);
        out.push_back(static_cast<int>(x));
      }
      return out;
    };
    const std::string miter = field("miter", false).get<std::string>(), hash = field("cnf_hash", false).get<std::string>();
    const std::vector<int> cube = ints("cube", true);
    sp.vars = ints("vars", false);
    const json& cubes = field("cubes", true);
    for (std::size_t i = 0; i < cubes.size(); ++i) {
      if (!cubes[i].is_string()) throw InputError(f + ".cubes[" + std::to_string(i) + "] must be a string, got " + json_brief(cubes[i]), ipath);
      sp.cubes.push_back(cubes[i].get<std::string>());
    }
    if (std::any_of(cube.begin(), cube.end(), [](int l) { return l == 0; })) throw InputError("a cube literal is 0", where);
    const auto key = std::make_tuple(miter, hash, cube);
    const auto it = plan.splits.find(key);
    if (it != plan.splits.end()) {
      // The same split from two shards' indexes (or written twice) is one split; two others are not.
      if (it->second.vars != sp.vars || it->second.cubes != sp.cubes)
        throw InputError("two different splits of " + miter + " at one cube (also " + it->second.where + ")", where);
      continue;
    }
    plan.splits.emplace(key, std::move(sp));
  }
}

namespace {
// "I/K" with 0 <= I < K <= 4096, digits only.
std::pair<std::size_t, std::size_t> shard_of(const json& v, const std::string& where) {
  const std::string s = v.is_string() ? v.get<std::string>() : std::string();
  const std::size_t slash = s.find('/');
  auto num = [&](const std::string& t) {
    if (t.empty() || t.size() > 4 || t.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("\"shard\" wants \"I/K\" (0 <= I < K <= 4096)", where);
    return static_cast<std::size_t>(std::stoul(t));
  };
  if (slash == std::string::npos) throw InputError("\"shard\" wants \"I/K\" (0 <= I < K <= 4096)", where);
  const std::size_t i = num(s.substr(0, slash)), k = num(s.substr(slash + 1));
  if (k == 0 || i >= k || k > 4096) throw InputError("\"shard\" wants \"I/K\" (0 <= I < K <= 4096)", where);
  return {i, k};
}
}  // namespace

void check_shard_indexes(const std::vector<std::pair<std::string, json>>& idx) {
  std::map<std::size_t, std::string> seen;
  std::size_t K = 0;
  for (const auto& [path, j] : idx) {
    if (!j.contains("shard"))
      throw InputError(idx.size() > 1 ? "several directories are the shards of one run (`verify --shard I/K --proof DIR_I`), but this index names no shard"
                                      : "no \"shard\"",
                       path);
    const auto [i, k] = shard_of(j["shard"], path);
    if (K == 0) K = k;
    if (k != K) throw InputError("a shard of " + std::to_string(k) + " among shards of " + std::to_string(K), path);
    if (j["run"] != idx.front().second["run"])
      throw InputError("the index of another run than " + idx.front().first + " (construction, parameters or options differ)", path);
    if (!seen.emplace(i, path).second) throw InputError("shard " + std::to_string(i) + "/" + std::to_string(K) + " given twice (also " + seen[i] + ")", path);
  }
  for (std::size_t i = 0; i < K; ++i)
    if (!seen.count(i))
      throw InputError("shard " + std::to_string(i) + "/" + std::to_string(K) + " is missing (give every shard's directory)", "check-proof");
}

}  // namespace cz
