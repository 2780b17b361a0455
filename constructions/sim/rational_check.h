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
    const Matrix<Rat> got = eval(*p, uq), want = sem(RingQ{}, uq);
    for (std::size_t i = 0; i < want.rows(); ++i)
      for (std::size_t j = 0; j < want.cols(); ++j)
        if (got.rows() != want.rows() || got.cols() != want.cols() || !(want(i, j) == got(i, j))) {
          Failure f;
          f.input = int_matrix_json(u);
          f.expected = rat_matrix_json(want);
          f.got = rat_matrix_json(got);
          f.message = got.rows() != want.rows() || got.cols() != want.cols()
                          ? "output shape differs from the reference"
                          : "output[" + std::to_string(i) + "][" + std::to_string(j) + "] is " + got(i, j).str() + ", want " + want(i, j).str();
          return f;
        }
    return std::nullopt;
  };
  Check c;
  c.domain = dom.kind();
  c.instances = dom.count;
  c.description = dom.describe() + ", evaluated over Q";
  c.run = [dom, fail_of](std::uint64_t k) { return fail_of(dom.instance(k)); };
  c.shrink = [dom, fail_of](const Failure& f) {
    Matrix<std::int64_t> u = dom.instance(f.instance["index"].get<std::uint64_t>());
    u = shrink_matrix(u, [&](const Matrix<std::int64_t>& v) { return fail_of(v).has_value(); });
    Failure s = *fail_of(u);
    s.instance = f.instance;
    s.instance["shrunk"] = true;
    return s;
  };
  return c;
}

// Integral models go through the int64/Z path (model_vs_semantics), others through Q.
template <class Sem>
Check exact_model_vs_semantics(const Model& model, Sem sem, const MatrixDomain& dom) {
  if (model.ring == "Z") return model_vs_semantics(model, std::move(sem), dom);
  return rational_model_vs_semantics(model, std::move(sem), dom);
}

}  // namespace cz::sim
