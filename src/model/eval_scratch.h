// Allocation-free evaluation of an int64-prepared model (issue 10: "evaluate sparse models
// without allocating"). The arithmetic is eval_inner<RingI64>'s (model/eval.h): every operation
// checked, Overflow thrown so the caller redoes the instance in Z; only the storage differs: the
// layers ping-pong between buffers of a per-thread scratch that is reused across calls, so a warm
// evaluation allocates nothing (the NTT route of long dense filters, N > kConvNaiveMaxN, still
// goes through conv_layer and allocates). Exact integers: the result is eval_inner's, entry for
// entry, whenever neither throws (tests/model/test_eval_scratch.cpp).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "model/eval.h"

namespace cz {

struct I64Scratch {
  std::vector<std::int64_t> x, y, a, q, k, v, s;
};

// The last layer's inner_N × inner_d output (row-major), valid until s is used again.
// Throws Overflow (RingI64) and std::invalid_argument on a shape mismatch, as eval_inner does.
const std::vector<std::int64_t>& eval_inner_scratch(const PreparedModel<RingI64>& p, const Matrix<std::int64_t>& u,
                                                    I64Scratch& s);

}  // namespace cz
