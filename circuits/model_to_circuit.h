// Compiler: a (N, L, d, N', d') model → an arithmetic circuit (every layer expanded into gates).
//   BaseConv  y = (u·W + b1) ⊙ (h ∗ u + b2): each entry of u·W + b1 is a balanced sum of
//             x[i][k]·W[k][c] over the nonzero W[k][c]; each convolution entry a balanced sum of
//             h[t][c]·x[src][c] over the nonzero taps, with src given by the model's conv mode
//             (causal i−t, cyclic (i−t) mod N', anticausal i+t); then one Mul per entry.
//   LinearAttention z[i] = Σ_{j≤i} <Q[i], K[j]> V[j]: the states S_i = Σ_{j≤i} K[j]^T V[j] as a
//             Sklansky prefix sum over rows (depth O(log N')), then z[i] = Q[i]·S_i.
//   MLP (ReLU) is not a polynomial: std::invalid_argument.
// Inputs are named u[i][j] (row-major, N×d, Field), outputs y[i][j] (contract.md circuit-json);
// the N×d input is embedded top-left in N'×d' (zeros fold away) and the top-left N×d is read out.
// Zero weights cost nothing (skipped, and constant folding removes the rest). `max_gates`
// (0 = none) throws TooManyGates when exceeded, for callers that cap sizes (e.g. `stats`).
#pragma once
#include "circuits/circuit.h"
#include "model/model.h"

namespace cz::circuits {

Circuit model_to_circuit(const Model& m, std::size_t max_gates = 0);

}  // namespace cz::circuits
