// Lag (interaction distance) selection for the data-dependent kernels of Zoology H.8 (eq 19:
// "the top t interaction distances of u retrieved via auto-correlation"; the exact formula is not
// in the text we hold, spec §8). Two rules:
//   qk       : S = {s : some query row p and some key row p-s that the query may see hold equal
//              tokens}, scored by the number of such pairs (spec §8's precise definition; the
//              "may see" respects the strict j < i of triples, spec E5, so lag 2 never enters).
//   autocorr : the plain autocorrelation of one-hot u, A[s] = sum_p <u[p], u[p-s]> = #{p : tok[p] =
//              tok[p-s]}, s = 1..N-1; value-value, query-query, filler-filler and same-triple
//              coincidences count too, and may push a needed lag out of the top t.
// Both take the top t lags by score (ties to the smaller lag), positive scores only.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "tasks/mqar.h"

namespace cz::mqarc {

enum class LagRule { QK, Autocorr };

std::map<std::size_t, std::uint64_t> qk_scores(const mqar::Instance& x);
std::map<std::size_t, std::uint64_t> autocorr_scores(const mqar::Instance& x);
std::vector<std::size_t> top_lags(const std::map<std::size_t, std::uint64_t>& scores, std::size_t t);

struct LagChoice {
  std::size_t t = 1;                  // number of kernel blocks (>= 1; blocks beyond lags.size() are empty)
  std::vector<std::size_t> lags;      // the chosen lags, best first (size <= t)
  std::vector<std::size_t> needed;    // the qk lags (what answering every query needs)
  std::vector<std::size_t> dropped;   // needed lags that were not chosen
};
// t_param = 0: t = the number of needed lags (at least 1), "enough for the instance".
LagChoice choose_lags(const mqar::Instance& x, LagRule rule, std::size_t t_param);
nlohmann::json to_json(const LagChoice& l);

}  // namespace cz::mqarc
