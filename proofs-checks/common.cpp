// Shared computations of the prove checks (checks.h).
#include <flint/nmod_mat.h>

#include <algorithm>
#include <bit>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "model/eval.h"
#include "proofs-checks/checks.h"
#include "proofs-checks/symbolic.h"
#include "verify/params.h"

namespace cz::proofs {

Built build_construction(const std::string& name, const std::map<std::string, std::string>& params) {
  const Construction& c = find_construction(name);
  return c.build(Params::parse(c.params, params));
}

std::optional<long> max_output_degree(const Model& m, std::string& why) {
  auto s = symbolic_eval(m, why);
  if (!s) return std::nullopt;
  return s->max_degree;
}

bool degree_within(const Model& m, long bound, std::string& why) {
  auto s = symbolic_eval(m, why);
  if (!s) return false;
  for (std::size_t k = 0; k < s->degree.size(); ++k)
    if (s->degree[k] > bound) {
      why = "output (" + std::to_string(k / s->d) + "," + std::to_string(k % s->d) + ") has degree " +
            std::to_string(s->degree[k]) + " > " + std::to_string(bound);
      return false;
    }
  return true;
}

std::optional<CausalityResult> causality_violations(const Model& m, std::string& why) {
  auto s = symbolic_eval(m, why);
  if (!s) return std::nullopt;
  CausalityResult r;
  r.entries = s->degree.size();
  for (std::size_t k = 0; k < s->degree.size(); ++k) {
    const long i = static_cast<long>(k / s->d);
    if (s->max_row[k] > i) {
      if (r.violations++ == 0)
        r.first = "output (" + std::to_string(i) + "," + std::to_string(k % s->d) + ") depends on input row " +
                  std::to_string(s->max_row[k]);
    }
  }
  return r;
}

long multilinear_degree(const std::vector<std::int64_t>& f, unsigned m) {
  std::vector<std::int64_t> a = f;
  const std::size_t n = std::size_t{1} << m;
  for (unsigned i = 0; i < m; ++i)
    for (std::size_t s = 0; s < n; ++s)
      if (s >> i & 1) a[s] -= a[s ^ (std::size_t{1} << i)];
  long deg = -1;
  for (std::size_t s = 0; s < n; ++s)
    if (a[s] != 0) deg = std::max<long>(deg, std::popcount(s));
  return deg;
}

std::vector<std::int64_t> eq_binary_table(unsigned d) {
  std::vector<std::int64_t> f(std::size_t{1} << (2 * d));
  const std::size_t mask = (std::size_t{1} << d) - 1;
  for (std::size_t x = 0; x < f.size(); ++x) f[x] = (x & mask) == (x >> d) ? 1 : 0;
  return f;
}

long phot_eq_min_degree(unsigned p, unsigned b, std::string& why, long claimed_lower) {
  // Variables: token t (0 or 1), digit i (< p), value a (< b): one-hot x[t][i][a].
  // (1) Upper bound: P = prod_i sum_a x[0][i][a] x[1][i][a] has degree 2p and equals EQ on all pairs.
  std::uint64_t c = 1;
  for (unsigned i = 0; i < p; ++i) c *= b;
  auto digit = [&](std::uint64_t t, unsigned i) {
    for (unsigned k = 0; k < i; ++k) t /= b;
    return t % b;
  };
  for (std::uint64_t t1 = 0; t1 < c; ++t1)
    for (std::uint64_t t2 = 0; t2 < c; ++t2) {
      std::int64_t P = 1;
      for (unsigned i = 0; i < p; ++i) P *= digit(t1, i) == digit(t2, i) ? 1 : 0;
      if (P != (t1 == t2 ? 1 : 0)) {
        why = "the degree-2p product differs from EQ at (" + std::to_string(t1) + "," + std::to_string(t2) + ")";
        return -1;
      }
    }
  // (2) Lower bound: y(t1, t2) = (-1)^(sum of digits) on the sub-cube of digits in {0,1}. A monomial
  // that multiplies at most one variable per block (2p blocks: token × digit; two variables of one
  // block vanish on one-hot inputs, and x^2 = x) and misses a block sums to 0 against y; all
  // monomials of degree < 2p miss a block. Checked here by summing, not by the argument.
  const unsigned blocks = 2 * p;
  const long below = claimed_lower >= 0 ? claimed_lower : static_cast<long>(blocks);
  // Enumerate monomials: per block a choice in {none, 0..b-1}.
  std::vector<unsigned> choice(blocks, 0);
  std::uint64_t monomials = 0;
  for (;;) {
    long deg = 0;
    for (unsigned k = 0; k < blocks; ++k) deg += choice[k] != 0;
    if (deg < below) {
      ++monomials;
      std::int64_t sum = 0;
      for (std::uint64_t cube = 0; cube < (std::uint64_t{1} << blocks); ++cube) {
        std::int64_t mono = 1;
        for (unsigned k = 0; k < blocks && mono; ++k)
          if (choice[k]) mono = ((cube >> k & 1) == choice[k] - 1) ? 1 : 0;
        if (mono) sum += std::popcount(cube) % 2 ? -1 : 1;
      }
      if (sum != 0) {
        why = "a monomial of degree " + std::to_string(deg) + " is not annihilated by the certificate";
        return -1;
      }
    }
    unsigned k = 0;
    while (k < blocks && ++choice[k] > b) choice[k++] = 0;
    if (k == blocks) break;
  }
  // y against EQ: the diagonal of the sub-cube, 2^p points, all with sign +1.
  std::int64_t s_eq = 0;
  for (std::uint64_t cube = 0; cube < (std::uint64_t{1} << blocks); ++cube)
    if ((cube & ((std::uint64_t{1} << p) - 1)) == (cube >> p)) s_eq += std::popcount(cube) % 2 ? -1 : 1;
  if (s_eq == 0) {
    why = "the certificate annihilates EQ";
    return -1;
  }
  (void)monomials;
  return static_cast<long>(blocks);
}

unsigned ceil_log2(std::uint64_t x) {
  unsigned b = 0;
  while ((std::uint64_t{1} << b) < x) ++b;
  return b;
}

std::uint64_t jrp_min_states(std::uint64_t r, unsigned p) {
  const unsigned e = 2 * p - 1;
  for (std::uint64_t s = 1;; ++s) {
    unsigned __int128 v = 1;
    for (unsigned k = 0; k < e && v < r; ++k) v *= static_cast<unsigned __int128>(2 * s);
    if (v >= r) return s;
  }
}

SdMatrixStats sd_matrix_stats(unsigned U, unsigned a, unsigned b, bool with_rank) {
  auto subsets = [&](unsigned k) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t m = 0; m < (1u << U); ++m)
      if (static_cast<unsigned>(std::popcount(m)) == k) out.push_back(m);
    return out;
  };
  const auto R = subsets(a), C = subsets(b);
  SdMatrixStats s{U, a, b, R.size(), C.size(), 0, 0};
  std::set<std::vector<bool>> rows;
  for (auto A : R) {
    std::vector<bool> row;
    for (auto B : C) row.push_back((A & B) != 0);
    rows.insert(row);
  }
  s.distinct_rows = rows.size();
  if (with_rank) {
    nmod_mat_t M;
    nmod_mat_init(M, static_cast<slong>(R.size()), static_cast<slong>(C.size()), 2305843009213693951ULL);
    for (std::size_t i = 0; i < R.size(); ++i)
      for (std::size_t j = 0; j < C.size(); ++j) nmod_mat_entry(M, i, j) = (R[i] & C[j]) ? 1 : 0;
    s.rank = static_cast<std::uint64_t>(nmod_mat_rank(M));
    nmod_mat_clear(M);
  }
  return s;
}

