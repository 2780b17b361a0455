#include "app/engine/algebra/algebra_operator.h"

#include <chrono>
#include <optional>

#include "constructions/sim/rational_check.h"
#include "model/h3.h"
#include "model/hyena.h"
#include "model/model_json.h"
#include "model/retnet.h"
#include "model/rwkv.h"
#include "model/zoo_compile.h"
#include "util/error.h"
#include "verify/matrix_domain.h"
#include "verify/symbolic_reference.h"
#include "verify/weight_symbolic.h"

namespace cz {
namespace {

std::string shape(std::size_t N, std::size_t d) { return std::to_string(N) + "×" + std::to_string(d); }

std::size_t op_rows(const ArchLayer& a) {
  return std::visit([](const auto& op) { return op.N; }, a.op);
}

// The wide Hyena layout the compositional route proves step by step: (N, pre + k, d, N, (k+1)d).
struct HyenaForm {
  HyenaOperator op;
  bool short_conv = true;
};
std::optional<HyenaForm> hyena_form(const ArchLayer& a) {
  if (const auto* h = std::get_if<HyenaOperator>(&a.op)) return HyenaForm{*h, true};
  if (const auto* h = std::get_if<H3Operator>(&a.op)) return HyenaForm{h3_as_hyena(*h), false};
  return std::nullopt;
}
bool wide_layout(const Model& m, const HyenaForm& f) {
  const std::size_t N = f.op.N, d = f.op.d, k = f.op.order;
  return m.N == N && m.d == d && m.inner_N == N && m.inner_d == (k + 1) * d && m.layers.size() == (f.short_conv ? 2 : 1) + k &&
         m.conv == ConvMode::Causal;
}

// The weights-as-symbols twin: the project's compiler of the operator's kind (the layout the
// model-json reader expands the layer into) and the operator's own evaluation, on symbolic weights.
std::shared_ptr<const WeightSymbolic> weights_of(const ArchLayer& a) {
  const std::size_t N = op_rows(a), w = arch_width(a);
  return std::visit(
      [&](const auto& op) -> std::shared_ptr<const WeightSymbolic> {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, HyenaOperator>)
          return make_weight_symbolic(op, N, w, "hyena", "W, every tap of h_s and of the long filters h^1..h^k, zero taps included",
                                      [](const auto& o) { return sim::hyena_compile(o); },
                                      [](const auto& r, const auto& o, const auto& u) { return hyena_eval(r, o, u); });
        else if constexpr (std::is_same_v<T, H3Operator>)
          return make_weight_symbolic(op, N, w, "h3", "W_Q, W_K, W_V and both SSMs' λ, B, C, D per channel; kernels C·A^t·B + D·[t = 0] as polynomials",
                                      [](const auto& o) { return sim::hyena_compile(h3_as_hyena(o), false); },
                                      [](const auto& r, const auto& o, const auto& u) { return h3_eval(r, o, u); });
        else if constexpr (std::is_same_v<T, RetNetOperator>)
          return make_weight_symbolic(op, N, w, "retnet",
                                      op.rotation.empty() ? "W_Q, W_K, W_V, W_O and the decays γ_h (γ^t as polynomials); no rotation"
                                                          : "W_Q, W_K, W_V, W_O, the decays γ_h (γ^t as polynomials) and each rotation's (c, s) as "
                                                            "free symbols (so for every (c, s), the unit circle included)",
                                      [](const auto& o) { return sim::retnet_compile(o); },
                                      [](const auto& r, const auto& o, const auto& u) { return retnet_eval(r, o, u); });
        else
          return make_weight_symbolic(op, N, w, "rwkv", "μ, W_V, the decays λ (λ^(t−1) as polynomials) and the bonuses β per channel",
                                      [](const auto& o) { return sim::rwkv_compile(o); },
                                      [](const auto& r, const auto& o, const auto& u) { return rwkv_eval(r, o, u); });
      },
      a.op);
}

std::string reference_name(const ArchLayer& a) {
  static const char* fns[] = {"model/hyena.h hyena_eval", "model/h3.h h3_eval", "model/retnet.h retnet_eval", "model/rwkv.h rwkv_eval"};
  return "the " + arch_kind(a) + " operator's own exact evaluation (" + fns[a.op.index()] + ")";
}

// The user's model takes the operator's input: N rows, w columns (its output is N×w as well).
void require_shape(const Model& m, const std::string& user_file, const ArchLayer& a, const std::string& op_file) {
  const std::size_t N = op_rows(a), w = arch_width(a);
  if (m.N != N || m.d != w)
    throw InputError("the model takes " + shape(m.N, m.d) + " inputs; the " + arch_kind(a) + " operator of " + op_file + " takes " + shape(N, w) +
                         (std::holds_alternative<RwkvOperator>(a.op) ? " ([E | x] -> [num | den])" : ""),
                     user_file);
}

nlohmann::json operator_json(const ArchLayer& a, const std::string& op_file) {
  return {{"file", op_file}, {"kind", arch_kind(a)}, {"N", op_rows(a)}, {"width", arch_width(a)}, {"weights", weights_of(a)->names.size()}};
}

nlohmann::json model_json_head(const Model& m) {
  return {{"ring", m.ring}, {"N", m.N}, {"d", m.d}, {"layers", m.layers.size()}, {"inner_N", m.inner_N}, {"inner_d", m.inner_d},
          {"conv", to_string(m.conv)}};
}

}  // namespace

