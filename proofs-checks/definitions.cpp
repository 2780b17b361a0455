// Rows 1-3: the BaseConv layer y = (uW + b1) ⊙ (h*u + b2), the three convolution modes as
// polynomial products (causal: u(X)h(X) mod X^N; cyclic: mod X^N - 1; anticausal: the poly*
// reading) and the top-left embedding/extraction of the (N, L, d, N', d') model. An evaluator
// written here from those definitions (full polynomial products, then folding) is compared with
// the project's evaluator (src/model/eval.h) on random models and inputs, exactly.
#include "model/eval.h"
#include "proofs-checks/checks.h"
#include "proofs-checks/proof.h"
#include "proofs-checks/symbolic.h"

namespace cz::proofs {
namespace {

using I = long long;

std::vector<std::vector<I>> naive_eval(const Model& m, const std::vector<std::vector<I>>& u) {
  const std::size_t Ni = m.inner_N, Di = m.inner_d;
  std::vector<std::vector<I>> x(Ni, std::vector<I>(Di, 0));
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j) x[i][j] = u[i][j];  // top-left embedding
  auto val = [](const Rat& q) { return std::stoll(q.num().str()); };
  for (const auto& layer : m.layers) {
    const auto& L = std::get<BaseConvLayer>(layer);
    std::vector<std::vector<I>> y(Ni, std::vector<I>(Di, 0));
    for (std::size_t j = 0; j < Di; ++j) {
      // column polynomials: u_j(X) = sum_i x[i][j] X^i, its reversal, and h_j(X)
      std::vector<I> prod(2 * Ni, 0), rprod(2 * Ni, 0);
      for (std::size_t a = 0; a < Ni; ++a)
        for (std::size_t b = 0; b < Ni; ++b) {
          prod[a + b] += val(L.h(a, j)) * x[b][j];
          rprod[a + b] += val(L.h(a, j)) * x[Ni - 1 - b][j];
        }
      for (std::size_t i = 0; i < Ni; ++i) {
        I conv;
        if (m.conv == ConvMode::Causal) conv = prod[i];                       // mod X^N
        else if (m.conv == ConvMode::Cyclic) conv = prod[i] + prod[i + Ni];  // mod X^N - 1
        else conv = rprod[Ni - 1 - i];                                        // poly*
        I lin = val(L.b1(i, j));
        for (std::size_t k = 0; k < Di; ++k) lin += x[i][k] * val(L.W(k, j));
        y[i][j] = lin * (conv + val(L.b2(i, j)));
      }
    }
    x = y;
  }
  x.resize(m.N);
  for (auto& row : x) row.resize(m.d);  // top-left extraction
  return x;
}

ProofResult run(const ProofOptions& o) {
  ProofResult r;
  r.holds = true;
  std::size_t models = 0, inputs = 0;
  std::uint64_t s = o.seed * 977 + 5;
  for (ConvMode mode : {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal})
    for (int k = 0; k < (o.fast ? 6 : 20); ++k) {
      const std::size_t N = 2 + k % 4, d = 1 + k % 2, Ni = N + k % 3, Di = d + k % 2, L = 1 + k % 2;
      Model m = random_baseconv(N, d, Ni, Di, L, mode, o.seed * 131 + k * 7 + static_cast<int>(mode));
      IntegerEvaluator ev(m);
      ++models;
      for (int t = 0; t < 16; ++t, ++inputs) {
        Matrix<std::int64_t> u(N, d);
        std::vector<std::vector<I>> uu(N, std::vector<I>(d));
        for (std::size_t i = 0; i < N; ++i)
          for (std::size_t j = 0; j < d; ++j) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            uu[i][j] = u(i, j) = static_cast<I>((s >> 33) % 7) - 3;
          }
        const auto got = ev(u);
        const auto want = naive_eval(m, uu);
        for (std::size_t i = 0; i < N; ++i)
          for (std::size_t j = 0; j < d; ++j)
            if (got(i, j) != Int(want[i][j]) && r.holds) {
              r.holds = false;
              r.details["counterexample"] = {{"mode", to_string(mode)}, {"model", k}, {"row", i}, {"col", j}};
            }
      }
    }
  r.verdict = std::string(r.holds ? "" : "NOT ") + "equal: the evaluator matches the definitions (polynomial products mod X^N, mod X^N - 1, poly*; top-left embed/extract) on " +
              std::to_string(models) + " random models x 16 inputs";
  r.domain = std::to_string(models) + " random models with N' >= N, d' >= d, three modes; " + std::to_string(inputs) + " inputs";
  return r;
}

const bool registered = register_proof({"definitions/baseconv", "rows 1-3: BaseConv layer, convolution modes and the 5-tuple model vs their definitions",
                                        "integer BaseConv models and inputs", {1, 2, 3}, run});
}  // namespace
}  // namespace cz::proofs
