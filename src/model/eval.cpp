#include "model/eval.h"

namespace cz {
namespace {
std::optional<PreparedModel<RingI64>> try_fast(const Model& m) {
  try {
    return prepare(RingI64{}, m);
  } catch (const Overflow&) {
    return std::nullopt;
  }
}
}  // namespace

IntegerEvaluator::IntegerEvaluator(const Model& m) : fast_(try_fast(m)), exact_(prepare(RingZ{}, m)) {}

Matrix<Int> IntegerEvaluator::operator()(const Matrix<Int>& u) const {
  if (fast_) {
    try {
      Matrix<std::int64_t> u64 = map_matrix(u, [](const Int& x) { return RingI64{}.from_Int(x); });
      return map_matrix(eval(*fast_, u64), [](std::int64_t x) { return Int(x); });
    } catch (const Overflow&) {
    }
  }
  return eval(exact_, u);
}

Matrix<Int> IntegerEvaluator::operator()(const Matrix<std::int64_t>& u) const {
  if (fast_) {
    try {
      return map_matrix(eval(*fast_, u), [](std::int64_t x) { return Int(x); });
    } catch (const Overflow&) {
    }
  }
  return eval(exact_, map_matrix(u, [](std::int64_t x) { return Int(x); }));
}

}  // namespace cz
