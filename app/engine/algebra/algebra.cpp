#include "app/engine/algebra/algebra.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "tensor/conv_poly.h"  // conv() on symbols: before the evaluator is instantiated
#include "exact/poly_fp.h"
#include "app/engine/algebra/algebra_budget.h"
#include "app/engine/algebra/algebra_compare.h"
#include "app/engine/algebra/algebra_weights.h"
#include "app/engine/sat/sat_primitive_ref.h"
#include "model/eval.h"
#include "model/hyena.h"
#include "model/model_json.h"
#include "util/error.h"
#include "verify/model_check.h"

namespace cz {
namespace {

using namespace algebra_detail;  // since, splitmix, fmt, symbols, diff_outputs, gate_symbols
using namespace algebra_budget;  // the closed forms (algebra_budget.h)




// The model's layers [from, to) as a model of their own on the full inner state.
Model layers_of(const Model& m, std::size_t from, std::size_t to, bool inner_input) {
  Model s = m;
  s.layers.assign(m.layers.begin() + static_cast<std::ptrdiff_t>(from), m.layers.begin() + static_cast<std::ptrdiff_t>(to));
  if (inner_input) {
    s.N = m.inner_N;
    s.d = m.inner_d;
  }
  return s;
}


// ---- the estimate (RingBound) ----

struct Estimate {
  double terms = 0;      // peak live terms, model and reference together (upper bound)
  double out_terms = 0;  // the model's output polynomials
  double max_terms = 0;  // the longest output polynomial
  long degree = -1;
  double bytes = 0;
};

double sum_terms(const Matrix<PolyBound>& x) {
  double s = 0;
  for (const auto& e : x.data()) s += e.terms;
  return s;
}

Estimate estimate(const Model& m, const SymbolicReference& ref, std::size_t nvars, std::size_t bytes_per_term) {
  const RingBound rb(nvars);
  const Matrix<PolyBound> u = symbols(rb, m.N, m.d);
  const PreparedModel<RingBound> p = prepare(rb, m);
  Matrix<PolyBound> x(m.inner_N, m.inner_d, rb.zero());
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j) x(i, j) = u(i, j);
  double peak = sum_terms(x);
  for (const auto& layer : p.layers) {
    Matrix<PolyBound> y = std::visit([&](const auto& L) { return eval_layer(p, L, x); }, layer);
    peak = std::max(peak, sum_terms(x) + sum_terms(y));
    x = std::move(y);
  }
  Estimate e;
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j) {
      e.out_terms += x(i, j).terms;
      e.max_terms = std::max(e.max_terms, x(i, j).terms);
      e.degree = std::max(e.degree, x(i, j).deg);
    }
  const Matrix<PolyBound> want = ref.bound(rb, u);
  double ref_terms = 0;
  for (const auto& w : want.data()) {
    ref_terms += w.terms;
    e.max_terms = std::max(e.max_terms, w.terms);
    e.degree = std::max(e.degree, w.deg);
  }
  // The reference's intermediates are not seen: counted as its outputs once more.
  e.terms = peak + e.out_terms + 2 * ref_terms;
  e.bytes = e.terms * static_cast<double>(bytes_per_term);
  return e;
}

nlohmann::json estimate_json(const Estimate& e) {
  return {{"terms", e.terms}, {"output_terms", e.out_terms}, {"max_terms_per_output", e.max_terms}, {"degree", e.degree},
          {"bytes", e.bytes}};
}

// ---- counterexamples ----

