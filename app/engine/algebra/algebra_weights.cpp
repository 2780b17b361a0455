#include "app/engine/algebra/algebra_weights.h"

#include "app/engine/algebra/algebra_compare.h"

#include <chrono>
#include <sstream>

#include "tensor/conv_poly.h"  // conv() on symbols: before the evaluator is instantiated
#include "model/eval.h"
#include "model/model_json.h"
#include "util/error.h"
#include "verify/model_check.h"

namespace cz {
namespace {

using namespace algebra_detail;  // since, splitmix, fmt, symbols, diff_outputs, gate_symbols





// The compiled shell with symbolic weights as a PreparedModel of the project's evaluator.
template <Ring R>
PreparedModel<R> prepare_shell(const R& r, const sim::ModelShell<RingScalar<R>>& s) {
  PreparedModel<R> p{r, s.N, s.d, s.inner_N, s.inner_d, ConvMode::Causal, {}};
  auto mat = [&](const Matrix<RingScalar<R>>& x) { return map_matrix(x, [&](const RingScalar<R>& q) { return q.elem(r); }); };
  for (const auto& L : s.layers) {
    RMatrix<R> W{mat(L.W), {}};
    W.nz_rows.resize(W.m.rows());
    for (std::size_t i = 0; i < W.m.rows(); ++i)
      for (std::size_t j = 0; j < W.m.cols(); ++j)
        if (!r.is_zero(W.m(i, j))) W.nz_rows[i].emplace_back(j, W.m(i, j));
    typename PreparedModel<R>::BaseConv B{std::move(W), mat(L.b1), mat(L.h), mat(L.b2), nullptr};
    B.taps = filter_taps(r, B.h);
    p.layers.emplace_back(std::move(B));
  }
  return p;
}

struct Estimate {
  double terms = 0, out_terms = 0, max_terms = 0, bytes = 0;
  long degree = -1;
};

double sum_terms(const Matrix<PolyBound>& x) {
  double s = 0;
  for (const auto& e : x.data()) s += e.terms;
  return s;
}

Estimate estimate(const WeightSymbolic& w, std::size_t nvars, std::size_t bytes_per_term) {
  const RingBound rb(nvars);
  const Matrix<PolyBound> u = symbols(rb, w.N, w.d);
  auto [shell, want] = w.bound(rb, u);
  const PreparedModel<RingBound> p = prepare_shell(rb, shell);
  Estimate e;
  double weights = 0;  // the symbolic weights themselves are live throughout
  for (const auto& L : shell.layers)
    for (const auto* M : {&L.W, &L.b1, &L.h, &L.b2})
      for (const auto& x : M->data())
        if (!x.is_constant()) weights += x.elem(rb).terms;
  Matrix<PolyBound> x(p.inner_N, p.inner_d, rb.zero());
  for (std::size_t i = 0; i < p.N; ++i)
    for (std::size_t j = 0; j < p.d; ++j) x(i, j) = u(i, j);
  double peak = sum_terms(x);
  for (const auto& layer : p.layers) {
    Matrix<PolyBound> y = std::visit([&](const auto& L) { return eval_layer(p, L, x); }, layer);
    peak = std::max(peak, sum_terms(x) + sum_terms(y));
    x = std::move(y);
  }
  for (std::size_t i = 0; i < p.N; ++i)
    for (std::size_t j = 0; j < p.d; ++j) {
      e.out_terms += x(i, j).terms;
      e.max_terms = std::max(e.max_terms, x(i, j).terms);
      e.degree = std::max(e.degree, x(i, j).deg);
    }
  double ref_terms = 0;
  for (const auto& v : want.data()) {
    ref_terms += v.terms;
    e.max_terms = std::max(e.max_terms, v.terms);
    e.degree = std::max(e.degree, v.deg);
  }
  // As the input-only estimate: the reference's intermediates counted as its outputs once more.
  e.terms = weights + peak + e.out_terms + 2 * ref_terms;
  e.bytes = e.terms * static_cast<double>(bytes_per_term);
  return e;
}

// The symbolic layers at the seeded weights (inputs 0) equal the verified model entry by entry.
std::string mismatch_with_model(const Model& m, const sim::ModelShell<RingScalar<RingPolyQ>>& s, const RingPolyQ& r,
                                const std::vector<Rat>& point) {
  if (m.N != s.N || m.d != s.d || m.inner_N != s.inner_N || m.inner_d != s.inner_d || m.layers.size() != s.layers.size() ||
      m.conv != ConvMode::Causal)
    return "the model's shape or layer count is not the compiler's";
  for (std::size_t l = 0; l < s.layers.size(); ++l) {
    const auto* b = std::get_if<BaseConvLayer>(&m.layers[l]);
    if (!b) return "layer " + std::to_string(l) + " is not a BaseConv layer";
    const auto& L = s.layers[l];
    const std::pair<const Matrix<RingScalar<RingPolyQ>>*, const RatMatrix*> mats[] = {{&L.W, &b->W}, {&L.b1, &b->b1}, {&L.h, &b->h}, {&L.b2, &b->b2}};
    const char* names[] = {"W", "b1", "h", "b2"};
    for (std::size_t k = 0; k < 4; ++k) {
      const auto& [sym, rat] = mats[k];
      if (sym->rows() != rat->rows() || sym->cols() != rat->cols()) return "layer " + std::to_string(l) + " " + names[k] + " has another shape";
      for (std::size_t i = 0; i < sym->data().size(); ++i) {
        const RingScalar<RingPolyQ>& x = sym->data()[i];
        const Rat v = x.is_constant() ? x.constant() : x.elem(r).evaluate(point);
        if (v != rat->data()[i])
          return "layer " + std::to_string(l) + " " + names[k] + " entry " + std::to_string(i) + ": the compiler at the seeded weights gives " +
                 v.str() + ", the model holds " + rat->data()[i].str();
      }
    }
  }
  return "";
}

struct Point {
  std::vector<Rat> weights;
  Matrix<Rat> u;
  Matrix<std::int64_t> ui;
};

Point split(const WeightSymbolic& w, const Matrix<std::int64_t>& pt) {
  Point p{{}, Matrix<Rat>(w.N, w.d), Matrix<std::int64_t>(w.N, w.d, 0)};
  const std::size_t nu = w.N * w.d;
  for (std::size_t k = 0; k < nu; ++k) p.ui.data()[k] = pt.data()[k], p.u.data()[k] = Rat(pt.data()[k]);
  for (std::size_t k = nu; k < pt.data().size(); ++k) p.weights.push_back(Rat(pt.data()[k]));
  return p;
}

// The shipped compiler at the point's weights against the reference, exactly over Q.
std::optional<Failure> confirm(const WeightSymbolic& w, const Matrix<std::int64_t>& pt) {
  const Point p = split(w, pt);
  auto [model, want] = w.exact(p.weights, p.u);
  const Matrix<Rat> got = eval(prepare(RingQ{}, model), p.u);
  return first_mismatch(p.ui, want, got, [](const Matrix<Rat>& x) { return matrix_to_json(x); });
}

// Hyena's wide simulation step by step with the weights as symbols (the input-only compositional
// route of algebra.cpp, carried over): each step's ring holds its state symbols and every weight;
// the model side is the symbolic compiler's layers for that step, the reference hyena_eval on an
// order-1 operator isolating the step, built from the same symbolic weights. Each step is an
// identity for every state and every weight, so their composition is Hyena for every u and every
// weight. Returns the steps; all_hold says whether every one holds.
nlohmann::json hyena_steps(const Model& m, const HyenaOperator& op, const std::vector<Rat>& seeded, const std::string& where, bool& all_hold,
                           double& terms, long& degree) {
  using Sc = RingScalar<RingPolyQ>;
  const std::size_t N = op.N, d = op.d, k = op.order, C = (k + 1) * d, pre = 2;
  nlohmann::json steps = nlohmann::json::array();
  all_hold = true;
  auto sub = [&](const sim::ModelShell<Sc>& s, std::size_t from, std::size_t to, bool inner) {
    sim::ModelShell<Sc> t = s;
    t.layers.assign(s.layers.begin() + static_cast<std::ptrdiff_t>(from), s.layers.begin() + static_cast<std::ptrdiff_t>(to));
    if (inner) t.N = s.inner_N, t.d = s.inner_d;
    return t;
  };
  auto compare = [&](const RingPolyQ& rq, const Matrix<PolyQ>& got, const Matrix<PolyQ>& want, std::size_t rows, std::size_t cols,
                     nlohmann::json& st) {
    std::size_t differ = 0;
    double t = 0;
    long deg = -1;
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) {
        t += static_cast<double>(got(i, j).terms() + want(i, j).terms());
        deg = std::max({deg, got(i, j).degree(), want(i, j).degree()});
        differ += !rq.equal(got(i, j), want(i, j));
      }
    st["terms"] = t, st["degree"] = deg, st["differing_outputs"] = differ, st["holds"] = differ == 0;
    terms += t, degree = std::max(degree, deg);
    all_hold = all_hold && differ == 0;
  };
  const std::size_t nw = [&] {
    std::size_t n = 0;
    map_weights<Rat>(op, [&](const std::string&, const Rat& q) { return ++n, q; });
    return n;
  }();
  for (std::size_t l = 0; l <= k; ++l) {  // l = 0: the projection; l >= 1: gate l
    const auto t0 = Clock::now();
    const std::size_t ns = l == 0 ? N * d : (k - l + 2) * N * d, nv = ns + nw;
    const RingPolyQ rq(nv);
    std::size_t next = ns;
    const HyenaOperatorT<Sc> sop = map_weights<Sc>(op, [&](const std::string&, const Rat&) { return Sc(rq, rq.var(next++)); });
    const sim::ModelShell<Sc> shell = sim::hyena_compile(sop);
    nlohmann::json st;
    if (l == 0) {
      std::vector<Rat> at(ns, Rat());
      at.insert(at.end(), seeded.begin(), seeded.end());
      if (const std::string bad = mismatch_with_model(m, shell, rq, at); !bad.empty())
        throw InputError("the model is not its compiler's output at the operator's weights (" + bad + ")", where);
      const Matrix<PolyQ> u = symbols(rq, N, d);
      const Matrix<PolyQ> got = eval_inner(prepare_shell(rq, sub(shell, 0, pre, false)), u);
      HyenaOperatorT<Sc> p1;
      p1.N = N, p1.d = C, p1.order = 1;
      p1.W = Matrix<Sc>(C, 2 * C), p1.hs = Matrix<Sc>(N, 2 * C), p1.h = {Matrix<Sc>(N, C)};
      for (std::size_t c = 0; c < C; ++c) {
        for (std::size_t j = 0; j < d; ++j) p1.W(j, c) = sop.W(j, c);
        p1.W(d, C + c) = Rat(1);  // input column d is the constant 1: p^1 = 1
        for (std::size_t t = 0; t < N; ++t) p1.hs(t, c) = sop.hs(t, c);
        p1.hs(0, C + c) = Rat(1);
        p1.h[0](0, c) = Rat(1);  // δ0: z^1 = 1 ⊙ v = x
      }
      Matrix<PolyQ> u1(N, C, rq.zero());
      for (std::size_t i = 0; i < N; ++i) {
        for (std::size_t j = 0; j < d; ++j) u1(i, j) = u(i, j);
        u1(i, d) = rq.one();
      }
      st = {{"step", "projection"}, {"model_layers", {1, pre}}, {"symbols", nv},
            {"identity", "model layers 1..2 (u) = [v | p^1 | ... | p^k] = h_s ∗ (u·W), W and h_s symbols"}};
      compare(rq, got, hyena_eval(rq, p1, u1), N, C, st);
    } else {
      auto [S, want, zp] = algebra_detail::gate_symbols(rq, N, d, k, l);
      const Matrix<PolyQ> got = eval_inner(prepare_shell(rq, sub(shell, pre + l - 1, pre + l, true)), S);
      HyenaOperatorT<Sc> pl;  // input [z | p^l]: v = [z | 0], p^1 = [p^l | 0], h^1 = [h^l | 0], h_s = δ0
      pl.N = N, pl.d = 2 * d, pl.order = 1;
      pl.W = Matrix<Sc>(2 * d, 4 * d), pl.hs = Matrix<Sc>(N, 4 * d), pl.h = {Matrix<Sc>(N, 2 * d)};
      for (std::size_t j = 0; j < d; ++j) {
        pl.W(j, j) = Rat(1);
        pl.W(d + j, 2 * d + j) = Rat(1);
        for (std::size_t t = 0; t < N; ++t) pl.h[0](t, j) = sop.h[l - 1](t, j);
      }
      for (std::size_t c = 0; c < 4 * d; ++c) pl.hs(0, c) = Rat(1);
      const Matrix<PolyQ> step = hyena_eval(rq, pl, zp);
      for (std::size_t i = 0; i < N; ++i)
        for (std::size_t j = 0; j < d; ++j) want(i, j) = step(i, j);
      st = {{"step", "gate " + std::to_string(l)}, {"model_layers", {pre + l, pre + l}}, {"symbols", nv},
            {"identity", "model layer " + std::to_string(pre + l) + " = [p^" + std::to_string(l) + " ⊙ (h^" + std::to_string(l) + " ∗ z^" +
                             std::to_string(l - 1) + ") | 0 | p^" + std::to_string(l + 1) + ".. p^k], h^" + std::to_string(l) +
                             " symbols" + (l == k ? " (block 0 read: the output)" : "")}};
      compare(rq, got, want, N, l == k ? d : C, st);
    }
    st["seconds"] = since(t0);
    steps.push_back(std::move(st));
  }
  return steps;
}


std::optional<Failure> search(const WeightSymbolic& w, std::uint64_t seed, int tries) {
  const std::size_t nvars = w.N * w.d + w.names.size();
  std::uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 17;
  for (int t = 0; t < tries; ++t) {
    const std::int64_t R = 1 + t / 8;
    Matrix<std::int64_t> pt(1, nvars, 0);
    for (auto& x : pt.data()) x = static_cast<std::int64_t>(splitmix(s) % static_cast<std::uint64_t>(2 * R + 1)) - R;
    if (auto f = confirm(w, pt)) return f;
  }
  return std::nullopt;
}

void fill_report(AlgebraOutcome& out, const WeightSymbolic& w, const std::string& reference, const std::string& route, nlohmann::json a,
                 const Estimate& est, const AlgebraOptions& o, nlohmann::json head, Clock::time_point t0);

AlgebraOutcome compose_weights(const Model& m, const WeightSymbolic& w, const HyenaOperator& op, const std::string& reference,
                               const Estimate& est, const AlgebraOptions& o, nlohmann::json head, const std::string& where,
                               Clock::time_point t0) {
  bool all = true;
  double terms = 0;
  long degree = -1;
  nlohmann::json steps = hyena_steps(m, op, w.seeded, where, all, terms, degree);
  AlgebraOutcome out;
  nlohmann::json a = {{"steps", steps}, {"terms", terms}, {"degree", degree}, {"symbols_of", "inputs+weights"},
                      {"symbols", w.N * w.d + w.names.size()}, {"input_symbols", w.N * w.d}, {"weight_symbols", w.names.size()},
                      {"operator", w.operator_name}, {"weights_note", w.note}, {"model_matches_seeded_weights", true},
                      {"composition", "Hyena's recursion z^0 = v, z^l = p^l ⊙ (h^l ∗ z^(l-1)), y = z^k (model/hyena.h): each step an identity "
                                      "in its own state symbols and every weight, its reference hyena_eval on an order-1 operator isolating it"}};
  if (all) {
    // A guard on the composition itself: the shipped compiler at seeded points of (weights, input), exactly.
    if (auto f = search(w, o.seed, 3))
      throw std::logic_error("algebra: every compositional step holds but model and reference differ at a point: " + f->message);
    a["spot_checks"] = 3;
    out.verdict = "proved";
    out.exit_code = 0;
  } else if (auto f = search(w, o.seed, 256)) {
    out.verdict = "refuted";
    out.exit_code = 1;
    out.counterexample = std::move(f);
  } else {
    out.verdict = "undecided";
    out.exit_code = 4;
    a["undecided"] = "a compositional step does not hold, and 256 seeded points found no weights and input where model and reference differ";
  }
  fill_report(out, w, reference, "compositional", std::move(a), est, o, std::move(head), t0);
  return out;
}

}  // namespace

