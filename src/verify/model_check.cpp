#include "verify/model_check.h"

#include "model/model_json.h"

namespace cz {

nlohmann::json int_matrix_json(const Matrix<Int>& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < m.rows(); ++i) {
    nlohmann::json r = nlohmann::json::array();
    for (std::size_t j = 0; j < m.cols(); ++j) r.push_back(rat_to_json(Rat(m(i, j))));
    rows.push_back(std::move(r));
  }
  return rows;
}

nlohmann::json int_matrix_json(const Matrix<std::int64_t>& m) {
  return int_matrix_json(map_matrix(m, [](std::int64_t x) { return Int(x); }));
}

Matrix<std::int64_t> shrink_matrix(Matrix<std::int64_t> u, const std::function<bool(const Matrix<std::int64_t>&)>& fails) {
  bool changed = true;
  for (int round = 0; changed && round < 8; ++round) {
    changed = false;
    for (auto& x : u.data()) {
      if (x == 0) continue;
      const std::int64_t old = x;
      for (std::int64_t cand : {std::int64_t(0), old / 2, old > 0 ? old - 1 : old + 1}) {
        if (cand == old) continue;
        x = cand;
        if (fails(u)) { changed = true; break; }
        x = old;
      }
    }
  }
  return u;
}

}  // namespace cz
