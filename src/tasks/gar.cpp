#include "tasks/gar.h"

#include <map>
#include <stdexcept>

namespace cz::gar {

std::vector<std::optional<std::uint32_t>> solve(const Instance& x) {
  std::map<std::uint32_t, std::uint32_t> table;
  for (std::size_t j = 0; j < x.keys.size(); ++j)
    if (!table.emplace(x.keys[j], x.values[j]).second) throw std::invalid_argument("GAR: duplicate key");
  std::vector<std::optional<std::uint32_t>> out;
  for (std::uint32_t q : x.queries) {
    auto it = table.find(q);
    out.push_back(it == table.end() ? std::nullopt : std::optional<std::uint32_t>(it->second));
  }
  return out;
}

nlohmann::json to_json(const Instance& x) {
  return {{"c", x.c}, {"keys", x.keys}, {"values", x.values}, {"queries", x.queries}};
}

std::optional<std::uint64_t> count(std::uint32_t c, std::size_t nk, std::size_t m) {
  if (nk > c) return 0;
  if (c > (1u << 16)) return std::nullopt;  // every factor below stays under 2^32
  unsigned __int128 t = 1;
  for (std::size_t j = 0; j < nk; ++j) {
    t *= static_cast<unsigned __int128>(c - j) * c;
    if (t > UINT64_MAX) return std::nullopt;
  }
  for (std::size_t i = 0; i < m; ++i) {
    t *= c;
    if (t > UINT64_MAX) return std::nullopt;
  }
  if (t > UINT64_MAX) return std::nullopt;
  return static_cast<std::uint64_t>(t);
}

Instance instance(std::uint32_t c, std::size_t nk, std::size_t m, std::uint64_t k) {
  Instance x{c, {}, {}, {}};
  for (std::size_t i = 0; i < m; ++i, k /= c) x.queries.push_back(static_cast<std::uint32_t>(k % c));
  for (std::size_t j = 0; j < nk; ++j, k /= c) x.values.push_back(static_cast<std::uint32_t>(k % c));
  std::vector<bool> used(c, false);
  for (std::size_t j = 0; j < nk; ++j) {  // mixed radix c, c-1, ...: the digit-th unused token
    std::uint64_t digit = k % (c - j);
    k /= (c - j);
    for (std::uint32_t t = 0; t < c; ++t)
      if (!used[t] && digit-- == 0) {
        used[t] = true;
        x.keys.push_back(t);
        break;
      }
  }
  return x;
}

}  // namespace cz::gar
