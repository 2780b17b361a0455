// The K-matrix -> BaseConv lemma (spec §14.2 [L], as a third-party formalisation reports it): any
// M ∈ (𝓑𝓑*)^w_e acting on vec(u), u ∈ R^{n×d}, is computed by an (n, O(w·log(e·n·d)), d, e·n, d)
// BaseConv (at most 70·w·log2(end) layers there). Checked by construction: seeded random
// K-matrices (random entries in every factor) are compiled by circuits/kmatrix_rows.h into cyclic
// BaseConv models, and each model's output is compared exactly with the K-matrix product S·E·Sᵀ
// applied to vec(u) (tensor/kmatrix.h, the reference: it never sees the compiled model), over Z, Q
// and F_p on seeded inputs. Measured: the layer constant layers / (w·log2(e·n̂d)), and the achieved
// tuple against the lemma's: d' = d holds; N' = 6·e·n̂d (vec(u) along the rows) misses N' = e·n.
// A mutant (one compiled weight changed) must be caught.
#include <random>

#include "circuits/kmatrix_rows.h"
#include "model/eval.h"
#include "proofs-checks/proof.h"
#include "tensor/kmatrix_forms.h"

namespace cz::proofs {
namespace {

enum class Field { Z, Q, Fp };
constexpr std::uint64_t kP = 1000003;

// A random member of (𝓑𝓑*)^w_e of size m̂ = e·2^⌈log2(n·d)⌉; entries in [-3, 3] (Z), with
// denominators 1..3 (Q), or in [0, p) (Fp).
KMatrix<Rat> random_kmatrix(std::mt19937_64& g, std::size_t nd, std::size_t w, std::size_t e, Field f) {
  KMatrix<Rat> k;
  k.n = pad_pow2(nd), k.e = e;
  const std::size_t m = k.inner();
  auto val = [&]() -> Rat {
    if (f == Field::Fp) return Rat(Int(static_cast<std::int64_t>(g() % kP)));
    const std::int64_t v = static_cast<std::int64_t>(g() % 7) - 3;
    return f == Field::Q ? Rat(Int(v), Int(static_cast<std::int64_t>(1 + g() % 3))) : Rat(Int(v));
  };
  for (std::size_t t = 0; t < w; ++t) {
    BBStar<Rat> el;
    for (Butterfly<Rat>* b : {&el.M1, &el.M2}) {
      *b = Butterfly<Rat>(m, Rat(), Rat(1));
      for (auto& F : b->factors)
        for (std::vector<Rat>* dv : {&F.d1, &F.d2, &F.d3, &F.d4})
          for (Rat& x : *dv) x = val();
    }
    k.elements.push_back(std::move(el));
  }
  return k;
}

// The reference: vec(y) = M·vec(u) (column-major vec, M's top-left n·d corner), exact over Q.
RatMatrix reference(const KMatrix<Rat>& k, const RatMatrix& u) {
  const std::size_t N = u.rows(), d = u.cols();
  std::vector<Rat> v(k.n);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t i = 0; i < N; ++i) v[j * N + i] = u(i, j);
  const auto y = apply(RingQ{}, k, v);
  RatMatrix out(N, d);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t i = 0; i < N; ++i) out(i, j) = y[j * N + i];
  return out;
}

// The model on u, in the model's ring, lifted back to Q (Fp: representatives in [0, p)).
RatMatrix run_model(const Model& m, const RatMatrix& u, Field f) {
  auto go = [&](const auto& ring) {
    const auto p = prepare(ring, m);
    Matrix<std::decay_t<decltype(ring.zero())>> x(u.rows(), u.cols(), ring.zero());
    for (std::size_t i = 0; i < u.rows(); ++i)
      for (std::size_t j = 0; j < u.cols(); ++j) x(i, j) = ring.from_rat(u(i, j));
    const auto y = eval(p, x);
    RatMatrix out(y.rows(), y.cols());
    for (std::size_t i = 0; i < y.rows(); ++i)
      for (std::size_t j = 0; j < y.cols(); ++j) out(i, j) = ring.to_rat(y(i, j));
    return out;
  };
  if (f == Field::Z) return go(RingZ{});
  if (f == Field::Q) return go(RingQ{});
  return go(RingFp(kP));
}

RatMatrix reduce(const RatMatrix& a, Field f) {
  if (f != Field::Fp) return a;
  RingFp F(kP);
  RatMatrix r(a.rows(), a.cols());
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t j = 0; j < a.cols(); ++j) r(i, j) = F.to_rat(F.from_rat(a(i, j)));
  return r;
}

