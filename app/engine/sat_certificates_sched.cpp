#include "app/engine/sat_certificates_sched.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

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
    std::string miter, hash;
    std::vector<int> cube;
    try {
      if (!s.is_object() || !s.at("miter").is_string() || !s.at("cnf_hash").is_string() || !s.at("cube").is_array() ||
          !s.at("vars").is_array() || !s.at("cubes").is_array())
        throw InputError("a split wants miter, cnf_hash, cube, vars and cubes", where);
      miter = s["miter"].get<std::string>(), hash = s["cnf_hash"].get<std::string>();
      cube = s["cube"].get<std::vector<int>>();
      sp.vars = s["vars"].get<std::vector<int>>();
      sp.cubes = s["cubes"].get<std::vector<std::string>>();
    } catch (const json::exception&) {
      throw InputError("a split wants miter and cnf_hash (strings), cube and vars (integers), cubes (names)", where);
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
