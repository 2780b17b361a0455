#include "tasks/mqar_reference.h"

#include <map>
#include <stdexcept>

namespace cz::mqar {

std::vector<std::optional<std::int64_t>> reference_answers(const Instance& x) {
  std::map<std::int64_t, std::int64_t> D;  // key token -> value token
  std::vector<std::optional<std::int64_t>> out;
  if (x.layout == Layout::Triples) {
    if (x.N() % 3) throw std::invalid_argument("triples layout needs N = 3n");
    const std::size_t n = x.N() / 3;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t k = x.tokens[3 * i], v = x.tokens[3 * i + 1], q = x.tokens[3 * i + 2];
      std::optional<std::int64_t> a;
      if (i >= 1) {  // Alg. 9: lookup before insert
        auto it = D.find(q);
        if (it != D.end()) a = it->second;
      }
      out.push_back(a);
      D.insert_or_assign(k, v);  // insert AFTER the lookup: j < i strictly
    }
    return out;
  }
  const std::size_t K = x.key_rows.size();
  if (2 * K > x.N()) throw std::invalid_argument("zoology layout: 2K > N");
  for (std::size_t j = 0; j < K; ++j) D.insert_or_assign(x.tokens[2 * j], x.tokens[2 * j + 1]);
  for (std::size_t r : x.query_rows) {
    if (r < 2 * K) throw std::invalid_argument("zoology layout: a query inside the context");
    auto it = D.find(x.tokens[r]);
    out.push_back(it == D.end() ? std::nullopt : std::optional<std::int64_t>(it->second));
  }
  return out;
}

}  // namespace cz::mqar