std::shared_ptr<const ArchLayer> operator_of(const Model& m, const std::string& file, const std::string& task) {
  if (m.arch.size() != 1 || m.arch.front().first != 0 || m.arch.front().count != m.layers.size())
    throw InputError("an --operator file is model-json whose one layer is an architecture layer (\"kind\": " + task +
                         "), with its weights; this file has " + std::to_string(m.arch.size()) + " architecture layer(s) and " +
                         std::to_string(m.layers.size()) + " BaseConv layer(s)",
                     file);
  const std::shared_ptr<const ArchLayer> a = m.arch.front().layer;
  if (arch_kind(*a) != task)
    throw InputError("the operator file holds a " + arch_kind(*a) + " layer, not the task's " + task + " (use --task " + arch_kind(*a) + ")", file);
  return a;
}

std::map<std::string, std::string> operator_params(const ArchLayer& a) {
  return std::visit(
      [](const auto& op) -> std::map<std::string, std::string> {
        using T = std::decay_t<decltype(op)>;
        std::map<std::string, std::string> p = {{"N", std::to_string(op.N)}, {"d", std::to_string(op.d)}};
        if constexpr (std::is_same_v<T, HyenaOperator>) p["order"] = std::to_string(op.order);
        if constexpr (std::is_same_v<T, H3Operator>) p["m"] = std::to_string(op.m), p["form"] = h3_form_name(op.form);
        if constexpr (std::is_same_v<T, RetNetOperator>)
          p["heads"] = std::to_string(op.heads), p["dk"] = std::to_string(op.dk), p["dv"] = std::to_string(op.dv);
        return p;
      },
      a.op);
}

void check_operator_params(const std::map<std::string, std::string>& given, const ArchLayer& a, const std::string& op_file) {
  const auto have = operator_params(a);
  for (const auto& [k, v] : given) {
    const auto it = have.find(k);
    if (it == have.end()) throw InputError("the " + arch_kind(a) + " operator has no parameter '" + k + "'", "-p " + k);
    if (it->second != v)
      throw InputError("-p " + k + "=" + v + " but the operator of " + op_file + " has " + k + " = " + it->second +
                           " (the file gives every parameter; -p only states what you expect)",
                       "-p " + k);
  }
}

std::shared_ptr<const SymbolicReference> operator_reference(const ArchLayer& a, const Model& user) {
  auto held = std::make_shared<const ArchLayer>(a);
  auto ref = make_symbolic_reference([held](const auto& r, const auto& u) { return arch_eval(r, *held, u); }, reference_name(a));
  if (const auto f = hyena_form(a); f && wide_layout(user, *f)) {
    ref->hyena = std::make_shared<const HyenaOperator>(f->op);
    ref->hyena_short_conv = f->short_conv;
  }
  ref->weights = weights_of(a);
  ref->arch = held;
  return ref;
}

