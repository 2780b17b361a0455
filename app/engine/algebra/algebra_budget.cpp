#include "app/engine/algebra/algebra_budget.h"

#include <algorithm>
#include <cmath>

#include "app/engine/algebra/algebra_compare.h"  // fmt
#include "exact/poly.h"

namespace cz::algebra_budget {

using algebra_detail::fmt;


// Bits of a rational as stored (numerator and denominator).
double rat_bits(const Rat& q) { return static_cast<double>(q.num().bits() + q.den().bits()); }

// Bits a term's coefficient may reach: a product of one weight of each layer, so the sum over the
// layers of their largest weight's bits. FLINT keeps up to 62 bits in the coefficient word that
// term_bytes counts; beyond that the limbs are counted here.
double coefficient_bits(const Model& m) {
  double bits = 0;
  for (const auto& layer : m.layers) {
    double mx = 0;
    auto see = [&](const RatMatrix& M) {
      for (const Rat& q : M.data())
        if (!q.is_zero()) mx = std::max(mx, rat_bits(q));
    };
    std::visit([&](const auto& L) {
      using T = std::decay_t<decltype(L)>;
      if constexpr (std::is_same_v<T, BaseConvLayer>) see(L.W), see(L.b1), see(L.h), see(L.b2);
      else if constexpr (std::is_same_v<T, LinearAttentionLayer>) see(L.Wq), see(L.Wk), see(L.Wv);
      else see(L.W1), see(L.B1), see(L.W2), see(L.B2);
    }, layer);
    bits += mx;
  }
  return bits;
}

double coefficient_bytes(double bits) { return bits <= 62 ? 0.0 : 8.0 * std::ceil(bits / 64.0) + 16.0; }

// Bytes a term takes with nvars symbols and coefficients of `bits` bits (closed form).
double term_bytes(std::size_t nvars, double bits) {
  return static_cast<double>(RingPolyQ::term_bytes(nvars)) + coefficient_bytes(bits);
}

// The least the expansion holds whatever the model: the N·d input symbols and the model's copy of
// them in its state, one term each.
double expansion_floor(std::size_t N, std::size_t d, std::size_t nvars, double bits) {
  return 2.0 * static_cast<double>(N) * static_cast<double>(d) * term_bytes(nvars, bits);
}

// The bound twin's own work: ring operations of the model's layers (zero weights are skipped by
// the evaluator, so nonzero ones are counted), model and reference, times the words of a
// variable set. Above kTwinWork the estimate is not run (it would take seconds to minutes).
double twin_work(const Model& m, std::size_t nvars) {
  const double Np = static_cast<double>(m.inner_N), dp = static_cast<double>(m.inner_d);
  auto nnz = [](const RatMatrix& M) {
    double n = 0;
    for (const Rat& q : M.data()) n += !q.is_zero();
    return n;
  };
  double ops = static_cast<double>(m.N * m.d);
  for (const auto& layer : m.layers)
    std::visit([&](const auto& L) {
      using T = std::decay_t<decltype(L)>;
      if constexpr (std::is_same_v<T, BaseConvLayer>) ops += Np * nnz(L.W) + Np * nnz(L.h) + 4 * Np * dp;
      else if constexpr (std::is_same_v<T, LinearAttentionLayer>) ops += Np * (nnz(L.Wq) + nnz(L.Wk) + nnz(L.Wv)) + 3 * Np * Np * dp;
      else ops += Np * (nnz(L.W1) + nnz(L.W2)) + 4 * Np * dp;
    }, layer);
  return 2 * ops * (static_cast<double>(nvars) / 64.0 + 2.0);  // the reference counted as the model once more
}

// Hyena's compositional route (wide simulation, order k): each step holds its state symbols, the
// step's outputs on both sides (a gate's entry z^l(t) = p^l(t)·Σ_{s<=t} h^l(s)·z^{l-1}(t-s): at
// most t + 1 terms) and the blocks it keeps. Steps run one at a time: the largest one.
StepEstimate compositional_estimate(std::size_t N, std::size_t d, std::size_t k, std::size_t nweights, double bits) {
  StepEstimate e;
  const double n = static_cast<double>(N), dd = static_cast<double>(d);
  for (std::size_t l = 0; l <= k; ++l) {
    const std::size_t nv = (l == 0 ? N * d : (k - l + 2) * N * d) + nweights;
    const double terms = l == 0 ? n * dd + 2 * n * static_cast<double>(k + 1) * dd * 3 * dd
                                : static_cast<double>(nv) + 2 * dd * n * (n + 1) / 2 + 2 * static_cast<double>(k - l) * n * dd;
    const double bytes = terms * term_bytes(nv, bits);
    if (bytes > e.bytes) e = {bytes, terms, nv};
  }
  return e;
}

std::string floor_message(std::size_t N, std::size_t d, std::size_t nvars, double bits, std::uint64_t budget) {
  return "the expansion would need about " + fmt(expansion_floor(N, d, nvars, bits)) + " bytes or more (its " + std::to_string(N * d) +
         " input symbols alone, " + fmt(term_bytes(nvars, bits)) + " bytes a term in " + std::to_string(nvars) + " variables" +
         (bits > 62 ? " with coefficients of up to " + fmt(bits) + " bits" : std::string()) + "), over the budget of " +
         std::to_string(budget) + " bytes";
}

std::string compositional_message(const StepEstimate& c, std::uint64_t budget) {
  return "the compositional route would need about " + fmt(c.bytes) + " bytes (its largest step: " + fmt(c.terms) + " terms in " +
         std::to_string(c.symbols) + " symbols), over the budget of " + std::to_string(budget) + " bytes";
}

}  // namespace cz::algebra_budget
