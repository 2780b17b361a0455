// BaseConv simulations of Hyena, H3 (through Hyena of order 2), RetNet and RWKV's WKV pair, ours
// [R]. Each returns a causal (N, L, d, N', d') model; the layouts are documented beside the
// constructions that verify them: constructions/sim/hyena_sim.h, retnet_sim.h, rwkv_sim.h.
#pragma once
#include "model/hyena.h"
#include "model/model.h"
#include "model/retnet.h"
#include "model/rwkv.h"

namespace cz::sim {

// (N, k + 2, d, N, (k+1)·d); short_conv = false leaves the short-conv layer out (h_s must be δ0).
Model hyena_to_baseconv(const HyenaOperator& op, bool short_conv = true);
// (N, 2k + 1, d, N, 3d): the input u is carried in its own block and each p^ℓ is projected and
// short-convolved just before gate ℓ, so the width stays 3d and every layer has Θ(N·d + d²)
// weights (the wide layout carries all k blocks p^ℓ through every gate: Θ(k²·N·d) nonzeros).
Model hyena_to_baseconv_narrow(const HyenaOperator& op);

// (N, 4, d, N, max(d, H·dk·dv + 2·H·dk)); ring Z when every weight and γ is integral, else Q.
// With a rotation (θ ≠ 0 somewhere): H·dk·dv + 4·H·dk (cos and sin channels of q and k).
inline std::size_t retnet_inner_d(const RetNetOperator& op) {
  const std::size_t w = op.heads * op.dk * op.dv + (retnet_rotated(op) ? 4 : 2) * op.heads * op.dk;
  return w < op.d ? op.d : w;
}
Model retnet_to_baseconv(const RetNetOperator& op);

// (N, 3, 2d, N, 2d) on [E | x] -> [num | den]; ring Z when every weight is integral, else Q.
Model rwkv_to_baseconv(const RwkvOperator& op);

}  // namespace cz::sim
