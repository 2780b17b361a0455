// Pieces the algebra routes share (algebra.cpp over Q and F_p, algebra_weights.cpp with the weights
// as symbols), written once.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "tensor/matrix.h"
#include "util/seeded.h"

namespace cz::algebra_detail {

using Clock = std::chrono::steady_clock;
inline double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The seeded stream of the points tried for a counterexample: splitmix64 of the state, then the
// state advances by the golden gamma (the same numbers as before, so the same counterexamples).
inline std::uint64_t splitmix(std::uint64_t& s) {
  const std::uint64_t z = splitmix64(s);
  s += 0x9e3779b97f4a7c15ULL;
  return z;
}

// Estimates in messages: three significant digits.
inline std::string fmt(double x) {
  std::ostringstream o;
  o.precision(3);
  o << x;
  return o.str();
}

// u(i, j) = x_{offset + i·d + j}.
template <class R>
Matrix<typename R::Elem> symbols(const R& r, std::size_t N, std::size_t d, std::size_t offset = 0) {
  Matrix<typename R::Elem> u(N, d, r.zero());
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) u(i, j) = r.var(offset + i * d + j);
  return u;
}

// The model's outputs against the reference's, entry by entry: sizes for the report and the first
// output whose difference polynomial is not zero (where a counterexample is searched).
template <class R>
struct OutputDiff {
  double terms = 0, ref_terms = 0, max_terms = 0;
  long degree = -1;
  std::size_t differ = 0;
  // Output entries that are the zero polynomial on both sides (issue 46 item 4): an identity
  // there says nothing about the input (a vacuous entry), counted in the report as zero_outputs.
  std::size_t zero = 0;
  std::optional<std::pair<std::size_t, std::size_t>> first;
  typename R::Elem first_diff{};
};

template <class R>
OutputDiff<R> diff_outputs(const R& r, const Matrix<typename R::Elem>& got, const Matrix<typename R::Elem>& want) {
  OutputDiff<R> o;
  for (std::size_t i = 0; i < got.rows(); ++i)
    for (std::size_t j = 0; j < got.cols(); ++j) {
      o.terms += static_cast<double>(got(i, j).terms());
      o.ref_terms += static_cast<double>(want(i, j).terms());
      o.max_terms = std::max(o.max_terms, static_cast<double>(std::max(got(i, j).terms(), want(i, j).terms())));
      o.degree = std::max({o.degree, got(i, j).degree(), want(i, j).degree()});
      o.zero += got(i, j).is_zero() && want(i, j).is_zero();
      auto diff = r.sub(got(i, j), want(i, j));
      if (!diff.is_zero()) {
        ++o.differ;
        if (!o.first) o.first = {i, j}, o.first_diff = std::move(diff);
      }
    }
  return o;
}

// Hyena's gate step l of k on fresh symbols (the compositional route, Zoology Alg. 3's recursion):
// S = [z^{l-1} | 0 … | p^l … p^k] (N×(k+1)d; z^{l-1} is symbols 0..Nd-1, then p^l..p^k, N×d each),
// want = the blocks the gate keeps unchanged (p^{l+1}..p^k, block 0 left for the step's value),
// zp = [z^{l-1} | p^l] (N×2d), the input of the order-1 operator that isolates the step.
template <class R>
struct GateSymbols {
  Matrix<typename R::Elem> S, want, zp;
};

template <class R>
GateSymbols<R> gate_symbols(const R& r, std::size_t N, std::size_t d, std::size_t k, std::size_t l) {
  const std::size_t C = (k + 1) * d;
  GateSymbols<R> g{Matrix<typename R::Elem>(N, C, r.zero()), Matrix<typename R::Elem>(N, C, r.zero()),
                   Matrix<typename R::Elem>(N, 2 * d, r.zero())};
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      g.S(i, j) = r.var(i * d + j);  // z^{l-1}
      g.zp(i, j) = g.S(i, j);
      for (std::size_t b = l; b <= k; ++b) {
        g.S(i, b * d + j) = r.var(((b - l + 1) * N + i) * d + j);  // p^b
        if (b > l) g.want(i, b * d + j) = g.S(i, b * d + j);
      }
      g.zp(i, d + j) = g.S(i, l * d + j);
    }
  return g;
}

}  // namespace cz::algebra_detail
