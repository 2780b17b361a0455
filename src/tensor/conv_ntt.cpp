// Exact convolution over Z / int64 / Fp by k NTT primes and a CRT lift (see ntt.h for the bound
// and the rule for k). Layout: for one prime, all d channels sit in one d×L buffer (channel j at
// [j·L, (j+1)·L)), filled row by row from the row-major N×d input (contiguous reads, no per-entry
// bignum conversion), transformed channel by channel (each L-array stays in cache), and read back
// row by row when lifting.
#include <algorithm>
#include <array>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "exact/rings.h"
#include "tensor/conv_ntt_fp64.h"
#include "tensor/conv_ntt_lanes.h"
#include "tensor/ntt.h"
#include "tensor/ntt_bound.h"

namespace cz {
namespace {

using namespace ntt_detail;

// ---- residues in, transforms, residues out ----------------------------------------------------

// Channel j of a d×L buffer starts at j·stride(L). The 64-byte pad keeps the d channel streams
// of the row-wise fill and lift off one cache set (a power-of-two stride made them alias in L1:
// fill was 30% of the time at N = 2^12, measured).
constexpr std::size_t stride(std::size_t L) { return L + 16; }

// Per-thread scratch kept between calls: zeroing and first-touch page faults of fresh multi-MB
// buffers cost more than all the transforms at N = 2^12 (measured with perf: 2/3 of the time).
// Buffers above kKeep entries (64 MiB) are released after the call instead of kept.
class Scratch {
 public:
  static constexpr std::size_t kKeep = std::size_t{1} << 24;
  std::uint32_t* get(std::size_t n) {
    if (n > cap_) {
      p_.reset(new std::uint32_t[n]);  // default-initialised: every entry is written before it is read
      cap_ = n;
    }
    return p_.get();
  }
  void trim() {
    if (cap_ > kKeep) p_.reset(), cap_ = 0;
  }