struct Confirmer {
  const Model& m;
  const SymbolicReference& ref;
  PreparedModel<RingQ> p;
  Confirmer(const Model& model, const SymbolicReference& r) : m(model), ref(r), p(prepare(RingQ{}, model)) {}
  std::optional<Failure> fail_of(const Matrix<std::int64_t>& u) const {
    const Matrix<Rat> uq = map_matrix(u, [](std::int64_t x) { return Rat(x); });
    return first_mismatch(u, ref.exact(uq), eval(p, uq), [](const Matrix<Rat>& x) { return matrix_to_json(x); });
  }
  // Shrunk toward 0 as the enumerating check shrinks; the instance says where the point came from.
  Failure confirmed(const Matrix<std::int64_t>& u, nlohmann::json instance) const {
    if (!fail_of(u)) throw std::logic_error("algebra: a point where the difference polynomial is nonzero is not a mismatch of the exact evaluations");
    const Matrix<std::int64_t> s = shrink_matrix(u, [&](const Matrix<std::int64_t>& v) { return fail_of(v).has_value(); });
    Failure f = *fail_of(s);
    instance["point"] = int_matrix_json(u);
    instance["shrunk"] = true;
    f.instance = std::move(instance);
    return f;
  }
};

// Seeded integer points, entries in [-R, R] with R growing (1, 1, ..., 2, ...): a nonzero
// polynomial of degree D vanishes at a uniform point of [-R, R]^n with probability <= D/(2R+1).
Matrix<std::int64_t> point(std::uint64_t& s, std::size_t N, std::size_t d, std::int64_t R) {
  Matrix<std::int64_t> u(N, d, 0);
  for (auto& x : u.data()) x = static_cast<std::int64_t>(splitmix(s) % static_cast<std::uint64_t>(2 * R + 1)) - R;
  return u;
}

std::optional<Failure> search_points(const Confirmer& c, std::size_t N, std::size_t d, std::uint64_t seed, int tries) {
  std::uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 17;
  for (int t = 0; t < tries; ++t) {
    const std::int64_t R = 1 + t / 8;
    const Matrix<std::int64_t> u = point(s, N, d, R);
    if (c.fail_of(u)) return c.confirmed(u, {{"from", "seeded exact evaluation"}, {"try", t}, {"range", R}});
  }
  return std::nullopt;
}

// ---- routes ----

}  // namespace

std::size_t zero_outputs_at_points(const SymbolicReference& ref, std::size_t N, std::size_t d, std::uint64_t seed) {
  const RingFp f(kZeroCheckPrime);
  std::uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 46;
  std::vector<bool> zero;
  for (int t = 0; t < 3; ++t) {
    Matrix<std::uint64_t> u(N, d, 0);
    for (auto& x : u.data()) x = algebra_detail::splitmix(s) % kZeroCheckPrime;
    const Matrix<std::uint64_t> y = ref.exact_fp(f, u);
    if (zero.empty()) zero.assign(y.data().size(), true);
    for (std::size_t i = 0; i < y.data().size(); ++i) zero[i] = zero[i] && y.data()[i] == 0;
  }
  return static_cast<std::size_t>(std::count(zero.begin(), zero.end(), true));
}

