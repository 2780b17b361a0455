#include "app/engine/algebra/algebra_equiv.h"

#include <algorithm>
#include <memory>
#include <variant>

#include "tensor/conv_poly.h"  // conv() on symbols: before the evaluator is instantiated
#include "app/engine/algebra/algebra_budget.h"
#include "app/engine/algebra/algebra_compare.h"
#include "exact/rings.h"
#include "model/eval.h"
#include "util/error.h"
#include "verify/symbolic_reference.h"

namespace cz {
namespace {

using algebra_detail::fmt;

std::string shape_text(const Model& m) { return std::to_string(m.N) + "×" + std::to_string(m.d); }

// The field the identities are proved in: 0 for Q (rings Z and Q), else p.
std::uint64_t field_of(const Model& m, const std::string& file) {
  return m.ring == "Z" || m.ring == "Q" ? 0 : check_ring_name(m.ring, file + ".ring");
}

void check_polynomial(const Model& m, const std::string& file) {
  for (std::size_t l = 0; l < m.layers.size(); ++l)
    if (!std::holds_alternative<BaseConvLayer>(m.layers[l]) && !std::holds_alternative<LinearAttentionLayer>(m.layers[l]))
      throw InputError("the model has an MLP layer (ReLU is not a polynomial): --method algebra proves polynomial models",
                       file + ".layers[" + std::to_string(l) + "]");
}

// The bound twin of one model's expansion (RingBound): its peak live terms and its outputs'.
struct Twin {
  double peak = 0, out = 0;
  long degree = -1;
};

double sum_terms(const Matrix<PolyBound>& x) {
  double s = 0;
  for (const auto& e : x.data()) s += e.terms;
  return s;
}

Twin twin(const Model& m, std::size_t nvars) {
  const RingBound rb(nvars);
  const PreparedModel<RingBound> p = prepare(rb, m);
  const Matrix<PolyBound> u = algebra_detail::symbols(rb, m.N, m.d);
  Matrix<PolyBound> x(m.inner_N, m.inner_d, rb.zero());
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j) x(i, j) = u(i, j);
  Twin t;
  t.peak = sum_terms(x);
  for (const auto& layer : p.layers) {
    Matrix<PolyBound> y = std::visit([&](const auto& L) { return eval_layer(p, L, x); }, layer);
    t.peak = std::max(t.peak, sum_terms(x) + sum_terms(y));
    x = std::move(y);
  }
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j) t.out += x(i, j).terms, t.degree = std::max(t.degree, x(i, j).deg);
  return t;
}

nlohmann::json model_json(const Model& m) {
  return {{"ring", m.ring}, {"N", m.N}, {"d", m.d}, {"layers", m.layers.size()}, {"inner_N", m.inner_N}, {"inner_d", m.inner_d},
          {"conv", to_string(m.conv)}};
}

}  // namespace

