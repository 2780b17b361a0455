#include "constructions/mqar/common.h"

#include <string>

#include "util/error.h"

namespace cz::mqarc {

Matrix<Int> eval_exact(const Model& m, const Matrix<std::int64_t>& u) {
  try {
    PreparedModel<RingI64> p = prepare(RingI64{}, m);
    return map_matrix(eval(p, u), [](std::int64_t x) { return Int(x); });
  } catch (const Overflow&) {
    return IntegerEvaluator(m)(u);
  }
}

void check_width(std::size_t inner_d, const std::string& what) {
  if (inner_d > 8192)
    throw InputError("the model would be " + std::to_string(inner_d) + " channels wide (" + what +
                         "); dense weights beyond 8192 channels are refused: lower the vocabulary c or t",
                     "-p c");
}

std::size_t max_distances(const TaskShape& s) {
  return s.layout == mqar::Layout::Triples ? (s.n ? s.n - 1 : 0) : s.K;
}

}  // namespace cz::mqarc