namespace {

struct Result {
  bool proved = false;
  std::optional<Failure> cex;
  nlohmann::json stats = nlohmann::json::object();
};

Result expansion(const Model& m, const SymbolicReference& ref, const AlgebraOptions& o, const Confirmer& conf) {
  const std::size_t nvars = m.N * m.d;
  const RingPolyQ rq(nvars);
  const Matrix<PolyQ> u = symbols(rq, m.N, m.d);
  const auto t0 = Clock::now();
  const Matrix<PolyQ> got = eval(prepare(rq, m), u);
  const double model_s = since(t0);
  const auto t1 = Clock::now();
  const Matrix<PolyQ> want = ref.poly(rq, u);
  const double ref_s = since(t1);
  if (want.rows() != got.rows() || want.cols() != got.cols())
    throw InputError("the model's output is " + std::to_string(got.rows()) + "×" + std::to_string(got.cols()) + ", the reference's " +
                         std::to_string(want.rows()) + "×" + std::to_string(want.cols()),
                     "--method algebra");
  Result r;
  auto D = algebra_detail::diff_outputs(rq, got, want);
  const double terms = D.terms, ref_terms = D.ref_terms, max_terms = D.max_terms;
  const long degree = D.degree;
  const std::size_t differ = D.differ;
  const auto& first = D.first;
  const PolyQ& first_diff = D.first_diff;
  r.stats = {{"symbols", nvars}, {"outputs", got.rows() * got.cols()}, {"terms", terms}, {"reference_terms", ref_terms},
             {"max_terms_per_output", max_terms}, {"degree", degree}, {"differing_outputs", differ},
             {"zero_outputs", D.zero}, {"model_seconds", model_s}, {"reference_seconds", ref_s}};
  if (!first) {
    r.proved = true;
    return r;
  }
  r.stats["first_difference"] = {{"output", {first->first, first->second}}, {"terms", first_diff.terms()}, {"degree", first_diff.degree()}};
  // A point where the difference is nonzero, then confirmed by exact evaluation.
  std::uint64_t s = o.seed * 0x100000001b3ULL + 5;
  for (int t = 0; t < 400; ++t) {
    const std::int64_t R = 1 + t / 4;
    const Matrix<std::int64_t> pt = point(s, m.N, m.d, R);
    std::vector<Rat> x(nvars);
    for (std::size_t k = 0; k < nvars; ++k) x[k] = Rat(pt.data()[k]);
    if (!first_diff.evaluate(x).is_zero()) {
      r.cex = conf.confirmed(pt, {{"from", "the difference polynomial"}, {"output", {first->first, first->second}}, {"try", t}, {"range", R}});
      return r;
    }
  }
  throw std::logic_error("algebra: no point found where a nonzero difference polynomial is nonzero (400 tries)");
}

// ---- over F_p (models whose ring is Fp:<p>) ----

Matrix<std::int64_t> mod_point(const Matrix<std::int64_t>& u, std::uint64_t p) {
  const RingFp f(p);
  return map_matrix(u, [&](std::int64_t x) { return static_cast<std::int64_t>(f.from_int(x)); });
}

struct FpConfirmer {
  const Model& m;
  const SymbolicReference& ref;
  RingFp f;
  PreparedModel<RingFp> p;
  FpConfirmer(const Model& model, const SymbolicReference& r, std::uint64_t prime) : m(model), ref(r), f(prime), p(prepare(RingFp(prime), model)) {}
  std::optional<Failure> fail_of(const Matrix<std::int64_t>& u) const {
    const Matrix<std::uint64_t> uf = map_matrix(u, [&](std::int64_t x) { return f.from_int(x); });
    // Compared as representatives in [0, p) (Rat, so the mismatch message prints them).
    auto rep = [](const Matrix<std::uint64_t>& x) { return map_matrix(x, [](std::uint64_t v) { return Rat(Int(static_cast<std::int64_t>(v))); }); };
    return first_mismatch(mod_point(u, f.prime()), rep(ref.exact_fp(f, uf)), rep(eval(p, uf)),
                          [](const Matrix<Rat>& x) { return matrix_to_json(x); });
  }
};

// Both sides in F_p[x]: a proof for every input in F_p^(N×d). Points are drawn in [-R, R] and read
// mod p; a difference that vanishes on all of F_p^(N×d) (degree >= p in a variable) finds none:
// undecided.
Result expansion_fp(const Model& m, const SymbolicReference& ref, const AlgebraOptions& o, std::uint64_t prime) {
  if (!ref.poly_fp) throw InputError("this reference has no F_p form", "--method algebra");
  const std::size_t nvars = m.N * m.d;
  const RingPolyFp rp(nvars, prime);
  const Matrix<PolyFp> u = symbols(rp, m.N, m.d);
  const auto t0 = Clock::now();
  const Matrix<PolyFp> got = eval(prepare(rp, m), u);
  const double model_s = since(t0);
  const auto t1 = Clock::now();
  const Matrix<PolyFp> want = ref.poly_fp(rp, u);
  const double ref_s = since(t1);
  if (want.rows() != got.rows() || want.cols() != got.cols())
    throw InputError("the model's output and the reference's differ in shape", "--method algebra");
  Result r;
  auto D = algebra_detail::diff_outputs(rp, got, want);
  const double terms = D.terms, ref_terms = D.ref_terms, max_terms = D.max_terms;
  const long degree = D.degree;
  const std::size_t differ = D.differ;
  const auto& first = D.first;
  const PolyFp& first_diff = D.first_diff;
  r.stats = {{"symbols", nvars}, {"outputs", got.rows() * got.cols()}, {"terms", terms}, {"reference_terms", ref_terms},
             {"max_terms_per_output", max_terms}, {"degree", degree}, {"differing_outputs", differ},
             {"zero_outputs", D.zero}, {"model_seconds", model_s}, {"reference_seconds", ref_s}, {"field", "F_" + std::to_string(prime)}};
  if (!first) {
    r.proved = true;
    return r;
  }
  r.stats["first_difference"] = {{"output", {first->first, first->second}}, {"terms", first_diff.terms()}, {"degree", first_diff.degree()}};
  const FpConfirmer conf(m, ref, prime);
  std::uint64_t s = o.seed * 0x100000001b3ULL + 5;
  for (int t = 0; t < 400; ++t) {
    const std::int64_t R = 1 + t / 4;
    const Matrix<std::int64_t> pt = point(s, m.N, m.d, R);
    std::vector<std::uint64_t> x(nvars);
    for (std::size_t k = 0; k < nvars; ++k) x[k] = conf.f.from_int(pt.data()[k]);
    if (first_diff.evaluate(x) == 0) continue;
    if (!conf.fail_of(pt)) throw std::logic_error("algebra: a point where the difference polynomial is nonzero mod p is not a mismatch in F_p");
    const Matrix<std::int64_t> sh = shrink_matrix(pt, [&](const Matrix<std::int64_t>& v) { return conf.fail_of(v).has_value(); });
    Failure f = *conf.fail_of(sh);
    f.instance = {{"from", "the difference polynomial"}, {"output", {first->first, first->second}}, {"try", t}, {"range", R},
                  {"point", int_matrix_json(pt)}, {"shrunk", true}, {"field", "F_" + std::to_string(prime)},
                  {"confirmed_by", "exact evaluation of model and reference in F_" + std::to_string(prime)}};
    r.cex = std::move(f);
    return r;
  }
  r.stats["undecided"] = "the difference is a nonzero polynomial over F_" + std::to_string(prime) +
                         " but 400 seeded points of F_p^n found no input where it is nonzero (it may vanish on all of F_p^n)";
  return r;
}

// The compositional route for sim::hyena_to_baseconv(op, short_conv) (constructions/sim/hyena_sim.h).
// Throws InputError when the model does not have that shape.
Result compositional(const Model& m, const SymbolicReference& ref, const AlgebraOptions& o, const Confirmer& conf) {
  const HyenaOperator& op = *ref.hyena;
  const std::size_t N = op.N, d = op.d, k = op.order, C = (k + 1) * d, pre = ref.hyena_short_conv ? 2 : 1;
  if (m.N != N || m.d != d || m.inner_N != N || m.inner_d != C || m.layers.size() != pre + k)
    throw InputError("the compositional route needs the wide Hyena simulation: (N, k+2, d, N, (k+1)d) layers", "--algebra-route");
  Result r;
  nlohmann::json steps = nlohmann::json::array();
  bool all = true;
  long degree = -1;
  double terms = 0;
  auto compare = [&](const RingPolyQ& rq, const Matrix<PolyQ>& got, const Matrix<PolyQ>& want, nlohmann::json& st) {
    std::size_t differ = 0;
    double t = 0;
    long deg = -1;
    for (std::size_t i = 0; i < got.rows(); ++i)
      for (std::size_t j = 0; j < got.cols(); ++j) {
        t += static_cast<double>(got(i, j).terms() + want(i, j).terms());
        deg = std::max({deg, got(i, j).degree(), want(i, j).degree()});
        differ += !rq.equal(got(i, j), want(i, j));
      }
    st["terms"] = t;
    st["degree"] = deg;
    st["differing_outputs"] = differ;
    st["holds"] = differ == 0;
    terms += t;
    degree = std::max(degree, deg);
    all = all && differ == 0;
  };
  {  // the projection: layers [0, pre) on u against x = h_s ∗ (u·W), by hyena_eval of order 1
    const auto t0 = Clock::now();
    const RingPolyQ rq(N * d);
    const Matrix<PolyQ> u = symbols(rq, N, d);
    const Matrix<PolyQ> got = eval_inner(prepare(rq, layers_of(m, 0, pre, false)), u);
    HyenaOperator p1;
    p1.N = N, p1.d = C, p1.order = 1;
    p1.W = RatMatrix(C, 2 * C, Rat());
    p1.hs = RatMatrix(N, 2 * C, Rat());
    p1.h = {RatMatrix(N, C, Rat())};
    for (std::size_t c = 0; c < C; ++c) {
      for (std::size_t j = 0; j < d; ++j) p1.W(j, c) = op.W(j, c);
      p1.W(d, C + c) = Rat(1);  // input column d is the constant 1: p^1 = 1
      for (std::size_t t = 0; t < N; ++t) p1.hs(t, c) = op.hs(t, c);
      p1.hs(0, C + c) = Rat(1);
      p1.h[0](0, c) = Rat(1);  // δ0: z^1 = 1 ⊙ v = x
    }
    Matrix<PolyQ> u1(N, C, rq.zero());
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = 0; j < d; ++j) u1(i, j) = u(i, j);
      u1(i, d) = rq.one();
    }
    const Matrix<PolyQ> want = hyena_eval(rq, p1, u1);
    nlohmann::json st = {{"step", "projection"}, {"model_layers", {1, pre}}, {"symbols", N * d},
                         {"identity", "model layers 1.." + std::to_string(pre) + " (u) = [v | p^1 | ... | p^k] = h_s ∗ (u·W)"}};
    compare(rq, got, want, st);
    st["seconds"] = since(t0);
    steps.push_back(std::move(st));
  }
  for (std::size_t l = 1; l <= k; ++l) {  // gate l on fresh z^{l-1}, p^l..p^k
    const auto t0 = Clock::now();
    const std::size_t blocks = k - l + 2, nv = blocks * N * d;
    const RingPolyQ rq(nv);
    auto [S, want, zp] = algebra_detail::gate_symbols(rq, N, d, k, l);
    const Matrix<PolyQ> got = eval_inner(prepare(rq, layers_of(m, pre + l - 1, pre + l, true)), S);
    HyenaOperator pl;  // input [z | p^l] (width 2d): v = [z | 0], p^1 = [p^l | 0], h^1 = [h^l | 0], h_s = δ0
    pl.N = N, pl.d = 2 * d, pl.order = 1;
    pl.W = RatMatrix(2 * d, 4 * d, Rat());
    pl.hs = RatMatrix(N, 4 * d, Rat());
    pl.h = {RatMatrix(N, 2 * d, Rat())};
    for (std::size_t j = 0; j < d; ++j) {
      pl.W(j, j) = Rat(1);
      pl.W(d + j, 2 * d + j) = Rat(1);
      for (std::size_t t = 0; t < N; ++t) pl.h[0](t, j) = op.h[l - 1](t, j);
    }
    for (std::size_t c = 0; c < 4 * d; ++c) pl.hs(0, c) = Rat(1);
    const Matrix<PolyQ> step = hyena_eval(rq, pl, zp);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < d; ++j) want(i, j) = step(i, j);
    // The last gate: only block 0 is read (the model's output is the top-left N×d).
    if (l == k) {
      Matrix<PolyQ> g(N, d), w(N, d);
      for (std::size_t i = 0; i < N; ++i)
        for (std::size_t j = 0; j < d; ++j) g(i, j) = got(i, j), w(i, j) = want(i, j);
      nlohmann::json st = {{"step", "gate " + std::to_string(l)}, {"model_layers", {pre + l, pre + l}}, {"symbols", nv},
                           {"identity", "model layer " + std::to_string(pre + l) + " ([z^" + std::to_string(l - 1) + " | 0 | p^" +
                                            std::to_string(l) + "]) read at block 0 (the output) = p^" + std::to_string(l) + " ⊙ (h^" +
                                            std::to_string(l) + " ∗ z^" + std::to_string(l - 1) + ") = y"}};
      compare(rq, g, w, st);
      st["seconds"] = since(t0);
      steps.push_back(std::move(st));
      continue;
    }
    nlohmann::json st = {{"step", "gate " + std::to_string(l)}, {"model_layers", {pre + l, pre + l}}, {"symbols", nv},
                         {"identity", "model layer " + std::to_string(pre + l) + " ([z^" + std::to_string(l - 1) + " | 0 | p^" + std::to_string(l) +
                                          ".. p^k]) = [p^" + std::to_string(l) + " ⊙ (h^" + std::to_string(l) + " ∗ z^" + std::to_string(l - 1) +
                                          ") | 0 | p^" + std::to_string(l + 1) + ".. p^k]"}};
    compare(rq, got, want, st);
    st["seconds"] = since(t0);
    steps.push_back(std::move(st));
  }
  r.stats = {{"steps", steps}, {"terms", terms}, {"degree", degree}, {"symbols", N * d},
             {"composition", "Hyena's recursion z^0 = v, z^l = p^l ⊙ (h^l ∗ z^(l-1)), y = z^k (model/hyena.h): each step's reference is "
                             "hyena_eval on an order-1 operator isolating that step"}};
  r.stats["zero_outputs"] = zero_outputs_at_points(ref, N, d, o.seed);
  r.stats["zero_outputs_by"] = "the reference evaluated at 3 seeded points mod 2^61-1 (an upper bound; 0 is exact)";
  if (all) {
    // A guard on the composition itself: model and hyena_eval at seeded points, exactly.
    if (auto f = search_points(conf, N, d, o.seed, 3))
      throw std::logic_error("algebra: every compositional step holds but model and reference differ at a point: " + f->message);
    r.stats["spot_checks"] = 3;
    r.proved = true;
    return r;
  }
  r.cex = search_points(conf, N, d, o.seed, 256);
  return r;
}

}  // namespace

