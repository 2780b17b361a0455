// The pointwise half of a BaseConv layer over int64, y = (x·W + b1) ⊙ (c + b2) with c = h*x
// already computed, without a per-operation overflow check: it runs only when a certified bound
// shows that no partial sum, sum or product can leave int64, so exactness is never traded for the
// speed (the checked ring loop of model/eval.h takes every other case).
#pragma once
#include <cstdint>

#include "tensor/matrix.h"

namespace cz {

// x: N×d, W: d×e, b1, b2, c: N×e. Bound, per output column j (exact 128-bit arithmetic,
// saturating at 2^63): A_j = max_i |b1_ij| + Σ_k max_i |x_ik| · |W_kj| bounds every partial sum
// of x·W + b1 (each adds terms of absolute value at most those of the full sum), and
// G_j = max_i |c_ij| + max_i |b2_ij| ≥ max_i |c_ij + b2_ij|. When A_j < 2^63, G_j < 2^63 and
// A_j·G_j < 2^63 for all j, every intermediate fits int64, so the wrapping computation is exact:
// returns true with c overwritten by y. Otherwise returns false and c's entries are unspecified
// (the caller recomputes c and takes the checked path).
bool baseconv_gate_i64(const Matrix<std::int64_t>& x, const Matrix<std::int64_t>& W, const Matrix<std::int64_t>& b1,
                       const Matrix<std::int64_t>& b2, Matrix<std::int64_t>& c);

}  // namespace cz
