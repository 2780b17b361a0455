// General associative recall (GAR, JRT Def G.24): keys k_0..k_{n-1} with values v_0..v_{n-1},
// then queries q_0..q_{m-1}; every token lies in [0, c). For each query, the value of a key
// equal to it, or Null. With distinct keys (the precondition of JRT Prop G.26: at most one match
// per query) the answer is unique. The reference is a plain map lookup.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

namespace cz::gar {

struct Instance {
  std::uint32_t c = 0;  // vocabulary size
  std::vector<std::uint32_t> keys, values, queries;
};

// One answer per query; nullopt is Null. Throws std::invalid_argument on duplicate keys.
std::vector<std::optional<std::uint32_t>> solve(const Instance& x);

nlohmann::json to_json(const Instance& x);

// Every instance with `nk` distinct keys (in every order), any values in [0, c) and `m` queries
// in [0, c): P(c, nk)·c^nk·c^m instances; nullopt when that overflows 64 bits.
std::optional<std::uint64_t> count(std::uint32_t c, std::size_t nk, std::size_t m);
Instance instance(std::uint32_t c, std::size_t nk, std::size_t m, std::uint64_t k);
// A uniform draw from the same set, given a uniform source below(bound) in [0, bound).
template <class Below>
Instance sample(std::uint32_t c, std::size_t nk, std::size_t m, Below&& below) {
  Instance x{c, {}, {}, {}};
  while (x.keys.size() < nk) {
    auto k = static_cast<std::uint32_t>(below(c));
    bool fresh = true;
    for (auto y : x.keys) fresh = fresh && y != k;
    if (fresh) x.keys.push_back(k);
  }
  for (std::size_t j = 0; j < nk; ++j) x.values.push_back(static_cast<std::uint32_t>(below(c)));
  for (std::size_t i = 0; i < m; ++i) x.queries.push_back(static_cast<std::uint32_t>(below(c)));
  return x;
}

}  // namespace cz::gar
