// Internal to src/tensor: the NTT convolution of int64 inputs on the lane-batched kernels
// (ntt_lanes.h): W channels per row in the input's own row-major layout, fill, transforms,
// product and inverse fused per batch of W channels (conv_ntt.cpp calls it for d ≥ W/2; fewer
// channels take the per-channel kernels, which waste no lanes).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "exact/integer.h"
#include "tensor/matrix.h"
#include "tensor/ntt.h"

namespace cz::ntt_detail {

// Whether the lane path takes this plan on the current ISA.
bool lanes_take(const NttConvPlan& pl);

// A filter's forward transforms in the lane layout, per prime, for the ISA in use when first
// asked (thread-safe; a later ISA change rebuilds them for that width).
class LanePrepared {
 public:
  // h must outlive this object (NttFilter owns both).
  LanePrepared(const Matrix<std::int64_t>& h, std::uint64_t hmax, ConvMode mode);
  ~LanePrepared();
  // Batch b's transform (L rows × W lanes) for prime t.
  const std::uint32_t* get(unsigned t, const NttTable& tab, unsigned W, std::size_t batch) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The filter: one-shot (h, max |h|) or prepared.
struct LaneFilter {
  const Matrix<std::int64_t>* h = nullptr;
  std::uint64_t hmax = 0;
  const LanePrepared* prepared = nullptr;
};

// Exact h*u for a plan with pl.ntt and lanes_take(pl); max |u| = umax. (prefilled: internal.)
Matrix<std::int64_t> lanes_conv_i64(const NttConvPlan& pl, const Matrix<std::int64_t>& u, std::uint64_t umax,
                                    const LaneFilter& f, bool prefilled = false);  // throws Overflow beyond int64
Matrix<Int> lanes_conv_int(const NttConvPlan& pl, const Matrix<std::int64_t>& u, std::uint64_t umax,
                           const LaneFilter& f, bool prefilled = false);

// The one-shot convolution of up to W channels with the bound's statistics taken in the first
// fill (one read of u and h instead of three). Outer std::nullopt: not taken (more channels, too
// few, or an entry of magnitude ≥ 2^29: the caller takes the general route); inner std::nullopt:
// beyond the NTT (FLINT). *plan_out is set when taken.
std::optional<std::optional<Matrix<std::int64_t>>> lanes_oneshot_i64(const Matrix<std::int64_t>& h,
                                                                     const Matrix<std::int64_t>& u, ConvMode mode,
                                                                     NttConvPlan* plan_out);
std::optional<std::optional<Matrix<Int>>> lanes_oneshot_int(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u,
                                                            ConvMode mode, NttConvPlan* plan_out);

}  // namespace cz::ntt_detail
