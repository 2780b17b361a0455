// A model over Q checked against an exact semantics over Q (sim/retnet and sim/rwkv with rational
// decays: their weights γ^t, λ^t are not integers, so model_vs_semantics, which evaluates in int64
// then Z, does not apply). Inputs come from the usual integer MatrixDomain and are read as
// rationals; the model is prepared once over Q (model/eval.h, the project's one evaluator) and
// compared entry for entry with sem(RingQ, u). Exact: no rounding anywhere.
#pragma once
#include <memory>

#include "model/eval.h"
#include "model/model_json.h"
#include "verify/model_check.h"

namespace cz::sim {

inline nlohmann::json rat_matrix_json(const Matrix<Rat>& m) { return matrix_to_json(m); }

template <class Sem>
Check rational_model_vs_semantics(const Model& model, Sem sem, const MatrixDomain& dom) {
  auto p = std::make_shared<const PreparedModel<RingQ>>(prepare(RingQ{}, model));
  auto fail_of = [p, sem](const Matrix<std::int64_t>& u) -> std::optional<Failure> {
    const Matrix<Rat> uq = map_matrix(u, [](std::int64_t x) { return Rat(x); });
    return first_mismatch(u, sem(RingQ{}, uq), eval(*p, uq), [](const Matrix<Rat>& m) { return rat_matrix_json(m); });
  };
  return matrix_domain_check(dom, std::move(fail_of), dom.describe() + ", evaluated over Q");
}

// Integral models go through the int64/Z path (model_vs_semantics), others through Q.
template <class Sem>
Check exact_model_vs_semantics(const Model& model, Sem sem, const MatrixDomain& dom) {
  if (model.ring == "Z") return model_vs_semantics(model, std::move(sem), dom);
  return rational_model_vs_semantics(model, std::move(sem), dom);
}

}  // namespace cz::sim