 private:
  std::unique_ptr<std::uint32_t[]> p_;
  std::size_t cap_ = 0;
};
thread_local Scratch tl_scratch[kNttMaxPrimes + 1];  // one per prime's residues, the last for a filter

// The residues of the output for each prime t < k (d×L each, channel j at [j·L, j·L + n)).
struct Residues {
  std::uint32_t* r[kNttMaxPrimes] = {};
  const std::uint32_t* operator[](unsigned t) const { return r[t]; }
  ~Residues() {
    for (auto& s : tl_scratch) s.trim();
  }
};

// The zero padding of a channel of n entries in a transform of length L: when n ≤ L/2 only
// [n, L/2) is written and the forward transform takes the upper half as zero unread (half_zero),
// which saves filling and loading half of every buffer. Returns that half_zero flag.
bool pad(std::uint32_t* buf, std::size_t n, std::size_t d, std::size_t L) {
  const bool half = 2 * n <= L;
  for (std::size_t j = 0; j < d; ++j) std::fill(buf + j * stride(L) + n, buf + j * stride(L) + (half ? L / 2 : L), 0u);
  return half;
}

// Residue r ∈ [0, p) as the transform's input: times the filter scale (L^{-1}·2^32, see
// prepare_filter) when `scale` is given, fused here so that it costs no pass of its own.
struct Scale {
  const NttTable* t = nullptr;
  std::uint32_t operator()(std::uint32_t r) const { return t ? ntt::mul_shoup(r, t->filt_scale, t->filt_scale_pre, t->p) : r; }
};

// All d columns of an int64 matrix mod p into buf (d×L, padded, see pad), rows reversed when `rev`.
// Rows go in blocks of kRowBlock: per channel the block is one 64-byte line of residues written
// whole, while the block's input rows (kRowBlock·d int64) stay in L1 across the d channels.
constexpr std::size_t kRowBlock = 16;

bool fill_i64(const Matrix<std::int64_t>& x, bool rev, std::uint64_t maxabs, std::uint32_t p, std::uint32_t* buf,
              std::size_t L, Scale sc = {}) {
  const std::size_t n = x.rows(), d = x.cols();
  const std::int64_t sp = p;
  const std::int64_t* base = x.data().data();
  for (std::size_t i0 = 0; i0 < n; i0 += kRowBlock) {
    const std::size_t nb = std::min(kRowBlock, n - i0);
    for (std::size_t j = 0; j < d; ++j) {
      std::uint32_t* dst = buf + j * stride(L) + i0;
      const std::int64_t* src = base + j;
      auto at = [&](std::size_t ii) { return src[(rev ? n - 1 - (i0 + ii) : i0 + ii) * d]; };
      if (maxabs < p && !sc.t) {
        for (std::size_t ii = 0; ii < nb; ++ii) {
          const std::int64_t v = at(ii);
          dst[ii] = static_cast<std::uint32_t>(v < 0 ? v + sp : v);
        }
      } else if (maxabs < p) {  // no division: it would cost more than the transform (measured)
        for (std::size_t ii = 0; ii < nb; ++ii) {
          const std::int64_t v = at(ii);
          dst[ii] = sc(static_cast<std::uint32_t>(v < 0 ? v + sp : v));
        }
      } else {
        for (std::size_t ii = 0; ii < nb; ++ii) {
          const std::int64_t m = at(ii) % sp;
          dst[ii] = sc(static_cast<std::uint32_t>(m < 0 ? m + sp : m));
        }
      }
    }
  }
  return pad(buf, n, d, L);
}
bool fill_int(const Matrix<Int>& x, bool rev, std::uint32_t p, std::uint32_t* buf, std::size_t L, Scale sc = {}) {
  const std::size_t n = x.rows(), d = x.cols();
  for (std::size_t i = 0; i < n; ++i) {
    const Int* r = x.row(rev ? n - 1 - i : i);
    for (std::size_t j = 0; j < d; ++j) buf[j * stride(L) + i] = sc(static_cast<std::uint32_t>(r[j].mod_u64(p)));
  }
  return pad(buf, n, d, L);
}

// Filter residues already times L^{-1}·2^32 (filled with Scale{&t}) in buf, d×L → per channel
// the forward transform: the Montgomery pointwise product (factor 2^{-32}) and the unnormalised
// inverse (factor L) then give exactly h*u mod p.
void prepare_filter(std::uint32_t* buf, std::size_t d, const NttTable& t, const std::vector<unsigned>* need,
                    unsigned prime_index, bool half_zero) {
  const std::size_t L = std::size_t{1} << t.log_len;
  for (std::size_t j = 0; j < d; ++j) {
    if (need && (*need)[j] <= prime_index) continue;
    ntt_forward(buf + j * stride(L), t, half_zero);
  }
}

// One prime: transform every channel that needs it, multiply by the prepared filter, invert, and
// fold the cyclic wrap when the transform is the linear product.
// Only outputs [0, n) are read (and [n, 2n) for the fold), so the inverse may drop the rest.
// A filter given as residues (FilterBuf::raw: filled with Scale, not yet transformed) is
// transformed channel by channel right before its product, while it is still in L2; a whole d×L
// transformed filter (8 MiB at N = 2^16) would come back from L3 or memory instead.
struct FilterBuf {
  const std::uint32_t* prepared = nullptr;  // d×L transforms (NttFilter), or
  std::uint32_t* raw = nullptr;             // d×L scaled residues, transformed here in place
};
void convolve_prime(const NttConvPlan& pl, unsigned ti, const NttTable& t, std::uint32_t* ubuf, FilterBuf F,
                    bool half_zero) {
  const std::size_t L = std::size_t{1} << t.log_len, n = pl.n;
  const bool fold = pl.mode == ConvMode::Cyclic && L != n;
  for (std::size_t j = 0; j < pl.d; ++j) {
    if (pl.primes[j] <= ti) continue;
    std::uint32_t* a = ubuf + j * stride(L);
    const std::uint32_t* H = F.raw ? F.raw + j * stride(L) : F.prepared + j * stride(L);
    if (F.raw) ntt_forward(F.raw + j * stride(L), t, half_zero);
    ntt_forward(a, t, half_zero);
    ntt_pointwise(a, H, L, t.p);
    ntt_inverse(a, t, fold ? 2 * n : n);  // the fold reads a[n, 2n): L ≥ 2n − 1 is even, so ≥ 2n
    if (fold)
      for (std::size_t i = 0; i < n; ++i) a[i] = red_once(a[i] + a[i + n], t.p);
  }
}

// Residues per prime → outputs. emit(row, j, digits, k_j) receives Garner digits (k_j ≤ kNttMaxPrimes).
// Called in row-major order of the output (so emitters may append).
template <class Emit>
void lift(const NttConvPlan& pl, const Residues& res, Emit&& emit) {
  const std::size_t L = std::size_t{1} << pl.log_len, n = pl.n, d = pl.d;
  const bool rev = pl.mode == ConvMode::Anticausal;
  const Crt& C = crt();
  std::uint32_t r[kNttMaxPrimes], v[kNttMaxPrimes];
  for (std::size_t row = 0; row < n; ++row) {
    const std::size_t i = rev ? n - 1 - row : row;
    for (std::size_t j = 0; j < d; ++j) {
      const unsigned k = pl.primes[j];
      for (unsigned t = 0; t < k; ++t) r[t] = res[t][j * stride(L) + i];
      C.digits(r, k, v);
      emit(row, j, v, k);
    }
  }
}

// The whole Z pipeline for an int64 input; H(t) gives the prepared filter for prime t (d×L).
template <class GetH>
void run_i64(const NttConvPlan& pl, const Matrix<std::int64_t>& u, const std::vector<std::uint64_t>& maxu, GetH&& H,
             Residues& res) {
  const std::size_t L = std::size_t{1} << pl.log_len;
  const std::uint64_t mx = maxu.empty() ? 0 : *std::max_element(maxu.begin(), maxu.end());
  for (unsigned t = 0; t < pl.k; ++t) {
    const std::uint32_t p = ntt_primes()[t];
    const NttTable& tab = ntt_table(p, pl.log_len);
    res.r[t] = tl_scratch[t].get(pl.d * stride(L));
    const bool hz = fill_i64(u, pl.mode == ConvMode::Anticausal, mx, p, res.r[t], L);
    convolve_prime(pl, t, tab, res.r[t], H(t, tab), hz);
  }
}

Matrix<Int> emit_int(const NttConvPlan& pl, const Residues& res) {
  Matrix<Int> y(pl.n, pl.d);
  const Crt& C = crt();
  if (pl.k == 1) {  // hot case: one prime, value = signed residue
    const std::size_t L = std::size_t{1} << pl.log_len;
    const std::uint32_t p = ntt_primes()[0], half = (p - 1) / 2;
    const bool rev = pl.mode == ConvMode::Anticausal;
    for (std::size_t i = 0; i < pl.n; ++i) {
      Int* out = y.row(rev ? pl.n - 1 - i : i);
      for (std::size_t j = 0; j < pl.d; ++j) {
        if (!pl.primes[j]) continue;
        const std::int64_t x = res[0][j * stride(L) + i];
        out[j] = Int(x > half ? x - p : x);
      }
    }
    return y;
  }
  lift(pl, res, [&](std::size_t row, std::size_t j, const std::uint32_t* v, unsigned k) {
    if (k) y(row, j) = C.lift_int(v, k);
  });
  return y;
}

// The output is appended in row-major order into a reserved vector: a Matrix(n, d, 0) would first
// zero-fill n·d entries (8 MiB at N = 2^16, d = 16) that the lift overwrites anyway.
Matrix<std::int64_t> emit_i64(const NttConvPlan& pl, const Residues& res) {
  std::vector<std::int64_t> y;
  y.reserve(pl.n * pl.d);
  const Crt& C = crt();
  if (pl.k == 1) {  // blocks of kRowBlock output rows, transposed in L1, then appended whole
    const std::size_t L = std::size_t{1} << pl.log_len, n = pl.n, d = pl.d;
    const std::int64_t p = ntt_primes()[0], half = (p - 1) / 2;
    const bool rev = pl.mode == ConvMode::Anticausal;
    std::vector<std::int64_t> tmp(kRowBlock * d);
    for (std::size_t r0 = 0; r0 < n; r0 += kRowBlock) {
      const std::size_t nb = std::min(kRowBlock, n - r0);
      for (std::size_t j = 0; j < d; ++j) {
        const std::uint32_t* src = res[0] + j * stride(L);
        for (std::size_t rr = 0; rr < nb; ++rr) {
          const std::int64_t x = pl.primes[j] ? src[rev ? n - 1 - (r0 + rr) : r0 + rr] : 0;
          tmp[rr * d + j] = x > half ? x - p : x;
        }
      }
      y.insert(y.end(), tmp.begin(), tmp.begin() + static_cast<std::ptrdiff_t>(nb * d));
    }
    return Matrix<std::int64_t>(pl.n, pl.d, std::move(y));
  }
  lift(pl, res, [&](std::size_t, std::size_t, const std::uint32_t* v, unsigned k) {
    if (!k) {
      y.push_back(0);
    } else if (k <= 4) {
      const i128 x = C.lift128(v, k);
      if (x > INT64_MAX || x < INT64_MIN) throw Overflow();
      y.push_back(static_cast<std::int64_t>(x));
    } else {
      const Int x = C.lift_int(v, k);
      if (!x.fits_int64()) throw Overflow();
      y.push_back(x.to_int64());
    }
  });
  return Matrix<std::int64_t>(pl.n, pl.d, std::move(y));
}

// One-shot filter provider: prepares prime t's filter transform into a scratch buffer.
struct OneShotH {
  const Matrix<std::int64_t>& h;
  const NttConvPlan& pl;
  std::uint64_t hmax;
  FilterBuf operator()(unsigned, const NttTable& tab) {
    const std::size_t L = std::size_t{1} << pl.log_len;
    std::uint32_t* buf = tl_scratch[kNttMaxPrimes].get(pl.d * stride(L));
    fill_i64(h, false, hmax, tab.p, buf, L, Scale{&tab});
    return FilterBuf{nullptr, buf};
  }
};


}  // namespace

// ---- public -----------------------------------------------------------------------------------

std::optional<Matrix<std::int64_t>> conv_ntt_i64(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u,
                                                 ConvMode mode, NttConvPlan* plan_out) {
  check_shapes(h, u);
  if (auto y = lanes_oneshot_i64(h, u, mode, plan_out)) return std::move(*y);
  const std::vector<std::uint64_t> maxu = col_maxabs(u);
  const std::vector<u128> l1 = col_l1(h);
  NttConvPlan pl = finish_plan(u.rows(), u.cols(), mode, bounds_of(maxu, l1));
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  if (pl.n == 0) return Matrix<std::int64_t>(0, pl.d);
  if (lanes_take(pl)) return lanes_conv_i64(pl, u, max_of(maxu), LaneFilter{&h, max_of(col_maxabs(h)), nullptr});
  OneShotH H{h, pl, max_of(col_maxabs(h))};
  Residues res;
  run_i64(pl, u, maxu, H, res);
  return emit_i64(pl, res);
}

std::optional<Matrix<Int>> conv_ntt(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u, ConvMode mode,
                                    NttConvPlan* plan_out) {
  check_shapes(h, u);
  if (auto y = lanes_oneshot_int(h, u, mode, plan_out)) return std::move(*y);
  const std::vector<std::uint64_t> maxu = col_maxabs(u);
  NttConvPlan pl = finish_plan(u.rows(), u.cols(), mode, bounds_of(maxu, col_l1(h)));
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  if (pl.n == 0) return Matrix<Int>(0, pl.d);
  if (lanes_take(pl)) return lanes_conv_int(pl, u, max_of(maxu), LaneFilter{&h, max_of(col_maxabs(h)), nullptr});
  OneShotH H{h, pl, max_of(col_maxabs(h))};
  Residues res;
  run_i64(pl, u, maxu, H, res);
  return emit_int(pl, res);
}

std::optional<Matrix<Int>> conv_ntt(const Matrix<Int>& h, const Matrix<Int>& u, ConvMode mode, NttConvPlan* plan_out) {
  check_shapes(h, u);
  auto all_small = [](const Matrix<Int>& m) {
    for (const Int& x : m.data())
      if (!x.fits_int64()) return false;
    return true;
  };
  if (all_small(h) && all_small(u)) {
    auto narrow = [](const Matrix<Int>& m) { return map_matrix(m, [](const Int& x) { return x.to_int64(); }); };
    return conv_ntt(narrow(h), narrow(u), mode, plan_out);
  }
  // Entries beyond int64: residues through Int::mod_u64 (the bound needs ≥ 3 primes anyway).
  NttConvPlan pl = plan_conv_ntt(h, u, mode);
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  const std::size_t L = std::size_t{1} << pl.log_len;
  Residues res;
  std::uint32_t* hb = tl_scratch[kNttMaxPrimes].get(pl.d * stride(L));
  for (unsigned t = 0; t < pl.k; ++t) {
    const NttTable& tab = ntt_table(ntt_primes()[t], pl.log_len);
    fill_int(h, false, tab.p, hb, L, Scale{&tab});
    res.r[t] = tl_scratch[t].get(pl.d * stride(L));
    const bool hz = fill_int(u, pl.mode == ConvMode::Anticausal, tab.p, res.r[t], L);
    convolve_prime(pl, t, tab, res.r[t], FilterBuf{nullptr, hb}, hz);
  }
  return emit_int(pl, res);
}

std::optional<Matrix<std::uint64_t>> conv_ntt_fp(std::uint64_t p, const Matrix<std::uint64_t>& h,
                                                 const Matrix<std::uint64_t>& u, ConvMode mode, NttConvPlan* plan_out) {
  check_shapes(h, u);
  const std::size_t n = u.rows(), d = u.cols();
  const unsigned lg = ntt_log_len(n, mode);
  if (n == 0) return Matrix<std::uint64_t>(0, d);
  if (p >= (1u << 30) && ntt_fp_direct_bits(p, n, mode) == 64) return conv_ntt_fp64(p, h, u, mode, plan_out);
  if (lg <= kNttMaxLog && ntt_friendly(p, lg)) {
    // Directly in Fp: the model's own prime is an NTT prime for this length; no lift at all.
    NttConvPlan pl;
    pl.n = n;
    pl.d = d;
    pl.mode = mode;
    pl.log_len = lg;
    pl.primes.assign(d, 1);
    pl.k = 1;
    pl.ntt = true;
    pl.field = p;
    if (plan_out) *plan_out = pl;
    const std::size_t L = std::size_t{1} << lg;
    const NttTable& tab = ntt_table(static_cast<std::uint32_t>(p), lg);
    Residues keep;  // trims the scratch on return
    std::uint32_t *hb = tl_scratch[kNttMaxPrimes].get(d * stride(L)), *ub = tl_scratch[0].get(d * stride(L));
    auto fill = [&](const Matrix<std::uint64_t>& x, bool rev, std::uint32_t* buf, Scale sc) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t* r = x.row(rev ? n - 1 - i : i);
        for (std::size_t j = 0; j < d; ++j) buf[j * stride(L) + i] = sc(static_cast<std::uint32_t>(r[j] < p ? r[j] : r[j] % p));
      }
      return pad(buf, n, d, L);
    };
    fill(h, false, hb, Scale{&tab});
    const bool hz = fill(u, mode == ConvMode::Anticausal, ub, Scale{});
    convolve_prime(pl, 0, tab, ub, FilterBuf{nullptr, hb}, hz);
    Matrix<std::uint64_t> y(n, d);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < d; ++j) y(mode == ConvMode::Anticausal ? n - 1 - i : i, j) = ub[j * stride(L) + i];
    return y;
  }
  // Otherwise: the representatives in [0, p) are integers below 2^62; convolve over Z (bound
  // ≤ N·(p−1)^2 < 2^145: at most 5 primes) and reduce the exact lift mod p.
  auto widen = [](const Matrix<std::uint64_t>& m) {
    return map_matrix(m, [](std::uint64_t x) { return static_cast<std::int64_t>(x); });
  };
  const Matrix<std::int64_t> hi = widen(h), ui = widen(u);
  const std::vector<std::uint64_t> maxu = col_maxabs(ui);
  NttConvPlan pl = finish_plan(n, d, mode, bounds_of(maxu, col_l1(hi)));
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  OneShotH H{hi, pl, max_of(col_maxabs(hi))};
  Residues res;
  run_i64(pl, ui, maxu, H, res);
  // Inputs are ≥ 0, so the lift x = Σ v_i P_i (P_i = p_0···p_{i−1}) is the value itself.
  std::uint64_t Pmod[kNttMaxPrimes];
  {
    u128 acc = 1 % p;
    for (unsigned i = 0; i < kNttMaxPrimes; ++i) {
      Pmod[i] = static_cast<std::uint64_t>(acc);
      acc = acc * ntt_primes()[i] % p;
    }
  }
  Matrix<std::uint64_t> y(n, d, 0);
  lift(pl, res, [&](std::size_t row, std::size_t j, const std::uint32_t* v, unsigned k) {
    u128 s = 0;  // Σ v_i·Pmod_i < 12·2^30·2^62 < 2^96
    for (unsigned i = 0; i < k; ++i) s += static_cast<u128>(v[i]) * Pmod[i];
    y(row, j) = static_cast<std::uint64_t>(s % p);
  });
  return y;
}