AlgebraOutcome prove_model_identity(const Model& m, const SymbolicReference& ref, const AlgebraOptions& o, nlohmann::json head,
                                    const std::string& where) {
  if (o.symbols == "weights") {
    if (!ref.weights)
      throw InputError("--algebra-symbols weights proves the sim/* simulations of one operator (stack=1) for every weight; " +
                           std::string("this model's reference (") + ref.name + ") has no weights to make symbols",
                       "--algebra-symbols");
    return prove_weights_identity(m, *ref.weights, ref.name, o, std::move(head), where,
                                  ref.hyena && ref.hyena_short_conv ? ref.hyena.get() : nullptr);
  }
  if (o.symbols != "inputs") throw InputError("unknown symbols '" + o.symbols + "' (inputs | weights)", "--algebra-symbols");
  const auto t0 = Clock::now();
  // Fp:<p>: identities in F_p[x] (RingPolyFp), every input in F_p^(N×d).
  const std::uint64_t prime = m.ring == "Z" || m.ring == "Q" ? 0 : check_ring_name(m.ring, where);
  for (const auto& l : m.layers)
    if (!std::holds_alternative<BaseConvLayer>(l) && !std::holds_alternative<LinearAttentionLayer>(l))
      throw InputError("the model has an MLP layer (ReLU is not a polynomial): --method algebra proves polynomial models", where);
  const std::size_t nvars = m.N * m.d;
  const bool can_compose = ref.hyena != nullptr && prime == 0;
  if (o.route == "compositional" && !can_compose)
    throw InputError(prime ? "the compositional route proves over Q; a model over " + m.ring + " is proved by expansion"
                           : "no compositional route for this construction (it exists for sim/hyena layout=wide)",
                     "--algebra-route");
  // Closed forms first (issue 46 item 13): nothing is allocated for a model refused here.
  const double budget = static_cast<double>(o.budget_bytes);
  const double bits = coefficient_bits(m);
  const double floor_bytes = expansion_floor(m.N, m.d, nvars, bits), work = twin_work(m, nvars);
  std::optional<StepEstimate> comp;
  if (can_compose) comp = compositional_estimate(ref.hyena->N, ref.hyena->d, ref.hyena->order, 0, bits);
  const bool comp_fits = comp && comp->bytes <= budget;
  const bool can_estimate = floor_bytes <= budget && work <= kTwinWork;
  std::string route = o.route;
  Estimate est;
  bool estimated = false;
  if (route == "compositional") {
    if (!comp_fits) throw InputError(compositional_message(*comp, o.budget_bytes), "--algebra-budget");
  } else if (!can_estimate) {
    if (route == "auto" && comp_fits) {
      route = "compositional";
    } else if (floor_bytes > budget) {
      throw InputError(floor_message(m.N, m.d, nvars, bits, o.budget_bytes) +
                           (comp && route == "auto" ? "; " + compositional_message(*comp, o.budget_bytes)
                            : can_compose         ? " (--algebra-route compositional avoids it)"
                                                  : ""),
                       "--algebra-budget");
    } else {
      throw InputError("the expansion in " + std::to_string(nvars) + " symbols is too large to estimate before it runs (its bound twin alone "
                           "would take about " + fmt(work) + " word operations, over " + fmt(kTwinWork) + "; the input symbols alone take " +
                           fmt(floor_bytes) + " bytes), refused under the budget of " + std::to_string(o.budget_bytes) + " bytes" +
                           (can_compose ? " (--algebra-route compositional avoids it)" : ""),
                       "--algebra-budget");
    }
  } else {
    est = estimate(m, ref, nvars, static_cast<std::size_t>(term_bytes(nvars, bits)));
    estimated = true;
    const bool fits = est.bytes <= budget;
    if (route == "auto") route = fits || !comp_fits ? "expansion" : "compositional";
    if (route == "expansion" && !fits)
      throw InputError("the expansion would need about " + fmt(est.bytes) + " bytes (" + fmt(est.terms) + " terms, at most " + fmt(est.max_terms) +
                           " per output, degree " + std::to_string(est.degree) + ", " + std::to_string(nvars) + " symbols" +
                           (bits > 62 ? ", coefficients of up to " + fmt(bits) + " bits" : std::string()) + "), over the budget of " +
                           std::to_string(o.budget_bytes) + " bytes" +
                           (comp && o.route == "auto" ? "; " + compositional_message(*comp, o.budget_bytes)
                            : can_compose            ? " (--algebra-route compositional avoids it)"
                                                     : ""),
                       "--algebra-budget");
  }
  Result r;
  if (prime) {
    r = expansion_fp(m, ref, o, prime);
  } else {
    const Confirmer conf(m, ref);
    r = route == "expansion" ? expansion(m, ref, o, conf) : compositional(m, ref, o, conf);
  }
  AlgebraOutcome out;
  out.verdict = r.proved ? "proved" : r.cex ? "refuted" : "undecided";
  out.exit_code = r.proved ? 0 : r.cex ? 1 : 4;
  out.counterexample = r.cex;
  out.seconds = since(t0);
  const std::string shape = std::to_string(m.N) + "×" + std::to_string(m.d);
  out.report = std::move(head);
  out.report["method"] = "algebra";
  out.report["verdict"] = out.verdict;
  out.report["domain"] = "all";
  out.report["instances"] = prime ? "all of F_" + std::to_string(prime) + "^(" + shape + ")" : "all of Q^(" + shape + ")";
  out.report["domain_description"] =
      prime ? "every input u in F_" + std::to_string(prime) + "^(" + shape + ") (the model's ring " + m.ring + "): the " + std::to_string(nvars) +
                  " entries of u are symbols, and the model's output polynomials equal the reference's (" + ref.name +
                  ") coefficient by coefficient in F_" + std::to_string(prime) + "[x] (a statement mod p only: nothing is claimed over Q)"
            : "every input u in Q^(" + shape + ") (hence every integer matrix, all of Z^(" + shape + ")): the " + std::to_string(nvars) +
                  " entries of u are symbols, and the model's output polynomials equal the reference's (" + ref.name +
                  ") coefficient by coefficient" + (route == "compositional" ? ", proved step by step and composed" : "");
  nlohmann::json a = r.stats;
  a["route"] = route;
  a["estimate"] = estimated ? estimate_json(est)
                            : nlohmann::json{{"bytes", floor_bytes}, {"terms", 2.0 * static_cast<double>(nvars)},
                                             {"closed_form", "the input symbols alone (the expansion was not estimated term by term)"}};
  a["estimate"]["coefficient_bits"] = bits;
  if (comp) a["compositional_estimate"] = {{"bytes", comp->bytes}, {"terms", comp->terms}, {"symbols", comp->symbols}};
  a["budget_bytes"] = o.budget_bytes;
  a["reference"] = ref.name;
  a["seconds"] = out.seconds;
  out.report["algebra"] = a;
  out.report["seconds"] = out.seconds;
  if (!r.proved && !r.cex && !prime)
    out.report["algebra"]["undecided"] = "a compositional step does not hold, and 256 seeded points found no input where model and reference differ";
  return out;
}

