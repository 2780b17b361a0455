// BaseConv simulation of Hyena of order k (model/hyena.h), ours [R]: an
// (N, k + 2, d, N, (k+1)·d) causal BaseConv model with y = z^k exactly.
//   layer 1  (linear):      (x·W_A) ⊙ 1, W_A = [W; 0]                      -> u·W in all (k+1)d channels
//   layer 2  (short conv):  1 ⊙ (h_s ∗ x)                                  -> [v | p^1 | … | p^k]
//   layer 2+ℓ (gate ℓ):     (x·W_ℓ) ⊙ (h_ℓ ∗ x + b2_ℓ): W_ℓ routes block ℓ (p^ℓ) into block 0 and
//                           keeps blocks m > ℓ; h_ℓ = h^ℓ on block 0, 0 elsewhere; b2_ℓ = 0 on
//                           block 0, 1 elsewhere -> [p^ℓ ⊙ (h^ℓ ∗ z^{ℓ−1}) | 0 … | p^{ℓ+1} | … ]
// The output is read from block 0 (the top-left N×d), as every model's output is.
#pragma once
// short_conv = false leaves layer 2 out, for operators whose h_s is δ0 on every channel (the
// identity; H3's projections have no short filter): (N, k + 1, d, N, (k+1)·d). Throws
// std::invalid_argument when h_s is not δ0 then. The compiler is in model/zoo_compile.cpp (the
// model-json reader expands "hyena" and "h3" layers with it).
#include "model/zoo_compile.h"
