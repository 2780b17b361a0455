// The second circuit → BaseConv compiler (issue 28, Zoology Theorem H.21 [M], spec §14.2): cyclic
// convolution and K-matrix routing, inner width d' = d. Beside the causal one
// (circuit_to_model.h), which keeps wires in channels (d' grows) and cannot look ahead.
// Scheme [R, ours] (circuits/kmatrix_rows.h for the row layout):
//   gather (2 layers)   the inputs to channel 0 rows (column-major vec(u)) and a constant-1 wire
//   per multiplicative level m = 1..mul_depth:
//     route             one sparse linear map as a K-matrix (tensor/kmatrix_forms.h: a monomial map
//                       is one 𝓑𝓑* member with e = 1; else Dao Thm 3, width 3⌈s/n̂⌉ + 1, e = 4)
//                       writes, on rows [0, 2H): each product's right operand at [0, P), the
//                       wires still needed (and the 1) at [P, P + Q), each left operand at
//                       [H, H + P) (H = 2^⌈log2(P + Q)⌉); operands are affine in the wires
//     multiply (1)      y = (u·e0e0ᵀ) ⊙ (δ_H ⊛ u + b2), b2 = 1 on the kept rows: row H + t
//                       becomes left·right; kept rows see a zero row H above them, so stay
//   output              one more sparse map puts output (i, j) at row j·N + i, then scatter (2)
// Achieved: d' = d; N' = 6·e·n̂ for the largest routing map (n̂ = 2^⌈log2 of its size⌉, which is
// O(live wires + N·d)); layers 4 + Σ_maps 4·w_map·log2(e·n̂) + mul_depth. Every output may use
// every input (no causality restriction: the conv is cyclic).
#pragma once
#include "circuits/circuit.h"
#include "circuits/layout.h"
#include "model/model.h"

namespace cz::circuits {

struct ToModelCyclic {
  Model model;
  std::size_t stages = 0;          // multiplicative levels compiled
  std::size_t routing_maps = 0;    // K-matrices compiled (stages + 1)
  std::size_t max_width = 0;       // the widest K-matrix (BB* members)
  std::size_t max_vector = 0;      // the longest routing vector (n̂ of the largest map)
  std::size_t max_inner = 0;       // the largest K-matrix inner size e·n̂
  std::size_t kmatrix_params = 0;  // Σ 4·w·e·n̂·log2(e·n̂) over the routing maps
  std::size_t largest_map_params = 0, largest_map_size = 0;  // the costliest map's count and its n̂
};

ToModelCyclic circuit_to_model_cyclic(const Circuit& c, const Layout& layout);

}  // namespace cz::circuits
