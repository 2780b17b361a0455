#include "constructions/mqar/lags.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace cz::mqarc {

std::map<std::size_t, std::uint64_t> qk_scores(const mqar::Instance& x) {
  std::map<std::size_t, std::uint64_t> s;
  for (std::size_t i = 0; i < x.query_rows.size(); ++i)
    for (std::size_t j = 0; j < x.visible[i]; ++j)
      if (x.key(j) == x.query(i)) ++s[x.query_rows[i] - x.key_rows[j]];
  return s;
}

std::map<std::size_t, std::uint64_t> autocorr_scores(const mqar::Instance& x) {
  std::map<std::size_t, std::uint64_t> s;
  for (std::size_t lag = 1; lag < x.N(); ++lag)
    for (std::size_t p = lag; p < x.N(); ++p)
      if (x.tokens[p] == x.tokens[p - lag]) ++s[lag];
  return s;
}

std::vector<std::size_t> top_lags(const std::map<std::size_t, std::uint64_t>& scores, std::size_t t) {
  std::vector<std::pair<std::size_t, std::uint64_t>> v;
  for (auto [lag, sc] : scores)
    if (sc > 0) v.emplace_back(lag, sc);
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < v.size() && i < t; ++i) out.push_back(v[i].first);
  return out;
}

LagChoice choose_lags(const mqar::Instance& x, LagRule rule, std::size_t t_param) {
  LagChoice c;
  const auto qk = qk_scores(x);
  for (auto [lag, sc] : qk) c.needed.push_back(lag);
  c.t = t_param ? t_param : std::max<std::size_t>(1, c.needed.size());
  c.lags = top_lags(rule == LagRule::QK ? qk : autocorr_scores(x), c.t);
  for (std::size_t s : c.needed)
    if (std::find(c.lags.begin(), c.lags.end(), s) == c.lags.end()) c.dropped.push_back(s);
  return c;
}

nlohmann::json to_json(const LagChoice& l) {
  return {{"t", l.t}, {"lags", l.lags}, {"needed", l.needed}, {"dropped", l.dropped}};
}

}  // namespace cz::mqarc