// ---- NttFilter --------------------------------------------------------------------------------

struct NttFilter::Impl {
  Matrix<std::int64_t> h;
  std::vector<u128> l1;
  std::uint64_t hmax;
  unsigned log_len;
  std::array<std::once_flag, kNttMaxPrimes> once;
  std::array<std::vector<std::uint32_t>, kNttMaxPrimes> H;  // prime t: d×L, all channels
  std::unique_ptr<LanePrepared> lanes;                      // the same in the lane layout (conv_ntt_lanes.h)

  const std::uint32_t* get(unsigned t, const NttTable& tab) {
    std::call_once(once[t], [&] {
      const std::size_t L = std::size_t{1} << log_len;
      std::vector<std::uint32_t> b(h.cols() * stride(L));
      prepare_filter(b.data(), h.cols(), tab, nullptr, t, fill_i64(h, false, hmax, tab.p, b.data(), L, Scale{&tab}));
      H[t] = std::move(b);
    });
    return H[t].data();
  }
};

NttFilter::NttFilter(const Matrix<std::int64_t>& h, ConvMode mode)
    : n_(h.rows()), d_(h.cols()), mode_(mode), impl_(std::make_unique<Impl>()) {
  impl_->h = h;
  impl_->l1 = col_l1(h);
  impl_->hmax = max_of(col_maxabs(h));
  impl_->log_len = ntt_log_len(n_, mode);
  impl_->lanes = std::make_unique<LanePrepared>(impl_->h, impl_->hmax, mode);
}
NttFilter::~NttFilter() = default;