AlgebraOutcome run_operator_algebra(const Model& user, const std::string& user_file, const ArchLayer& a, const std::string& op_file,
                                    const AlgebraOptions& o) {
  require_shape(user, user_file, a, op_file);
  const auto ref = operator_reference(a, user);
  if (o.route == "compositional" && !ref->hyena)
    throw InputError(hyena_form(a) ? "the compositional route proves the wide Hyena layout step by step (hyena: (N, k+2, d, N, (k+1)d); h3 through "
                                     "Hyena of order 2: (N, 3, d, N, 3d)), and this model is (" + std::to_string(user.N) + ", " +
                                         std::to_string(user.layers.size()) + ", " + std::to_string(user.d) + ", " + std::to_string(user.inner_N) +
                                         ", " + std::to_string(user.inner_d) + "): use --algebra-route expansion (or auto)"
                                   : "no compositional route for a " + arch_kind(a) + " operator (hyena and h3 have one): use --algebra-route expansion (or auto)",
                     "--algebra-route");
  nlohmann::json head = {{"model_file", user_file}, {"task", arch_kind(a)}, {"operator", operator_json(a, op_file)},
                         {"model", model_json_head(user)}};
  AlgebraOutcome out = prove_model_identity(user, *ref, o, head, user_file);
  out.report["artifact"] = {{"kind", "model"}, {"file", user_file}, {"format", "model-json"}};
  if (std::holds_alternative<RwkvOperator>(a.op))
    out.report["operator"]["output"] = "[num | den]: RWKV's WKV numerator and denominator (the ratio is not a polynomial and is not compared)";
  if (o.symbols == "weights")
    out.report["operator"]["weights_note"] = "weights as symbols: the model must be the project's compiler's output at the operator file's "
                                             "weights (model/zoo_compile.h, the layout model-json expands the layer into), proved for every weight";
  return out;
}

Report run_operator_check(const Model& user, const std::string& user_file, const ArchLayer& a, const std::string& op_file,
                          const DomainOptions& opts) {
  require_shape(user, user_file, a, op_file);
  if (user.ring != "Z" && user.ring != "Q")
    throw InputError("a model over " + user.ring + " is checked against an operator by --method algebra (identities in F_p[x])", user_file);
  for (const auto& l : user.layers)
    if (std::holds_alternative<MlpLayer>(l))
      throw InputError("the model has an MLP layer: it is checked against the operator's exact evaluation only where it is polynomial", user_file);
  const std::size_t N = op_rows(a), w = arch_width(a);
  auto held = std::make_shared<const ArchLayer>(a);
  const MatrixDomain dom = make_matrix_domain(N, w, opts, 3, kOperatorSamplesDefault);
  Check check = sim::rational_model_vs_semantics(user, [held](const auto& r, const auto& u) { return arch_eval(r, *held, u); }, dom);
  Construction pseudo;
  pseudo.name = user_file;
  pseudo.task = arch_kind(a);
  Built built;
  built.model = user;
  built.notes = {"task " + arch_kind(a) + ": your model against " + reference_name(a) + ", the operator's weights from " + op_file,
                 "exact over Q on integer inputs: the {-1,0,1} box where it is at most 2^16 inputs, else seeded samples in [-3, 3] "
                 "(--samples K, default " + std::to_string(kOperatorSamplesDefault) + "); --method algebra proves every input in Q^(" +
                     shape(N, w) + ")"};
  if (std::holds_alternative<RwkvOperator>(a.op)) built.notes.push_back("RWKV: output [num | den], the WKV numerator and denominator (not the ratio)");
  Report r = run_check(pseudo, Params::parse({}, {}), built, check, opts);
  return r;
}

Model operator_model(const Construction& c, const Params& p) {
  const Built bt = c.build(p);
  const auto ref = symbolic_of(bt);
  if (!bt.model || !ref || !ref->arch)
    throw InputError(c.name + " has no operator to export: --format operator writes the architecture operator a simulation (hyena, h3, "
                              "retnet, rwkv) is built from, at stack=1",
                     "--format operator");
  Model m;
  m.ring = bt.model->ring;
  m.conv = ConvMode::Causal;
  m.N = m.inner_N = op_rows(*ref->arch);
  m.d = arch_width(*ref->arch);
  m.inner_d = arch_sim_width(*ref->arch);
  append_arch(m, ref->arch, c.name);
  return m;
}

}  // namespace cz
