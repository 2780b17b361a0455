// BaseConv simulations of Hyena, H3 (through Hyena of order 2), RetNet and RWKV's WKV pair, ours
// [R]. Each returns a causal (N, L, d, N', d') model; the layouts are documented beside the
// constructions that verify them: constructions/sim/hyena_sim.h, retnet_sim.h, rwkv_sim.h.
#pragma once
#include "model/hyena.h"
#include "model/model.h"
#include "model/retnet.h"
#include "model/rwkv.h"

namespace cz::sim {

// The compilers are written once, over the weights' scalar type S (exact/ring_scalar.h): S = Rat
// gives the shipped models (the Model-returning functions below), S = RingScalar<RingPolyQ> the
// same layouts with every weight a polynomial in weight symbols (verify --method algebra
// --algebra-symbols weights, issue 37), S = RingScalar<RingBound> its estimate. Instantiated in
// zoo_compile.cpp for exactly those three. A compiler returns a ModelShell: the (N, d, N', d')
// shape and its BaseConv layers (causal), nothing else.
template <class S>
struct BaseConvT {
  Matrix<S> W, b1, h, b2;  // as BaseConvLayer (model/model.h): y = (x·W + b1) ⊙ (h ∗ x + b2)
};
template <class S>
struct ModelShell {
  std::size_t N = 0, d = 0, inner_N = 0, inner_d = 0;
  std::vector<BaseConvT<S>> layers;
  BaseConvT<S> zero_layer() const {
    return {Matrix<S>(inner_d, inner_d), Matrix<S>(inner_N, inner_d), Matrix<S>(inner_N, inner_d), Matrix<S>(inner_N, inner_d)};
  }
};
// The Rat shell as a causal Model over `ring` (moves the matrices).
Model to_model(ModelShell<Rat>&& s, const std::string& ring);

template <class S>
ModelShell<S> hyena_compile(const HyenaOperatorT<S>& op, bool short_conv = true);
template <class S>
ModelShell<S> hyena_compile_narrow(const HyenaOperatorT<S>& op);
template <class S>
ModelShell<S> retnet_compile(const RetNetOperatorT<S>& op);
template <class S>
ModelShell<S> rwkv_compile(const RwkvOperatorT<S>& op);

// (N, k + 2, d, N, (k+1)·d); short_conv = false leaves the short-conv layer out (h_s must be δ0).
Model hyena_to_baseconv(const HyenaOperator& op, bool short_conv = true);
// (N, 2k + 1, d, N, 3d): the input u is carried in its own block and each p^ℓ is projected and
// short-convolved just before gate ℓ, so the width stays 3d and every layer has Θ(N·d + d²)
// weights (the wide layout carries all k blocks p^ℓ through every gate: Θ(k²·N·d) nonzeros).
Model hyena_to_baseconv_narrow(const HyenaOperator& op);

// (N, 4, d, N, max(d, H·dk·dv + 2·H·dk)); ring Z when every weight and γ is integral, else Q.
// With a rotation (θ ≠ 0 somewhere): H·dk·dv + 4·H·dk (cos and sin channels of q and k).
template <class S>
std::size_t retnet_inner_d(const RetNetOperatorT<S>& op) {
  const std::size_t w = op.heads * op.dk * op.dv + (retnet_rotated(op) ? 4 : 2) * op.heads * op.dk;
  return w < op.d ? op.d : w;
}
Model retnet_to_baseconv(const RetNetOperator& op);

// (N, 3, 2d, N, 2d) on [E | x] -> [num | den]; ring Z when every weight is integral, else Q.
Model rwkv_to_baseconv(const RwkvOperator& op);

}  // namespace cz::sim
