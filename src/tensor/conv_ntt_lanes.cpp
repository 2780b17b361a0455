// The lane-batched NTT convolution of int64 inputs (conv_ntt_lanes.h): per batch of W channels
// and per CRT prime, the input rows go into an L×W residue array in one contiguous pass, the
// fused recursion (ntt_lanes_impl.h) transforms, multiplies and inverts it, and the rows come
// back out in order. Same plan, same certified bound and the same CRT lift as the per-channel
// path in conv_ntt.cpp: only the order of the work differs.
#include "tensor/conv_ntt_lanes.h"

#include <algorithm>
#include <cstdlib>
#include <new>

#include "exact/rings.h"
#include "tensor/ntt_bound.h"
#include "tensor/ntt_lanes.h"

namespace cz::ntt_detail {
namespace {

// The kernels the convolution runs: AVX-512, or the plain set where a test forces lanes on
// another ISA (detail::LanePolicy::Always).
const ntt_lanes::Kernels& lane_kernels() {
  return ntt_isa() == NttIsa::Avx512 ? ntt_lanes::kernels_avx512() : ntt_lanes::kernels_scalar();
}
// Whether the lane path may run at all (see detail::LanePolicy).
bool lanes_allowed() {
  switch (detail::ntt_lane_policy()) {
    case detail::LanePolicy::Always: return true;
    case detail::LanePolicy::Never: return false;
    default: return ntt_isa() == NttIsa::Avx512;
  }
}

using ntt_lanes::Kernels;
using ntt_lanes::LaneArgs;

// Per-thread buffers kept between calls (fresh multi-MB buffers cost page faults every call);
// above kKeep words (64 MiB) they are released when the call ends.
class LaneScratch {
 public:
  static constexpr std::size_t kKeep = std::size_t{1} << 24;
  std::uint32_t* get(std::size_t words) {
    if (words > cap_) {
      void* p = std::aligned_alloc(64, (words * sizeof(std::uint32_t) + 63) / 64 * 64);  // rows on cache lines
      if (!p) throw std::bad_alloc();
      p_.reset(static_cast<std::uint32_t*>(p));
      cap_ = words;
    }
    return p_.get();
  }
  void trim() {
    if (cap_ > kKeep) p_.reset(), cap_ = 0;
  }

