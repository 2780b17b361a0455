// BaseConv simulation of RetNet retention (model/retnet.h), ours [R], following spec §3's
// gated-convolution form o[:, b] = Σ_a q[:, a] ⊙ (h_γ ∗ (k[:, a] ⊙ v[:, b])), h_γ[t] = γ^t:
// an (N, 4, d, N, H·dk·dv + 2·H·dk) causal BaseConv (inner width at least d).
// Channels: P = H·dk·dv pair channels (h, a, b) at (h·dk + a)·dv + b, then H·dk key channels,
// then H·dk query channels.
//   layer 1 (linear):     (x·W1) ⊙ 1        pair (h,a,b) ← v^h_b, key (h,a) ← k^h_a, query ← q^h_a
//   layer 2 (products):   (x·W2) ⊙ (δ0 ∗ x + b2)   pair ← k^h_a ⊙ v^h_b (W2 routes key (h,a));
//                         queries kept (W2 = I, b2 = 1 there)
//   layer 3 (decay gate): (x·W3) ⊙ (h_γ ∗ x)  pair ← q^h_a ⊙ (h_γ ∗ (k^h_a ⊙ v^h_b)) (W3 routes
//                         query (h,a), h = γ_h^t on head h's pairs)
//   layer 4 (sum, W_O):   (x·W4) ⊙ 1        column j ← Σ_{h,a,b} pair(h,a,b)·W_O[h·dv + b, j]
// The width blowup is the dk·dv products per head that ⟨q_n, k_m⟩ v_m expands into: a gated
// convolution has no inner product across channels, so each (a, b) pair is its own channel.
// The model's ring is Z when every weight and γ is an integer, else Q.
#pragma once
// The compiler is in model/zoo_compile.cpp (the model-json reader expands architecture layers).
#include "model/zoo_compile.h"