const char* field_name(Field f) { return f == Field::Z ? "Z" : f == Field::Q ? "Q" : "Fp:1000003"; }

ProofResult run_lemma(const ProofOptions& o) {
  ProofResult r;
  r.holds = true;
  std::mt19937_64 g(o.seed * 0x9e3779b97f4a7c15ULL + 5);
  nlohmann::json rows = nlohmann::json::array();
  std::size_t models = 0, inputs = 0;
  double worst = 0;
  const int reps = o.fast ? 8 : 40;
  struct Shape { std::size_t N, d, w, e; };
  std::vector<Shape> shapes = {{1, 1, 1, 1}, {2, 1, 1, 1}, {2, 2, 1, 1}, {4, 2, 1, 2}, {3, 2, 2, 1}, {4, 4, 2, 1}, {8, 2, 1, 2}, {4, 2, 3, 1}};
  if (!o.fast) shapes.push_back({8, 4, 2, 2}), shapes.push_back({16, 4, 1, 1});
  for (const Shape& s : shapes) {
    for (Field f : {Field::Z, Field::Q, Field::Fp}) {
      const KMatrix<Rat> k = random_kmatrix(g, s.N * s.d, s.w, s.e, f);
      const Model m = circuits::kmatrix_to_model(k, s.N, s.d, field_name(f));
      ++models;
      for (int t = 0; t < reps; ++t) {
        RatMatrix u(s.N, s.d);
        for (std::size_t i = 0; i < s.N; ++i)
          for (std::size_t j = 0; j < s.d; ++j) u(i, j) = Rat(Int(static_cast<std::int64_t>(g() % 7) - 3));
        ++inputs;
        if (!(run_model(m, u, f) == reduce(reference(k, u), f)) && r.holds) {
          r.holds = false;
          r.details["counterexample"] = {{"N", s.N}, {"d", s.d}, {"w", s.w}, {"e", s.e}, {"ring", field_name(f)}};
        }
      }
      const double logm = static_cast<double>(log2_exact(k.inner()));
      // log2(e·n̂d) = 0 (a 1×1 K-matrix, no factor) has no constant: 4 layers, gather and scatter.
      const double c = logm > 0 ? static_cast<double>(m.layers.size()) / (static_cast<double>(s.w) * logm) : 0.0;
      worst = std::max(worst, c);
      if (f == Field::Z)
        rows.push_back({{"N", s.N}, {"d", s.d}, {"w", s.w}, {"e", s.e}, {"layers", m.layers.size()}, {"log2_end", logm},
                        {"layer_constant", c}, {"inner_N", m.inner_N}, {"inner_d", m.inner_d}, {"claimed_inner_N", s.e * s.N},
                        {"kmatrix_params", kmatrix_params(k)}});
    }
  }
  r.details["cases"] = rows;
  r.details["layers"] = "4·w·log2(e·n̂d) + 4: two conv layers per butterfly factor, gather 2, scatter 2";
  r.details["tuple"] = "achieved (n, 4w·log2(end) + 4, d, 6·e·n̂d, d) against the lemma's (n, O(w·log(end)), d, e·n, d): "
                       "L and d' = d hold; N' is 6d times the lemma's (vec(u) lies along the rows of one channel, three "
                       "blocks with gaps for the cyclic shifts)";
  r.details["max_layer_constant"] = worst;
  r.domain = std::to_string(models) + " seeded random K-matrices (random entries in every butterfly factor), n·d up to " +
             std::string(o.fast ? "16" : "64") + ", w up to 3, e up to 2, over Z, Q and F_1000003; " + std::to_string(reps) +
             " seeded inputs in [-3, 3] each (" + std::to_string(inputs) + " in all), model output compared exactly with S·E·Sᵀ·vec(u)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", worst);
  r.verdict = std::string(r.holds ? "every" : "not every") + " compiled model equals its K-matrix on vec(u) (" + std::to_string(inputs) +
              " inputs); layers / (w·log2(end)) at most " + buf + " (lemma: O(1), formalisation: 70); d' = d; N' = 6·e·n̂d, not e·n";
  return r;
}

const bool r4 = register_proof({"kmatrix/lemma", "K-matrix -> BaseConv lemma: M in (BB*)^w_e on vec(u) as a cyclic BaseConv with d' = d, O(w log(end)) layers (exact)",
                                "M ∈ (𝓑𝓑*)^w_e acting on vec(u), u ∈ R^{n×d}", {4, 15}, run_lemma});

}  // namespace
}  // namespace cz::proofs
