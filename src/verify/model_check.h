// Checks a model against an exact semantics function on a MatrixDomain. `sem` is a generic
// callable sem(ring, u) -> Matrix<ring elem>, written independently of the construction (see
// tasks/primitive_semantics.h). Both run in the checked int64 ring first and are redone in Z
// on overflow, so the verdict is exact.
#pragma once
#include <functional>
#include <memory>

#include "model/eval.h"
#include "verify/construction.h"
#include "verify/matrix_domain.h"

namespace cz {

nlohmann::json int_matrix_json(const Matrix<Int>& m);
nlohmann::json int_matrix_json(const Matrix<std::int64_t>& m);

// Greedy shrinking of a failing input: zero entries, then move them toward 0, while `fails`.
Matrix<std::int64_t> shrink_matrix(Matrix<std::int64_t> u, const std::function<bool(const Matrix<std::int64_t>&)>& fails);

// The first entry where got differs from want (or a shape difference), as a Failure on input u
// (expected/got written by to_json); nullopt when they are equal. One wording for every check of
// an output matrix against a reference (model_vs_semantics, sim's Q checks, --method sat confirms).
template <class T, class ToJson>
std::optional<Failure> first_mismatch(const Matrix<std::int64_t>& u, const Matrix<T>& want, const Matrix<T>& got, ToJson to_json) {
  auto failure = [&](std::string message) {
    Failure f;
    f.input = int_matrix_json(u);
    f.expected = to_json(want);
    f.got = to_json(got);
    f.message = std::move(message);
    return f;
  };
  if (want.rows() != got.rows() || want.cols() != got.cols())
    return failure("output is " + std::to_string(got.rows()) + "x" + std::to_string(got.cols()) + ", want " +
                   std::to_string(want.rows()) + "x" + std::to_string(want.cols()));
  for (std::size_t i = 0; i < want.rows(); ++i)
    for (std::size_t j = 0; j < want.cols(); ++j)
      if (!(want(i, j) == got(i, j)))
        return failure("output[" + std::to_string(i) + "][" + std::to_string(j) + "] is " + got(i, j).str() + ", want " +
                       want(i, j).str());
  return std::nullopt;
}

using MatrixFailureFn = std::function<std::optional<Failure>(const Matrix<std::int64_t>&)>;

// A Check over a domain of matrices (MatrixDomain, or any type with kind(), count and
// instance(k)) from fail_of(u): instance k is dom.instance(k); a failure is shrunk toward 0
// (shrink_matrix) and keeps its own instance keys plus the original's (its index) and
// "shrunk": true.
template <class Domain>
Check matrix_domain_check(const Domain& dom, MatrixFailureFn fail_of, std::string description) {
  Check c;
  c.domain = dom.kind();
  c.instances = dom.count;
  c.description = std::move(description);
  c.run = [dom, fail_of](std::uint64_t k) { return fail_of(dom.instance(k)); };
  c.shrink = [dom, fail_of](const Failure& f) {
    Matrix<std::int64_t> u = dom.instance(f.instance["index"].get<std::uint64_t>());
    u = shrink_matrix(u, [&](const Matrix<std::int64_t>& v) { return fail_of(v).has_value(); });
    Failure s = *fail_of(u);
    for (const auto& [k, v] : f.instance.items())
      if (!s.instance.contains(k)) s.instance[k] = v;
    s.instance["shrunk"] = true;
    return s;
  };
  return c;
}

// The same check for any exact artifact given as a function u -> output (a model's evaluator, a
// circuit file's evaluator: `verify --model/--circuit FILE --task`, verify/task.h).
template <class Sem>
Check fn_vs_semantics(std::function<Matrix<Int>(const Matrix<std::int64_t>&)> artifact, Sem sem, const MatrixDomain& dom) {
  auto compute = [artifact = std::move(artifact), sem](const Matrix<std::int64_t>& u) {
    Matrix<Int> got = artifact(u);
    Matrix<Int> want;
    try {
      want = map_matrix(sem(RingI64{}, u), [](std::int64_t x) { return Int(x); });
    } catch (const Overflow&) {
      want = sem(RingZ{}, map_matrix(u, [](std::int64_t x) { return Int(x); }));
    }
    return std::make_pair(std::move(want), std::move(got));
  };
  auto fail_of = [compute](const Matrix<std::int64_t>& u) -> std::optional<Failure> {
    auto [want, got] = compute(u);
    return first_mismatch(u, want, got, [](const Matrix<Int>& m) { return int_matrix_json(m); });
  };
  return matrix_domain_check(dom, std::move(fail_of), dom.describe());
}

template <class Sem>
Check model_vs_semantics(const Model& model, Sem sem, const MatrixDomain& dom) {
  auto eval = std::make_shared<IntegerEvaluator>(model);
  return fn_vs_semantics([eval](const Matrix<std::int64_t>& u) { return (*eval)(u); }, std::move(sem), dom);
}

}  // namespace cz
