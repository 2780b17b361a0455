#include "app/engine/algebra_weights.h"

#include <chrono>
#include <sstream>

#include "tensor/conv_poly.h"  // conv() on symbols: before the evaluator is instantiated
#include "model/eval.h"
#include "model/model_json.h"
#include "util/error.h"
#include "verify/model_check.h"

namespace cz {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string fmt(double x) {
  std::ostringstream o;
  o.precision(3);
  o << x;
  return o.str();
}

template <class R>
Matrix<typename R::Elem> symbols(const R& r, std::size_t N, std::size_t d) {
  Matrix<typename R::Elem> u(N, d, r.zero());
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) u(i, j) = r.var(i * d + j);
  return u;
}

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

}  // namespace

AlgebraOutcome prove_weights_identity(const Model& m, const WeightSymbolic& w, const std::string& reference, const AlgebraOptions& o,
                                      nlohmann::json head, const std::string& where) {
  const auto t0 = Clock::now();
  if (o.route == "compositional")
    throw InputError("the compositional route takes the inputs as symbols only; with --algebra-symbols weights the proof expands",
                     "--algebra-route");
  const std::size_t nu = w.N * w.d, nw = w.names.size(), nvars = nu + nw;
  const RingPolyQ rq(nvars);
  const Estimate est = estimate(w, nvars, rq.bytes_per_term());
  if (est.bytes > static_cast<double>(o.budget_bytes))
    throw InputError("the expansion with the weights as symbols would need about " + fmt(est.bytes) + " bytes (" + fmt(est.terms) +
                         " terms, at most " + fmt(est.max_terms) + " per output, degree " + std::to_string(est.degree) + ", " +
                         std::to_string(nu) + " input and " + std::to_string(nw) + " weight symbols), over the budget of " +
                         std::to_string(o.budget_bytes) + " bytes",
                     "--algebra-budget");
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
  double terms = 0, ref_terms = 0, max_terms = 0, weight_terms = 0;
  long degree = -1;
  std::size_t differ = 0;
  std::optional<std::pair<std::size_t, std::size_t>> first;
  PolyQ first_diff;
  for (const auto& L : shell.layers)
    for (const auto* M : {&L.W, &L.b1, &L.h, &L.b2})
      for (const auto& x : M->data())
        if (!x.is_constant()) weight_terms += static_cast<double>(x.elem(rq).terms());
  for (std::size_t i = 0; i < got.rows(); ++i)
    for (std::size_t j = 0; j < got.cols(); ++j) {
      terms += static_cast<double>(got(i, j).terms());
      ref_terms += static_cast<double>(want(i, j).terms());
      max_terms = std::max(max_terms, static_cast<double>(std::max(got(i, j).terms(), want(i, j).terms())));
      degree = std::max({degree, got(i, j).degree(), want(i, j).degree()});
      PolyQ diff = rq.sub(got(i, j), want(i, j));
      if (!diff.is_zero()) {
        ++differ;
        if (!first) first = {i, j}, first_diff = std::move(diff);
      }
    }
  AlgebraOutcome out;
  nlohmann::json a = {{"route", "expansion"}, {"symbols_of", "inputs+weights"}, {"symbols", nvars}, {"input_symbols", nu},
                      {"weight_symbols", nw}, {"operator", w.operator_name}, {"weights_note", w.note},
                      {"outputs", got.rows() * got.cols()}, {"terms", terms}, {"reference_terms", ref_terms},
                      {"model_weight_terms", weight_terms}, {"max_terms_per_output", max_terms}, {"degree", degree},
                      {"differing_outputs", differ}, {"model_seconds", model_s},
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
      ") coefficient by coefficient: an identity in Q[u, w], hence for every field of characteristic 0";
  a["estimate"] = {{"terms", est.terms}, {"output_terms", est.out_terms}, {"max_terms_per_output", est.max_terms}, {"degree", est.degree},
                   {"bytes", est.bytes}};
  a["budget_bytes"] = o.budget_bytes;
  a["reference"] = reference;
  a["seconds"] = out.seconds;
  out.report["algebra"] = a;
  out.report["seconds"] = out.seconds;
  return out;
}

}  // namespace cz
