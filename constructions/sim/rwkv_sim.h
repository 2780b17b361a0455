// BaseConv simulation of RWKV-4 time mixing's WKV numerator and denominator (model/rwkv.h), ours
// [R]: an (N, 3, 2d, N, 2d) causal BaseConv on u = [E | x] (E = exp(k) supplied) with output
// [num | den]. Spec §3: both are convolutions of E⊙v and E with h[0] = β (e^{bonus}),
// h[t] = λ^{t−1} (e^{−(t−1)w}) for t ≥ 1.
//   layer 1 (token shift):  1 ⊙ (h1 ∗ x)     E kept (h1 = δ0); x channel c ← μ_c·x[t] + (1−μ_c)·x[t−1]
//   layer 2 (E ⊙ v):        (x·W2) ⊙ (δ0 ∗ x + b2)   channel c ← (xv·W_V)_c ⊙ E_c (W2 reads the
//                           token-shifted block); channel d+c ← E_c (W2 routes it, b2 = 1)
//   layer 3 (WKV decay):    1 ⊙ (h_wkv ∗ x)  both blocks: h[0] = β_c, h[t] = λ_c^{t−1}
// No width blowup (d' = 2d: numerator and denominator) and 3 layers. The division num/den is not
// simulated (not a polynomial; model/rwkv.h, rwkv_line_values). Ring Z when every weight is an
// integer, else Q.
#pragma once
// The compiler is in model/zoo_compile.cpp (the model-json reader expands architecture layers).
#include "model/zoo_compile.h"
