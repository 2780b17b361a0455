// Every weight of an architecture operator, in one fixed order, with its name: map_weights(op, f)
// returns the same operator with weight w (named n) replaced by f(n, w), f called once per weight
// in the order below. `verify --method algebra --algebra-symbols weights` (issue 37) uses it to make
// each weight a symbol (f returns the next variable) and to put a point back into an operator
// (f returns the point's coordinate), so the symbols and the points agree by construction.
// Shapes are the operator's own; no entry is left out (taps that are 0 in a seeded operator are
// weights too: the claims are "for every filter").
//   Hyena: W[j][c], h_s[t][c], h^l[t][j]          H3: W_Q, W_K, W_V, then per channel c the shift
//   SSM's B[i], C[i], D and the diagonal SSM's λ[i], B[i], C[i], D
//   RetNet: W_Q, W_K, W_V, W_O, γ[h], rotation[h][i] (cos, sin)     RWKV: μ[c], W_V, λ[c], β[c]
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "model/h3.h"
#include "model/hyena.h"
#include "model/retnet.h"
#include "model/rwkv.h"

namespace cz {

namespace weight_map_detail {
inline std::string idx(const std::string& name, std::size_t i) { return name + "[" + std::to_string(i) + "]"; }
template <class T, class S, class F>
Matrix<T> mat(const Matrix<S>& m, const std::string& name, F& f) {
  Matrix<T> r(m.rows(), m.cols());
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) r(i, j) = f(idx(idx(name, i), j), m(i, j));
  return r;
}
template <class T, class S, class F>
std::vector<T> vec(const std::vector<S>& v, const std::string& name, F& f) {
  std::vector<T> r;
  for (std::size_t i = 0; i < v.size(); ++i) r.push_back(f(idx(name, i), v[i]));
  return r;
}
}  // namespace weight_map_detail

template <class T, class S, class F>
HyenaOperatorT<T> map_weights(const HyenaOperatorT<S>& op, F&& f) {
  using namespace weight_map_detail;
  HyenaOperatorT<T> r;
  r.N = op.N, r.d = op.d, r.order = op.order;
  r.W = mat<T>(op.W, "W", f);
  r.hs = mat<T>(op.hs, "h_s", f);
  for (std::size_t l = 0; l < op.h.size(); ++l) r.h.push_back(mat<T>(op.h[l], "h^" + std::to_string(l + 1), f));
  return r;
}

template <class T, class S, class F>
H3OperatorT<T> map_weights(const H3OperatorT<S>& op, F&& f) {
  using namespace weight_map_detail;
  H3OperatorT<T> r;
  r.N = op.N, r.d = op.d, r.m = op.m, r.form = op.form;
  r.WQ = mat<T>(op.WQ, "W_Q", f);
  r.WK = mat<T>(op.WK, "W_K", f);
  r.WV = mat<T>(op.WV, "W_V", f);
  for (bool diagonal : {false, true})
    for (std::size_t c = 0; c < op.d; ++c) {
      const SsmT<S>& s = (diagonal ? op.diag : op.shift)[c];
      const std::string n = idx(diagonal ? "diag" : "shift", c);
      SsmT<T> t;
      t.lambda = vec<T>(s.lambda, n + ".lambda", f);
      t.B = vec<T>(s.B, n + ".B", f);
      t.C = vec<T>(s.C, n + ".C", f);
      t.D = f(n + ".D", s.D);
      (diagonal ? r.diag : r.shift).push_back(std::move(t));
    }
  return r;
}

template <class T, class S, class F>
RetNetOperatorT<T> map_weights(const RetNetOperatorT<S>& op, F&& f) {
  using namespace weight_map_detail;
  RetNetOperatorT<T> r;
  r.N = op.N, r.d = op.d, r.heads = op.heads, r.dk = op.dk, r.dv = op.dv;
  r.WQ = mat<T>(op.WQ, "W_Q", f);
  r.WK = mat<T>(op.WK, "W_K", f);
  r.WV = mat<T>(op.WV, "W_V", f);
  r.WO = mat<T>(op.WO, "W_O", f);
  r.gamma = vec<T>(op.gamma, "gamma", f);
  for (std::size_t h = 0; h < op.rotation.size(); ++h) {
    r.rotation.emplace_back();
    for (std::size_t i = 0; i < op.rotation[h].size(); ++i) {
      const std::string n = idx(idx("rotation", h), i);
      T c = f(n + ".cos", op.rotation[h][i].first);
      T s = f(n + ".sin", op.rotation[h][i].second);
      r.rotation.back().emplace_back(std::move(c), std::move(s));
    }
  }
  return r;
}

template <class T, class S, class F>
RwkvOperatorT<T> map_weights(const RwkvOperatorT<S>& op, F&& f) {
  using namespace weight_map_detail;
  RwkvOperatorT<T> r;
  r.N = op.N, r.d = op.d;
  r.mu = vec<T>(op.mu, "mu", f);
  r.WV = mat<T>(op.WV, "W_V", f);
  r.decay = vec<T>(op.decay, "decay", f);
  r.bonus = vec<T>(op.bonus, "bonus", f);
  return r;
}

}  // namespace cz