 private:
  struct Free {
    void operator()(std::uint32_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint32_t[], Free> p_;
  std::size_t cap_ = 0;
};
thread_local LaneScratch tl_lane[kNttMaxPrimes + 1];  // one per prime's residues, the last for a filter
struct TrimOnExit {
  ~TrimOnExit() {
    for (auto& s : tl_lane) s.trim();
  }
};

// The shape of one prime's work: transform length, padding, what the inverse must deliver.
struct Shape {
  std::size_t n, d, L, pad_to, n_out;
  bool half, rev, fold;
  explicit Shape(const NttConvPlan& pl)
      : n(pl.n), d(pl.d), L(std::size_t{1} << pl.log_len), pad_to(0), n_out(0), half(false),
        rev(pl.mode == ConvMode::Anticausal), fold(pl.mode == ConvMode::Cyclic && L != n) {
    half = 2 * n <= L;  // rows [n, L) are zero; with n ≤ L/2 the transform skips the upper half
    pad_to = half ? L / 2 : L;
    n_out = fold ? 2 * n : n;  // the fold reads rows [n, 2n): L ≥ 2n − 1 is even, so ≥ 2n
  }
};

// Residues of columns [j0, j0 + cnt) of x (rows reversed when rev) into dst (L×W), times the
// filter scale when `scale`; the vector kernel when every |entry| < p, else entry by entry.
void fill(const Kernels& K, std::uint32_t* dst, const Matrix<std::int64_t>& x, std::size_t j0, unsigned cnt,
          const Shape& s, bool rev, std::uint64_t maxabs, const NttTable& tab, bool scale) {
  const std::uint32_t sc[2] = {tab.filt_scale, tab.filt_scale_pre};
  if (maxabs < tab.p)
    return K.fill(dst, x.data().data() + j0, s.n, s.d, cnt, rev, tab.p, s.pad_to, scale ? sc : nullptr, nullptr);
  const std::int64_t p = tab.p;
  for (std::size_t i = 0; i < s.n; ++i) {
    const std::int64_t* r = x.row(rev ? s.n - 1 - i : i) + j0;
    for (unsigned l = 0; l < K.W; ++l) {
      std::uint32_t v = 0;
      if (l < cnt) {
        const std::int64_t m = r[l] % p;
        v = static_cast<std::uint32_t>(m < 0 ? m + p : m);
        if (scale) v = ntt::mul_shoup(v, sc[0], sc[1], tab.p);
      }
      dst[i * K.W + l] = v;
    }
  }
  std::fill(dst + s.n * K.W, dst + s.pad_to * K.W, 0u);
}

// Test-only mutant 2 (ntt.h): the forward transforms use ω_L^1 of the first stage times 2, as
// the per-channel ntt_forward does under the same switch.
struct Twiddles {
  std::vector<std::uint32_t> w, wp;
  void apply(LaneArgs& a, const NttTable& t) {
    if (detail::ntt_mutant() != 2 || t.log_len < 2) return;
    w = t.w, wp = t.wpre;
    const std::size_t i = (std::size_t{1} << (t.log_len - 1)) + 1;
    w[i] = ntt::mulmod(w[i], 2, t.p);
    wp[i] = ntt::shoup_pre(w[i], t.p);
    a.w = w.data(), a.wp = wp.data();
  }
};

// One batch's output residues per prime (rows in transform order, W lanes, values in [0, p)).
struct Batch {
  std::size_t j0 = 0;
  unsigned cnt = 0, k = 0;
  const std::uint32_t* r[kNttMaxPrimes] = {};
};

// prefilled: batch 0's residues for prime 0 are already in place (fused_fill).
template <class Emit>
void run(const NttConvPlan& pl, const Matrix<std::int64_t>& u, std::uint64_t umax, const LaneFilter& f, Emit&& emit,
         bool prefilled = false) {
  TrimOnExit trim;
  const Kernels& K = lane_kernels();
  const Shape s(pl);
  const std::size_t W = K.W;
  for (std::size_t b = 0; b * W < s.d; ++b) {
    Batch bt;
    bt.j0 = b * W;
    bt.cnt = static_cast<unsigned>(std::min(W, s.d - bt.j0));
    for (unsigned l = 0; l < bt.cnt; ++l) bt.k = std::max(bt.k, pl.primes[bt.j0 + l]);
    for (unsigned t = 0; t < bt.k; ++t) {
      const NttTable& tab = ntt_table(ntt_primes()[t], pl.log_len);
      LaneArgs a = LaneArgs::of(tab, s.half, f.prepared != nullptr, s.n_out);
      Twiddles mut;
      mut.apply(a, tab);
      const bool done = prefilled && b == 0 && t == 0;
      std::uint32_t* U = tl_lane[t].get(s.L * W);
      if (!done) fill(K, U, u, bt.j0, bt.cnt, s, s.rev, umax, tab, false);
      std::uint32_t* H;
      if (f.prepared) {
        H = const_cast<std::uint32_t*>(f.prepared->get(t, tab, K.W, b));  // h_prepared: read only
      } else {
        H = tl_lane[kNttMaxPrimes].get(s.L * W);
        if (!done) fill(K, H, *f.h, bt.j0, bt.cnt, s, false, f.hmax, tab, true);
      }
      K.conv(U, H, a);
      if (s.fold) K.fold(U, s.n, tab.p);
      bt.r[t] = U;
    }
    emit(bt, K);
  }
}

// The residue of output row `row`, lane l, prime t.
inline std::uint32_t at(const Batch& bt, const Shape& s, std::size_t W, unsigned t, std::size_t row, unsigned l) {
  return bt.r[t][(s.rev ? s.n - 1 - row : row) * W + l];
}

// One-shot, d ≤ W: the certified bound's statistics (max |u_j|, max |h_j|, Σ|h_j|) are taken
// in the fill of prime 0, so u and h are read once instead of three times (at N = 2^16 they
// come from memory each time: 16 MiB a pass). The fill assumes every |entry| < p_0; when the
// statistics show otherwise its residues are wrong and the caller takes the general route.
// Returns whether it applied; then *pl is the plan (pl->ntt false: beyond the NTT) and, when
// pl->ntt, run(..., prefilled = true) finishes the job.
bool fused_fill(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u, ConvMode mode, NttConvPlan* pl,
                std::uint64_t* umax, std::uint64_t* hmax) {
  const Kernels& K = lane_kernels();
  const std::size_t n = u.rows(), d = u.cols();
  const unsigned lg = ntt_log_len(n, mode);
  if (!lanes_allowed() || n == 0 || d > K.W || 2 * d < K.W || lg > kNttMaxLog) return false;
  NttConvPlan shape;
  shape.n = n, shape.d = d, shape.mode = mode, shape.log_len = lg;
  const Shape s(shape);
  const NttTable& tab = ntt_table(ntt_primes()[0], lg);
  const std::uint32_t sc[2] = {tab.filt_scale, tab.filt_scale_pre};
  ntt_lanes::LaneStats su = ntt_lanes::LaneStats::of_empty(), sh = ntt_lanes::LaneStats::of_empty();
  K.fill(tl_lane[0].get(s.L * K.W), u.data().data(), n, d, static_cast<unsigned>(d), s.rev, tab.p, s.pad_to, nullptr,
         &su);
  K.fill(tl_lane[kNttMaxPrimes].get(s.L * K.W), h.data().data(), n, d, static_cast<unsigned>(d), false, tab.p,
         s.pad_to, sc, &sh);
  std::vector<std::uint64_t> maxu(d);
  std::vector<u128> l1(d);
  *umax = *hmax = 0;
  for (std::size_t j = 0; j < d; ++j) {
    maxu[j] = std::max(uabs(su.mn[j]), uabs(su.mx[j]));
    *umax = std::max(*umax, maxu[j]);
    *hmax = std::max({*hmax, uabs(sh.mn[j]), uabs(sh.mx[j])});
    l1[j] = sh.l1[j];
  }
  if (*umax >= tab.p || *hmax >= tab.p) return false;
  *pl = finish_plan(n, d, mode, bounds_of(maxu, l1));
  return true;
}

}  // namespace

bool lanes_take(const NttConvPlan& pl) {
  // AVX-512 only (see ntt_lanes.h), or forced by a test. Fewer than W/2 channels would leave most
  // lanes idle: the per-channel kernels do less work.
  if (!lanes_allowed()) return false;
  return 2 * pl.d >= lane_kernels().W && pl.n > 0;
}

Matrix<std::int64_t> lanes_conv_i64(const NttConvPlan& pl, const Matrix<std::int64_t>& u, std::uint64_t umax,
                                    const LaneFilter& f, bool prefilled) {
  const Shape s(pl);
  std::vector<std::int64_t> y;
  const Crt& C = crt();
  run(pl, u, umax, f, [&](const Batch& bt, const Kernels& K) {
    const std::uint32_t p = ntt_primes()[0];
    if (bt.j0 == 0 && bt.cnt == s.d && bt.k <= 1) {
      // One batch, one prime (the hot case): rows appended in order through an L1 block, so the
      // n×d output is written once (a zero-filled vector would cost a pass of its own, 2.7% at
      // N = 2^16, measured).
      y.reserve(s.n * s.d);
      if (bt.k == 0) return y.assign(s.n * s.d, 0);
      constexpr std::size_t kBlockWords = 1024;
      std::int64_t tmp[kBlockWords];
      const std::size_t rb = std::max<std::size_t>(1, kBlockWords / s.d);
      for (std::size_t r0 = 0; r0 < s.n; r0 += rb) {
        const std::size_t nb = std::min(rb, s.n - r0);
        const std::uint32_t* src = bt.r[0] + (s.rev ? s.n - nb - r0 : r0) * K.W;
        K.emit(tmp, src, nb, s.d, bt.cnt, s.rev, p);  // a channel with B_j = 0 has residues 0: output 0
        y.insert(y.end(), tmp, tmp + nb * s.d);
      }
      return;
    }
    if (y.empty()) y.assign(s.n * s.d, 0);
    for (std::size_t row = 0; row < s.n; ++row)
      for (unsigned l = 0; l < bt.cnt; ++l) {
        const unsigned k = pl.primes[bt.j0 + l];
        std::int64_t& out = y[row * s.d + bt.j0 + l];
        if (!k) continue;
        std::uint32_t r[kNttMaxPrimes], v[kNttMaxPrimes];
        for (unsigned t = 0; t < k; ++t) r[t] = at(bt, s, K.W, t, row, l);
        C.digits(r, k, v);
        if (k <= 4) {
          const i128 x = C.lift128(v, k);
          if (x > INT64_MAX || x < INT64_MIN) throw Overflow();
          out = static_cast<std::int64_t>(x);
        } else {
          const Int x = C.lift_int(v, k);
          if (!x.fits_int64()) throw Overflow();
          out = x.to_int64();
        }
      }
  }, prefilled);
  return Matrix<std::int64_t>(s.n, s.d, std::move(y));
}

Matrix<Int> lanes_conv_int(const NttConvPlan& pl, const Matrix<std::int64_t>& u, std::uint64_t umax,
                           const LaneFilter& f, bool prefilled) {
  const Shape s(pl);
  Matrix<Int> y(s.n, s.d);
  const Crt& C = crt();
  run(pl, u, umax, f, [&](const Batch& bt, const Kernels& K) {
    const std::int64_t p = ntt_primes()[0], half = (p - 1) / 2;
    for (std::size_t row = 0; row < s.n; ++row) {
      Int* out = y.row(row) + bt.j0;
      for (unsigned l = 0; l < bt.cnt; ++l) {
        const unsigned k = pl.primes[bt.j0 + l];
        if (!k) continue;
        if (k == 1) {
          const std::int64_t x = at(bt, s, K.W, 0, row, l);
          out[l] = Int(x > half ? x - p : x);
          continue;
        }
        std::uint32_t r[kNttMaxPrimes], v[kNttMaxPrimes];
        for (unsigned t = 0; t < k; ++t) r[t] = at(bt, s, K.W, t, row, l);
        C.digits(r, k, v);
        out[l] = C.lift_int(v, k);
      }
    }
  }, prefilled);
  return y;
}

template <class Out, class Conv>
std::optional<std::optional<Out>> fused_route(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u, ConvMode mode,
                                              NttConvPlan* plan_out, Conv&& conv) {
  NttConvPlan pl;
  std::uint64_t umax, hmax;
  TrimOnExit trim;  // the fill's buffers are trimmed by run() too; this covers the early returns
  if (!fused_fill(h, u, mode, &pl, &umax, &hmax)) return std::nullopt;
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::optional<Out>{};
  return std::optional<Out>{conv(pl, umax, LaneFilter{&h, hmax, nullptr})};
}

std::optional<std::optional<Matrix<std::int64_t>>> lanes_oneshot_i64(const Matrix<std::int64_t>& h,
                                                                     const Matrix<std::int64_t>& u, ConvMode mode,
                                                                     NttConvPlan* plan_out) {
  return fused_route<Matrix<std::int64_t>>(h, u, mode, plan_out, [&](const NttConvPlan& pl, std::uint64_t umax, const LaneFilter& f) {
    return lanes_conv_i64(pl, u, umax, f, true);
  });
}
std::optional<std::optional<Matrix<Int>>> lanes_oneshot_int(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u,
                                                            ConvMode mode, NttConvPlan* plan_out) {
  return fused_route<Matrix<Int>>(h, u, mode, plan_out, [&](const NttConvPlan& pl, std::uint64_t umax, const LaneFilter& f) {
    return lanes_conv_int(pl, u, umax, f, true);
  });
}

// ---- LanePrepared -----------------------------------------------------------------------------

struct LanePrepared::Impl {
  const Matrix<std::int64_t>& h;
  std::uint64_t hmax;
  ConvMode mode;
  // Index 0: W = 8 (AVX2, scalar), 1: W = 16 (AVX-512).
  std::array<std::array<std::once_flag, kNttMaxPrimes>, 2> once;
  std::array<std::array<std::vector<std::uint32_t>, kNttMaxPrimes>, 2> H;  // batches × L × W
};

LanePrepared::LanePrepared(const Matrix<std::int64_t>& h, std::uint64_t hmax, ConvMode mode)
    : impl_(new Impl{h, hmax, mode, {}, {}}) {}
LanePrepared::~LanePrepared() = default;

const std::uint32_t* LanePrepared::get(unsigned t, const NttTable& tab, unsigned W, std::size_t batch) const {
  const Kernels& K = lane_kernels();
  if (K.W != W) throw std::logic_error("LanePrepared: lane width changed during a call");
  const int wi = W == 16 ? 1 : 0;
  Impl& m = *impl_;
  NttConvPlan pl;  // only the shape matters here
  pl.n = m.h.rows();
  pl.d = m.h.cols();
  pl.mode = m.mode;
  pl.log_len = tab.log_len;
  const Shape s(pl);
  std::call_once(m.once[wi][t], [&] {
    const std::size_t batches = (s.d + W - 1) / W;
    std::vector<std::uint32_t> all(batches * s.L * W);
    for (std::size_t b = 0; b < batches; ++b) {
      std::uint32_t* H = all.data() + b * s.L * W;
      fill(K, H, m.h, b * W, static_cast<unsigned>(std::min<std::size_t>(W, s.d - b * W)), s, false, m.hmax, tab, true);
      LaneArgs a = LaneArgs::of(tab, s.half, false, s.n_out);
      Twiddles mut;
      mut.apply(a, tab);
      K.forward(H, a);
    }
    m.H[wi][t] = std::move(all);
  });
  return m.H[wi][t].data() + batch * s.L * W;
}

}  // namespace cz::ntt_detail