AlgebraOutcome prove_weights_identity(const Model& m, const WeightSymbolic& w, const std::string& reference, const AlgebraOptions& o,
                                      nlohmann::json head, const std::string& where, const HyenaOperator* hyena) {
  const auto t0 = Clock::now();
  if (o.route == "compositional" && !hyena)
    throw InputError("no compositional route for this construction with the weights as symbols (it exists for sim/hyena layout=wide)",
                     "--algebra-route");
  const std::size_t nu = w.N * w.d, nw = w.names.size(), nvars = nu + nw;
  const RingPolyQ rq(nvars);
  const Estimate est = estimate(w, nvars, rq.bytes_per_term());
  const bool fits = est.bytes <= static_cast<double>(o.budget_bytes);
  const std::string route = o.route == "auto" ? (fits || !hyena ? "expansion" : "compositional") : o.route;
  if (route == "expansion" && !fits)
    throw InputError("the expansion with the weights as symbols would need about " + fmt(est.bytes) + " bytes (" + fmt(est.terms) +
                         " terms, at most " + fmt(est.max_terms) + " per output, degree " + std::to_string(est.degree) + ", " +
                         std::to_string(nu) + " input and " + std::to_string(nw) + " weight symbols), over the budget of " +
                         std::to_string(o.budget_bytes) + " bytes" + (hyena ? " (--algebra-route compositional avoids it)" : ""),
                     "--algebra-budget");
  if (route == "compositional") return compose_weights(m, w, *hyena, reference, est, o, std::move(head), where, t0);
  const Matrix<PolyQ> u = symbols(rq, w.N, w.d);
  const auto t1 = Clock::now();
  auto [shell, want] = w.poly(rq, u);
  std::vector<Rat> seeded_point(nu, Rat());
  seeded_point.insert(seeded_point.end(), w.seeded.begin(), w.seeded.end());
  if (const std::string bad = mismatch_with_model(m, shell, rq, seeded_point); !bad.empty())
    throw InputError("the model is not its compiler's output at the operator's weights (" + bad + "): nothing to prove with weights as symbols",
                     where);
  const Matrix<PolyQ> got = eval(prepare_shell(rq, shell), u);
  const double model_s = since(t1);
  if (want.rows() != got.rows() || want.cols() != got.cols())
    throw InputError("the model's output and the reference's differ in shape", "--method algebra");
  double weight_terms = 0;
  for (const auto& L : shell.layers)
    for (const auto* M : {&L.W, &L.b1, &L.h, &L.b2})
      for (const auto& x : M->data())
        if (!x.is_constant()) weight_terms += static_cast<double>(x.elem(rq).terms());
  auto D = algebra_detail::diff_outputs(rq, got, want);
  const double terms = D.terms, ref_terms = D.ref_terms, max_terms = D.max_terms;
  const long degree = D.degree;
  const std::size_t differ = D.differ;
  const auto& first = D.first;
  const PolyQ& first_diff = D.first_diff;
  AlgebraOutcome out;
  nlohmann::json a = {{"symbols_of", "inputs+weights"}, {"symbols", nvars}, {"input_symbols", nu},
                      {"weight_symbols", nw}, {"operator", w.operator_name}, {"weights_note", w.note},
                      {"outputs", got.rows() * got.cols()}, {"terms", terms}, {"reference_terms", ref_terms},
                      {"model_weight_terms", weight_terms}, {"max_terms_per_output", max_terms}, {"degree", degree},
                      {"differing_outputs", differ}, {"zero_outputs", D.zero}, {"model_seconds", model_s},
                      {"model_matches_seeded_weights", true}};
  if (first) {
    a["first_difference"] = {{"output", {first->first, first->second}}, {"terms", first_diff.terms()}, {"degree", first_diff.degree()}};
    std::uint64_t s = o.seed * 0x100000001b3ULL + 5;
    for (int t = 0; t < 400 && !out.counterexample; ++t) {
      const std::int64_t R = 1 + t / 4;
      Matrix<std::int64_t> pt(1, nvars, 0);
      for (auto& x : pt.data()) x = static_cast<std::int64_t>(splitmix(s) % static_cast<std::uint64_t>(2 * R + 1)) - R;
      std::vector<Rat> xs(nvars);
      for (std::size_t k = 0; k < nvars; ++k) xs[k] = Rat(pt.data()[k]);
      if (first_diff.evaluate(xs).is_zero()) continue;
      if (!confirm(w, pt))
        throw std::logic_error("algebra: a point where the difference polynomial is nonzero is not a mismatch of the exact evaluations");
      // Shrunk toward 0 (weights and input together), so the weight assignment is small and readable.
      const Matrix<std::int64_t> sh =
          nvars <= 1024 ? shrink_matrix(pt, [&](const Matrix<std::int64_t>& v) { return confirm(w, v).has_value(); }) : pt;
      Failure f = *confirm(w, sh);
      nlohmann::json weights = nlohmann::json::object(), nonzero = nlohmann::json::object();
      for (std::size_t k = 0; k < nw; ++k) {
        weights[w.names[k]] = sh.data()[nu + k];
        if (sh.data()[nu + k] != 0) nonzero[w.names[k]] = sh.data()[nu + k];
      }
      f.instance = {{"from", "the difference polynomial"}, {"output", {first->first, first->second}}, {"try", t}, {"range", R},
                    {"shrunk", nvars <= 1024}, {"weights", weights}, {"nonzero_weights", nonzero},
                    {"confirmed_by", "the shipped compiler (Rat) at these weights, evaluated exactly over Q against the reference"}};
      f.message = "with the weights " + nonzero.dump() + " (all others 0): " + f.message;
      out.counterexample = std::move(f);
    }
    if (!out.counterexample) throw std::logic_error("algebra: no point found where a nonzero difference polynomial is nonzero (400 tries)");
  }
  out.verdict = first ? "refuted" : "proved";
  out.exit_code = first ? 1 : 0;
  fill_report(out, w, reference, "expansion", std::move(a), est, o, std::move(head), t0);
  return out;
}