std::shared_ptr<const SymbolicReference> algebra_reference(const Construction& c, const Params& p, const Built& bt) {
  if (!bt.model) return nullptr;
  if (auto ref = symbolic_of(bt)) return ref;
  // By artifact kind and task: a model of an integer-map task (the primitives) against the task's semantics.
  if (!bt.model || !circuits::reference::is_integer_map(c.task)) return nullptr;
  const std::string task = c.task;
  return make_symbolic_reference([task, p](const auto& r, const auto& u) { return circuits::reference::integer_map(task, p, r, u); },
                                 "the task's semantics (src/tasks/primitive_semantics.h, " + task + ")");
}

AlgebraOutcome run_verify_algebra(const Construction& c, const std::map<std::string, std::string>& given, const AlgebraOptions& o) {
  const Params p = Params::parse(c.params, given);
  // Before the construction is built (issue 46 item 13): the least any expansion holds, from N and
  // d alone (sim/rwkv's input is N×2d: N·d is a floor), and Hyena's compositional steps.
  if (const nlohmann::json pj = p.to_json(); pj.contains("N") && pj.contains("d") && (o.symbols == "inputs" || o.symbols == "weights")) {
    const std::size_t N = p.u("N"), d = p.u("d");
    const double budget = static_cast<double>(o.budget_bytes);
    std::optional<StepEstimate> comp;
    // The construction that registered Hyena's compositional route (wide layout, one operator).
    const auto& routes = routes_of(c.name);
    if (std::find(routes.begin(), routes.end(), "algebra:hyena-compositional") != routes.end() && p.s("layout") == "wide" && p.u("stack") == 1)
      comp = compositional_estimate(N, d, p.u("order"), 0, 0);
    if (o.route == "compositional" && comp && comp->bytes > budget) throw InputError(compositional_message(*comp, o.budget_bytes), "--algebra-budget");
    if (o.route != "compositional" && expansion_floor(N, d, N * d, 0) > budget && !(o.route == "auto" && comp && comp->bytes <= budget))
      throw InputError(floor_message(N, d, N * d, 0, o.budget_bytes) + (comp && o.route == "auto" ? "; " + compositional_message(*comp, o.budget_bytes) : ""),
                       "--algebra-budget");
  }
  const Built bt = c.build(p);
  const std::shared_ptr<const SymbolicReference> ref = algebra_reference(c, p, bt);
  if (!ref)
    throw InputError(c.name + " is not provable by --method algebra: it covers the sim/* constructions (model against the architecture's "
                              "own evaluation) and the primitives (model against the task's semantics)",
                     "--method algebra");
  const Model& m = *bt.model;
  nlohmann::json head = {{"construction", c.name},
                         {"params", p.to_json()},
                         {"model", {{"ring", m.ring}, {"N", m.N}, {"d", m.d}, {"layers", m.layers.size()}, {"inner_N", m.inner_N},
                                    {"inner_d", m.inner_d}, {"conv", to_string(m.conv)}}},
                         {"notes", bt.notes}};
  AlgebraOutcome out = prove_model_identity(m, *ref, o, std::move(head), c.name);
  out.claims = bt.claims;
  return out;
}

}  // namespace cz
