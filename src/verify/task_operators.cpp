// Hyena, H3, RetNet and RWKV as tasks (issue 47 item 3): a user's model checked against ONE
// operator given by its weights in a file, `verify --model F --task KIND --operator OP`, the
// operator file being model-json whose one layer is an architecture layer of that kind (contract
// "Architecture layers"). The reference is the operator's own exact evaluation (model/hyena.h,
// h3.h, retnet.h, rwkv.h; no BaseConv code). The check itself needs the operator, which no -p
// parameter gives: it lives in app/engine/algebra/algebra_operator.h (run_operator_check, and
// run_operator_algebra for --method algebra); check and shape here only refuse, naming --operator.
#include "util/error.h"
#include "verify/task.h"

namespace cz {
namespace {

struct OperatorSpec {
  const char* name;
  const char* summary;
  const char* semantics;
  const char* reference;
  const char* construction;
  const char* input;
  const char* output;
  std::vector<ParamSpec> extra;
};

Task operator_task(OperatorSpec s) {
  Task t;
  t.name = s.name;
  t.summary = s.summary;
  t.semantics = s.semantics;
  t.params = {int_param("N", 64, 1, 1 << 16, "sequence length (rows); the --operator file's (a -p value must agree with it)"),
              int_param("d", 2, 1, 1 << 10, "channels; the --operator file's (a -p value must agree with it)")};
  for (auto& p : s.extra) t.params.push_back(std::move(p));
  t.input_encoding = s.input;
  t.output_decoding = s.output;
  t.domains = {"--method algebra: every input in Q^(N×w) (w = the operator's width), the model's output polynomials against the "
               "operator's, coefficient by coefficient (expansion; the compositional route where the model has the wide Hyena layout; "
               "--algebra-symbols weights where the model is the project's compiler's output at the file's weights)",
               "default: exact over Q on every u in {-1,0,1}^(N×w) when 3^(N·w) <= 2^16 (then 10000 seeded samples), else 1000 seeded "
               "integer matrices with entries in [-3, 3] (--samples K, --seed S)"};
  t.reference = std::string("the operator's own exact evaluation, ") + s.reference + " (its weights from the --operator file)";
  t.constructions = {s.construction};
  t.methods = {{"model", {"enumerate", "algebra"}}};
  t.operator_file = std::string("--operator FILE: a model-json file whose one layer is a \"") + s.name +
                    "\" architecture layer with its weights (contract.md \"Architecture layers\"; `circuitzoo export " + s.construction +
                    " --format operator` writes one)";
  const std::string name = s.name;
  auto refuse = [name]() -> InputError {
    return InputError("task " + name + " checks a model against an operator given by its weights: add --operator FILE (model-json whose one "
                      "layer is a " + name + " layer)",
                      "--operator");
  };
  t.shape = [refuse](const Params&) -> TaskShapeNeed { throw refuse(); };
  t.check = [refuse](const Params&, const TaskArtifact&, const DomainOptions&) -> Check { throw refuse(); };
  return t;
}

}  // namespace

std::vector<Task> operator_tasks() {
  std::vector<Task> ts;
  ts.push_back(operator_task(
      {"hyena", "Hyena of order k given by its weights: your model computes the same map",
       "x = h_s ∗ (u·W) = [v | p^1 | … | p^k]; z^0 = v, z^ℓ = p^ℓ ⊙ (h^ℓ ∗ z^(ℓ−1)); y = z^k (Zoology Alg. 2-3), causal convolutions",
       "src/model/hyena.h hyena_eval", "sim/hyena",
       "u is the N×d input itself (row i = position i); the model takes N×d",
       "y is the N×d output, compared entry by entry, exactly",
       {int_param("order", 2, 1, 64, "Hyena order k; the --operator file's")}}));
  ts.push_back(operator_task(
      {"h3", "H3 given by its weights (shift SSM, gate, diagonal SSM, gate): your model computes the same map",
       "form published: y = Q ⊙ (h_diag ∗ ((h_shift ∗ K) ⊙ V)); form shift_v: Q ⊙ (h_diag ∗ (K ⊙ (h_shift ∗ V))); Q, K, V = u·W_Q, "
       "u·W_K, u·W_V; the SSMs run as recurrences",
       "src/model/h3.h h3_eval", "sim/h3",
       "u is the N×d input itself (row i = position i); the model takes N×d",
       "y is the N×d output, compared entry by entry, exactly",
       {int_param("m", 2, 1, 64, "SSM state size per channel; the --operator file's"),
        choice_param("form", "published", {"published", "shift_v"}, "the --operator file's form")}}));
  ts.push_back(operator_task(
      {"retnet", "RetNet retention given by its weights (H heads, decays γ, optional rational rotation): your model computes the same map",
       "o_h[n] = Σ_{m≤n} γ_h^(n−m) ⟨q'_n, k'_m⟩ v_m (q', k' rotated by nθ, mθ where the file gives a rotation); y = [o_0 | … | o_(H−1)]·W_O",
       "src/model/retnet.h retnet_eval (the recurrent form S_n = γ·S_(n−1) + k_nᵀ v_n)", "sim/retnet",
       "u is the N×d input itself (row i = position i); the model takes N×d",
       "y is the N×d output, compared entry by entry, exactly over Q (γ^t rational)",
       {int_param("heads", 1, 1, 64, "heads H; the --operator file's"), int_param("dk", 2, 1, 256, "query/key width per head; the file's"),
        int_param("dv", 2, 1, 256, "value width per head; the file's")}}));
  ts.push_back(operator_task(
      {"rwkv", "RWKV-4 WKV numerator and denominator given by the weights: your model computes the same pair",
       "v = (μ⊙x[t] + (1−μ)⊙x[t−1])·W_V; num[t] = Σ_(i<t) λ^(t−1−i) E[i] v[i] + β E[t] v[t], den[t] = Σ_(i<t) λ^(t−1−i) E[i] + β E[t] "
       "(the ratio num/den is not a polynomial and is not compared)",
       "src/model/rwkv.h rwkv_eval (the recurrence a_(t+1) = λ·a_t + E_t·v_t, b_(t+1) = λ·b_t + E_t)", "sim/rwkv",
       "u = [E | x], N×2d: E = exp(k) supplied as an input feature (columns 0..d−1), x the tokens' channels (d..2d−1)",
       "y = [num | den], N×2d: the numerator in columns 0..d−1, the denominator in d..2d−1, compared exactly over Q",
       {}}));
  return ts;
}

}  // namespace cz