NttConvPlan NttFilter::plan(const Matrix<std::int64_t>& u) const {
  check_shapes(impl_->h, u);
  return finish_plan(n_, d_, mode_, bounds_of(col_maxabs(u), impl_->l1));
}

std::optional<Matrix<Int>> NttFilter::apply(const Matrix<std::int64_t>& u, NttConvPlan* plan_out) const {
  check_shapes(impl_->h, u);
  const std::vector<std::uint64_t> maxu = col_maxabs(u);
  NttConvPlan pl = finish_plan(n_, d_, mode_, bounds_of(maxu, impl_->l1));
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  if (pl.n == 0) return Matrix<Int>(0, d_);
  if (lanes_take(pl)) return lanes_conv_int(pl, u, max_of(maxu), LaneFilter{nullptr, 0, impl_->lanes.get()});
  Residues res;
  run_i64(pl, u, maxu, [&](unsigned t, const NttTable& tab) { return FilterBuf{impl_->get(t, tab), nullptr}; }, res);
  return emit_int(pl, res);
}

std::optional<Matrix<std::int64_t>> NttFilter::apply_i64(const Matrix<std::int64_t>& u, NttConvPlan* plan_out) const {
  check_shapes(impl_->h, u);
  const std::vector<std::uint64_t> maxu = col_maxabs(u);
  NttConvPlan pl = finish_plan(n_, d_, mode_, bounds_of(maxu, impl_->l1));
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  if (pl.n == 0) return Matrix<std::int64_t>(0, d_);
  if (lanes_take(pl)) return lanes_conv_i64(pl, u, max_of(maxu), LaneFilter{nullptr, 0, impl_->lanes.get()});
  Residues res;
  run_i64(pl, u, maxu, [&](unsigned t, const NttTable& tab) { return FilterBuf{impl_->get(t, tab), nullptr}; }, res);
  return emit_i64(pl, res);
}

std::vector<std::optional<Matrix<Int>>> NttFilter::apply_batch(const std::vector<Matrix<std::int64_t>>& us) const {
  std::vector<std::optional<Matrix<Int>>> out;
  out.reserve(us.size());
  for (const auto& u : us) out.push_back(apply(u));
  return out;
}

}  // namespace cz