bool stacking_holds(const Model& a, const Model& b, const Model& composed, std::uint64_t seed, std::string& why) {
  if (composed.layers.size() != a.layers.size() + b.layers.size()) {
    why = "layers " + std::to_string(composed.layers.size()) + " != " + std::to_string(a.layers.size()) + " + " +
          std::to_string(b.layers.size());
    return false;
  }
  IntegerEvaluator ea(a), eb(b), ec(composed);
  std::uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 7;
  for (int trial = 0; trial < 64; ++trial) {
    Matrix<std::int64_t> u(a.N, a.d);
    for (auto& e : u.data()) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      e = static_cast<std::int64_t>((s >> 33) % 7) - 3;
    }
    if (!(eb(ea(u)) == ec(u))) {
      why = "composed model differs from b(a(u)) on sample " + std::to_string(trial);
      return false;
    }
  }
  return true;
}

Model zero_outer_columns(const Model& a) {
  Model r = a;
  if (r.layers.empty()) return r;
  auto zero_cols = [&](RatMatrix& M) {
    for (std::size_t i = 0; i < M.rows(); ++i)
      for (std::size_t j = a.d; j < M.cols(); ++j) M(i, j) = Rat(0);
  };
  std::visit([&](auto& L) {
    using T = std::decay_t<decltype(L)>;
    if constexpr (std::is_same_v<T, BaseConvLayer>) zero_cols(L.W), zero_cols(L.b1);
    else if constexpr (std::is_same_v<T, MlpLayer>) zero_cols(L.W2), zero_cols(L.B2);
    else zero_cols(L.Wv);
  }, r.layers.back());
  return r;
}

Model stack_composing(const Model& a, const Model& b) {
  if (a.inner_N == a.N && a.inner_d == a.d) return stack(a, b);
  if (a.conv != ConvMode::Causal || b.conv != ConvMode::Causal)
    throw std::invalid_argument("stack_composing: inner dims exceed outer ones and the convolution is not causal");
  return stack(zero_outer_columns(a), b);
}

}  // namespace cz::proofs
