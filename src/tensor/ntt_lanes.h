// Internal to src/tensor: the lane-batched NTT convolution kernels (ntt_lanes_impl.h explains the
// layout and the recursion). conv_ntt_lanes.cpp drives them for int64 inputs of many channels.
#pragma once
#include <cstddef>
#include <climits>
#include <cstdint>

#include "tensor/ntt.h"

namespace cz::ntt_lanes {

// One prime's transform of length L = 2^log_len over rows of W lanes.
struct LaneArgs {
  const std::uint32_t *w, *wp, *iw, *iwp;  // NttTable's twiddles and Shoup companions
  std::uint32_t p, pneg;
  unsigned log_len;
  bool half_zero;     // rows [L/2, L) of U and H are zero and not read (a product's padding)
  bool h_prepared;    // H already holds its forward transform (lanes_forward)
  std::size_t n_out;  // rows wanted from U afterwards (≤ L/2: the last stage stores the lower half)
  static LaneArgs of(const NttTable& t, bool half_zero, bool h_prepared, std::size_t n_out) {
    return {t.w.data(), t.wpre.data(), t.iw.data(), t.iwpre.data(), t.p, t.pneg, t.log_len, half_zero, h_prepared, n_out};
  }
};

// Per-lane statistics of the rows a fill read: min, max and Σ|x| (exact while Σ|x| < 2^64; the
// caller trusts it only after checking max |x| < p < 2^30, with at most 2^21 rows). Lanes
// [0, W) are updated; start from of_empty().
struct LaneStats {
  std::int64_t mn[16], mx[16];
  std::uint64_t l1[16];
  static LaneStats of_empty() {
    LaneStats s;
    for (int l = 0; l < 16; ++l) s.mn[l] = INT64_MAX, s.mx[l] = INT64_MIN, s.l1[l] = 0;
    return s;
  }
};

// The kernels of one instruction set. U, H: L rows of W lanes (uint32, any alignment).
struct Kernels {
  unsigned W;
  // U ← rows [0, n_out) of h*u mod p in [0, p) (H: filter residues times L^{-1}·2^32, see
  // NttTable::filt_scale, or their transform when h_prepared); H is overwritten unless prepared.
  void (*conv)(std::uint32_t* U, std::uint32_t* H, const LaneArgs& a);
  void (*forward)(std::uint32_t* H, const LaneArgs& a);  // H ← its transform (values in [0, 2p))
  // dst rows [0, n) ← residues of src rows (reversed when rev; src row stride ld int64, lanes
  // [0, cnt), |entries| < p), times scale[0] (Shoup companion scale[1]) when scale is given; rows
  // [n, pad_to) ← 0. stats (optional): the statistics of the entries read, in the same pass.
  void (*fill)(std::uint32_t* dst, const std::int64_t* src, std::size_t n, std::size_t ld, unsigned cnt, bool rev,
               std::uint32_t p, std::size_t pad_to, const std::uint32_t* scale, LaneStats* stats);
  // dst rows [0, n) (stride ld), lanes [0, cnt) ← the signed values of residue rows in [0, p)
  // (reversed when rev): x > (p−1)/2 ↦ x − p.
  void (*emit)(std::int64_t* dst, const std::uint32_t* src, std::size_t n, std::size_t ld, unsigned cnt, bool rev,
               std::uint32_t p);
  void (*fold)(std::uint32_t* U, std::size_t n, std::uint32_t p);  // rows i < n ← row i + row i + n (mod p)
};

// AVX-512 (W = 16) is what the convolution uses; the plain C++ set (W = 8) runs the same
// recursion on any CPU, for tests. (AVX2 lanes, W = 8 with a radix-4 pass, measured 1.75x
// slower than the per-channel AVX2 kernels, so AVX2 keeps those.)
const Kernels& kernels_scalar();
const Kernels& kernels_avx512();  // only on a CPU with AVX-512 F, BW, DQ, VL (ntt_isa() == Avx512)

}  // namespace cz::ntt_lanes