namespace {
void fill_report(AlgebraOutcome& out, const WeightSymbolic& w, const std::string& reference, const std::string& route, nlohmann::json a,
                 const Estimate& est, const AlgebraOptions& o, nlohmann::json head, Clock::time_point t0) {
  const std::size_t nu = w.N * w.d, nw = w.names.size();
  out.seconds = since(t0);
  const std::string shape = std::to_string(w.N) + "×" + std::to_string(w.d);
  out.report = std::move(head);
  out.report["method"] = "algebra";
  out.report["verdict"] = out.verdict;
  out.report["domain"] = "all";
  out.report["instances"] = "all of Q^(" + shape + ") × Q^" + std::to_string(nw) + " (inputs × weights)";
  out.report["domain_description"] =
      "every input u in Q^(" + shape + ") and every choice of the " + w.operator_name + " operator's " + std::to_string(nw) +
      " weights in Q (" + w.note + "): the " + std::to_string(nu) + " input entries and the " + std::to_string(nw) +
      " weights are symbols, the model's weights are the compiler's polynomials in them (model/zoo_compile.h, the code the shipped "
      "model comes from), and the model's output polynomials equal the reference's (" + reference +
      ") coefficient by coefficient: an identity in Q[u, w], hence for every field of characteristic 0" +
      (route == "compositional" ? "; proved step by step and composed" : "");
  a["route"] = route;
  a["estimate"] = {{"terms", est.terms}, {"output_terms", est.out_terms}, {"max_terms_per_output", est.max_terms}, {"degree", est.degree},
                   {"bytes", est.bytes}};
  a["budget_bytes"] = o.budget_bytes;
  a["reference"] = reference;
  a["seconds"] = out.seconds;
  out.report["algebra"] = std::move(a);
  out.report["seconds"] = out.seconds;
}
}  // namespace

}  // namespace cz