AlgebraOutcome run_equiv_algebra(const Model& a, const std::string& file_a, const Model& b, const std::string& file_b,
                                 const AlgebraOptions& o) {
  using namespace algebra_budget;
  if (o.symbols != "inputs")
    throw InputError("--algebra-symbols weights proves a simulation for every weight of its operator; --equiv-model compares two "
                     "models' maps on every input (the default, inputs)",
                     "--algebra-symbols");
  if (o.route == "compositional")
    throw InputError("--equiv-model is proved by expansion (the compositional route is sim/hyena's, against Hyena's own steps)",
                     "--algebra-route");
  // What both models take must be the same; their inner shapes and layers may differ.
  if (a.N != b.N || a.d != b.d)
    throw InputError("the models take different inputs: " + file_a + " takes " + shape_text(a) + " inputs (N×d), " + file_b + " takes " +
                         shape_text(b) + " (each returns its input's shape)",
                     file_b);
  const std::uint64_t pa = field_of(a, file_a), pb = field_of(b, file_b);
  if (pa != pb)
    throw InputError("the models are over different rings: " + file_a + " is over " + a.ring + ", " + file_b + " over " + b.ring +
                         " (Z and Q are both proved over Q; Fp:<p> needs the same p)",
                     file_b + ".ring");
  check_polynomial(a, file_a);
  check_polynomial(b, file_b);
  // Both expansions against the budget before anything is expanded: closed forms, then the twins.
  const std::size_t nvars = a.N * a.d;
  const double budget = static_cast<double>(o.budget_bytes);
  const double bits = std::max(coefficient_bits(a), coefficient_bits(b));
  if (expansion_floor(a.N, a.d, nvars, bits) > budget) throw InputError(floor_message(a.N, a.d, nvars, bits, o.budget_bytes), "--algebra-budget");
  for (const auto* mf : {&a, &b}) {
    const double work = twin_work(*mf, nvars);
    if (work > kTwinWork)
      throw InputError("the expansion of " + (mf == &a ? file_a : file_b) + " in " + std::to_string(nvars) +
                           " symbols is too large to estimate before it runs (its bound twin alone would take about " + fmt(work) +
                           " word operations, over " + fmt(kTwinWork) + "), refused under the budget of " + std::to_string(o.budget_bytes) +
                           " bytes",
                       "--algebra-budget");
  }
  const Twin ta = twin(a, nvars), tb = twin(b, nvars);
  const double tbytes = term_bytes(nvars, bits);
  const double terms = ta.peak + ta.out + tb.peak + tb.out, bytes = terms * tbytes;
  const nlohmann::json both = {{"bytes", bytes}, {"terms", terms}, {"model_peak_terms", ta.peak}, {"model_output_terms", ta.out},
                               {"equiv_model_peak_terms", tb.peak}, {"equiv_model_output_terms", tb.out},
                               {"degree", std::max(ta.degree, tb.degree)}};
  if (bytes > budget)
    throw InputError("the expansion of both models would need about " + fmt(bytes) + " bytes (" + fmt(terms) + " terms: " + file_a + " " +
                         fmt(ta.peak) + " at its peak, " + file_b + " " + fmt(tb.peak) + "; degree " +
                         std::to_string(std::max(ta.degree, tb.degree)) + ", " + std::to_string(nvars) + " symbols), over the budget of " +
                         std::to_string(o.budget_bytes) + " bytes",
                     "--algebra-budget");

  // Model B as the reference: the project's one evaluator, on symbols, on the bound twin and on numbers.
  const auto mb = std::make_shared<const Model>(b);
  const auto ref = make_symbolic_reference([mb](const auto& r, const auto& u) { return eval(prepare(r, *mb), u); },
                                           "the model " + file_b + " (model/eval.h on the same symbols)");
  const std::string field = pa ? "F_" + std::to_string(pa) : "Q";
  nlohmann::json head = {{"model_file", file_a},
                         {"equiv_model_file", file_b},
                         {"artifact", {{"kind", "model"}, {"file", file_a}, {"format", "model-json"}}},
                         {"equiv_artifact", {{"kind", "model"}, {"file", file_b}, {"format", "model-json"}}},
                         {"model", model_json(a)},
                         {"equiv_model", model_json(b)},
                         {"field", field},
                         {"notes", {"model against model: " + file_a + " and " + file_b + " expanded as polynomials in the same " +
                                    std::to_string(nvars) + " input symbols and compared coefficient by coefficient"}}};
  AlgebraOutcome r = prove_model_identity(a, *ref, o, std::move(head), file_a);
  const std::string shape = shape_text(a);
  r.report["domain_description"] =
      "every input u in " + field + "^(" + shape + ")" +
      (pa ? " (the models' ring " + a.ring + "; a statement mod p only)" : " (hence every integer matrix, all of Z^(" + shape + "))") +
      ": the " + std::to_string(nvars) + " entries of u are symbols, and the output polynomials of " + file_a +
      (r.verdict == "proved" ? " equal those of " : " are compared with those of ") + file_b + " coefficient by coefficient" +
      (pa ? " in F_" + std::to_string(pa) + "[x]" : "");
  r.report["algebra"]["equiv_estimate"] = both;
  if (r.counterexample) {
    r.counterexample->instance["confirmed_by"] = "exact evaluation of both models over " + field + " (model/eval.h): `got` is " + file_a +
                                                 "'s output, `expected` " + file_b + "'s";
    r.counterexample->message = file_a + " and " + file_b + " differ: " + r.counterexample->message;
  }
  return r;
}

}  // namespace cz
