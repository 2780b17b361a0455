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
#include "tensor/ntt.h"

namespace cz {
namespace {

using u128 = unsigned __int128;
using i128 = __int128;
using ntt::red_once;

std::uint64_t uabs(std::int64_t x) { return x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x); }

Int int_from_u128(u128 x) {
  if (x <= static_cast<u128>(INT64_MAX)) return Int(static_cast<std::int64_t>(x));
  Int r(0);
  const Int base(std::int64_t{1} << 32);
  for (int s = 96; s >= 0; s -= 32) {
    r *= base;
    r += Int(static_cast<std::int64_t>((x >> s) & 0xffffffffu));
  }
  return r;
}
Int int_from_i128(i128 x) { return x < 0 ? -int_from_u128(0 - static_cast<u128>(x)) : int_from_u128(static_cast<u128>(x)); }

// CRT data for the Z primes: Garner constants c[j][i] = p_j^{-1} mod p_i (j < i) with Shoup
// companions, and the products M_k = p_0···p_{k−1} (exact, and as u128 for k ≤ 4: M_4 < 2^120).
struct Crt {
  const std::uint32_t* p;
  std::uint32_t c[kNttMaxPrimes][kNttMaxPrimes], cpre[kNttMaxPrimes][kNttMaxPrimes];
  std::vector<Int> M;            // M[k], k = 0..kNttMaxPrimes
  std::vector<Int> half;         // (M[k] − 1)/2: the largest |y| a k-prime lift represents
  u128 M128[5], half128[5];
  Crt() : p(ntt_primes()) {
    for (unsigned i = 0; i < kNttMaxPrimes; ++i)
      for (unsigned j = 0; j < i; ++j) {
        c[j][i] = ntt::powmod(p[j] % p[i], p[i] - 2, p[i]);
        cpre[j][i] = ntt::shoup_pre(c[j][i], p[i]);
      }
    M.push_back(Int(1));
    for (unsigned k = 0; k < kNttMaxPrimes; ++k) M.push_back(M.back() * Int(static_cast<std::int64_t>(p[k])));
    for (const Int& m : M) half.push_back(Int::divexact(m - Int(1), Int(2)));
    M128[0] = 1;
    for (unsigned k = 1; k <= 4; ++k) M128[k] = M128[k - 1] * p[k - 1];
    for (unsigned k = 0; k <= 4; ++k) half128[k] = (M128[k] - 1) / 2;
  }
  // Mixed-radix digits v (x = v_0 + v_1 p_0 + v_2 p_0 p_1 + ...) of the residues r, k primes.
  void digits(const std::uint32_t* r, unsigned k, std::uint32_t* v) const {
    for (unsigned i = 0; i < k; ++i) {
      std::uint32_t x = r[i];
      for (unsigned j = 0; j < i; ++j) {
        x = x + p[i] - red_once(v[j], p[i]);  // v_j < 2^30 < 2 p_i (prime table checks p_i > 2^29)
        x = red_once(ntt::mul_shoup(x, c[j][i], cpre[j][i], p[i]), p[i]);
      }
      v[i] = x;
    }
  }
  // The lift y ∈ [−(M−1)/2, (M−1)/2] of the digits, k ≤ 4.
  i128 lift128(const std::uint32_t* v, unsigned k) const {
    u128 x = 0;
    for (unsigned i = k; i-- > 0;) x = x * p[i] + v[i];
    return x > half128[k] ? static_cast<i128>(x) - static_cast<i128>(M128[k]) : static_cast<i128>(x);
  }
  Int lift_int(const std::uint32_t* v, unsigned k) const {
    if (k <= 4) return int_from_i128(lift128(v, k));
    Int x(0);
    for (unsigned i = k; i-- > 0;) {
      x *= Int(static_cast<std::int64_t>(p[i]));
      x += Int(static_cast<std::int64_t>(v[i]));
    }
    if (x > half[k]) x -= M[k];
    return x;
  }
};
const Crt& crt() {
  static const Crt c;
  return c;
}

// ---- the plan ---------------------------------------------------------------------------------

NttConvPlan finish_plan(std::size_t n, std::size_t d, ConvMode mode, std::vector<Int> bound) {
  NttConvPlan pl;
  pl.n = n;
  pl.d = d;
  pl.mode = mode;
  pl.log_len = ntt_log_len(n, mode);
  pl.bound = std::move(bound);
  pl.primes.assign(d, 0);
  pl.ntt = pl.log_len <= kNttMaxLog;
  const Crt& C = crt();
  for (std::size_t j = 0; j < d; ++j) {
    const Int& B = pl.bound[j];
    pl.bound_bits = std::max(pl.bound_bits, B.bits());
    if (B.is_zero()) continue;
    unsigned k = 1;
    while (k <= kNttMaxPrimes && B > C.half[k]) ++k;  // least k with B ≤ (M_k − 1)/2, i.e. 2B < M_k
    if (k > kNttMaxPrimes) {
      pl.ntt = false;
      k = kNttMaxPrimes + 1;
    }
    if (k >= 2 && k <= kNttMaxPrimes && detail::ntt_mutant() == 1) --k;  // mutant: a dropped prime
    pl.primes[j] = k;
    pl.k = std::max(pl.k, k);
  }
  return pl;
}

struct Cols {
  std::vector<std::uint64_t> maxu;  // per channel max |u|
  std::vector<u128> l1;             // per channel Σ|h| (< 2^21 · 2^64 fits)
};

std::vector<Int> bounds_of(const std::vector<std::uint64_t>& maxu, const std::vector<u128>& l1) {
  std::vector<Int> b(maxu.size());
  for (std::size_t j = 0; j < maxu.size(); ++j) b[j] = int_from_u128(maxu[j]) * int_from_u128(l1[j]);
  return b;
}
// Per-channel signed min and max (vectorisable; max |x| = max(|min|, |max|)).
__attribute__((target_clones("avx2", "default"))) void col_minmax(const std::int64_t* __restrict x, std::size_t n,
                                                                  std::size_t d, std::int64_t* __restrict lo,
                                                                  std::int64_t* __restrict hi) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      const std::int64_t v = x[i * d + j];
      lo[j] = v < lo[j] ? v : lo[j];
      hi[j] = v > hi[j] ? v : hi[j];
    }
}
std::vector<std::uint64_t> col_maxabs(const Matrix<std::int64_t>& u) {
  const std::size_t d = u.cols();
  std::vector<std::int64_t> lo(d, 0), hi(d, 0);
  col_minmax(u.data().data(), u.rows(), d, lo.data(), hi.data());
  std::vector<std::uint64_t> m(d);
  for (std::size_t j = 0; j < d; ++j) m[j] = std::max(uabs(lo[j]), uabs(hi[j]));
  return m;
}
std::vector<u128> col_l1(const Matrix<std::int64_t>& h) {
  std::vector<u128> s(h.cols(), 0);
  for (std::size_t i = 0; i < h.rows(); ++i) {
    const std::int64_t* r = h.row(i);
    for (std::size_t j = 0; j < h.cols(); ++j) s[j] += uabs(r[j]);
  }
  return s;
}

template <class A, class B>
void check_shapes(const Matrix<A>& h, const Matrix<B>& u) {
  if (h.rows() != u.rows() || h.cols() != u.cols()) throw std::invalid_argument("conv: filter and input shapes differ");
}

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

// All d columns of an int64 matrix mod p into buf (d×L, zero padded), rows reversed when `rev`.
void fill_i64(const Matrix<std::int64_t>& x, bool rev, std::uint64_t maxabs, std::uint32_t p, std::uint32_t* buf,
              std::size_t L) {
  const std::size_t n = x.rows(), d = x.cols();
  const std::int64_t sp = p;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t* r = x.row(rev ? n - 1 - i : i);
    if (maxabs < p) {
      for (std::size_t j = 0; j < d; ++j) buf[j * stride(L) + i] = static_cast<std::uint32_t>(r[j] < 0 ? r[j] + sp : r[j]);
    } else {
      for (std::size_t j = 0; j < d; ++j) {
        const std::int64_t m = r[j] % sp;
        buf[j * stride(L) + i] = static_cast<std::uint32_t>(m < 0 ? m + sp : m);
      }
    }
  }
  for (std::size_t j = 0; j < d; ++j) std::fill(buf + j * stride(L) + n, buf + j * stride(L) + L, 0u);
}
void fill_int(const Matrix<Int>& x, bool rev, std::uint32_t p, std::uint32_t* buf, std::size_t L) {
  const std::size_t n = x.rows(), d = x.cols();
  for (std::size_t i = 0; i < n; ++i) {
    const Int* r = x.row(rev ? n - 1 - i : i);
    for (std::size_t j = 0; j < d; ++j) buf[j * stride(L) + i] = static_cast<std::uint32_t>(r[j].mod_u64(p));
  }
  for (std::size_t j = 0; j < d; ++j) std::fill(buf + j * stride(L) + n, buf + j * stride(L) + L, 0u);
}

// Filter residues (in buf, d×L) → per channel: forward transform times L^{-1}·2^32 (so that the
// Montgomery pointwise product and the unnormalised inverse give exactly h*u mod p).
void prepare_filter(std::uint32_t* buf, std::size_t d, const NttTable& t, const std::vector<unsigned>* need,
                    unsigned prime_index) {
  const std::size_t L = std::size_t{1} << t.log_len;
  for (std::size_t j = 0; j < d; ++j) {
    if (need && (*need)[j] <= prime_index) continue;
    std::uint32_t* a = buf + j * stride(L);
    ntt_forward(a, t);
    ntt_mul_const(a, L, t.filt_scale, t.filt_scale_pre, t.p);
  }
}

// One prime: transform every channel that needs it, multiply by the prepared filter, invert, and
// fold the cyclic wrap when the transform is the linear product.
void convolve_prime(const NttConvPlan& pl, unsigned ti, const NttTable& t, std::uint32_t* ubuf, const std::uint32_t* H) {
  const std::size_t L = std::size_t{1} << t.log_len, n = pl.n;
  const bool fold = pl.mode == ConvMode::Cyclic && L != n;
  for (std::size_t j = 0; j < pl.d; ++j) {
    if (pl.primes[j] <= ti) continue;
    std::uint32_t* a = ubuf + j * stride(L);
    ntt_forward(a, t);
    ntt_pointwise(a, H + j * stride(L), L, t.p);
    ntt_inverse(a, t);
    if (fold)
      for (std::size_t i = 0; i < n; ++i) a[i] = red_once(a[i] + a[i + n], t.p);
  }
}

// Residues per prime → outputs. emit(row, j, digits, k_j) receives Garner digits (k_j ≤ kNttMaxPrimes).
template <class Emit>
void lift(const NttConvPlan& pl, const Residues& res, Emit&& emit) {
  const std::size_t L = std::size_t{1} << pl.log_len, n = pl.n, d = pl.d;
  const bool rev = pl.mode == ConvMode::Anticausal;
  const Crt& C = crt();
  std::uint32_t r[kNttMaxPrimes], v[kNttMaxPrimes];
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t row = rev ? n - 1 - i : i;
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
    fill_i64(u, pl.mode == ConvMode::Anticausal, mx, p, res.r[t], L);
    convolve_prime(pl, t, tab, res.r[t], H(t, tab));
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

Matrix<std::int64_t> emit_i64(const NttConvPlan& pl, const Residues& res) {
  Matrix<std::int64_t> y(pl.n, pl.d, 0);
  const Crt& C = crt();
  if (pl.k == 1) {
    const std::size_t L = std::size_t{1} << pl.log_len;
    const std::uint32_t p = ntt_primes()[0], half = (p - 1) / 2;
    const bool rev = pl.mode == ConvMode::Anticausal;
    for (std::size_t i = 0; i < pl.n; ++i) {
      std::int64_t* out = y.row(rev ? pl.n - 1 - i : i);
      for (std::size_t j = 0; j < pl.d; ++j) {
        const std::int64_t x = pl.primes[j] ? res[0][j * stride(L) + i] : 0;
        out[j] = x > half ? x - p : x;
      }
    }
    return y;
  }
  lift(pl, res, [&](std::size_t row, std::size_t j, const std::uint32_t* v, unsigned k) {
    if (!k) return;
    if (k <= 4) {
      const i128 x = C.lift128(v, k);
      if (x > INT64_MAX || x < INT64_MIN) throw Overflow();
      y(row, j) = static_cast<std::int64_t>(x);
    } else {
      const Int x = C.lift_int(v, k);
      if (!x.fits_int64()) throw Overflow();
      y(row, j) = x.to_int64();
    }
  });
  return y;
}

// One-shot filter provider: prepares prime t's filter transform into a scratch buffer.
struct OneShotH {
  const Matrix<std::int64_t>& h;
  const NttConvPlan& pl;
  std::uint64_t hmax;
  const std::uint32_t* operator()(unsigned t, const NttTable& tab) {
    const std::size_t L = std::size_t{1} << pl.log_len;
    std::uint32_t* buf = tl_scratch[kNttMaxPrimes].get(pl.d * stride(L));
    fill_i64(h, false, hmax, tab.p, buf, L);
    prepare_filter(buf, pl.d, tab, &pl.primes, t);
    return buf;
  }
};

std::uint64_t max_of(const std::vector<std::uint64_t>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

}  // namespace

// ---- public -----------------------------------------------------------------------------------

unsigned ntt_log_len(std::size_t n, ConvMode mode) {
  if (n == 0) return 0;
  if (mode == ConvMode::Cyclic && (n & (n - 1)) == 0) return static_cast<unsigned>(__builtin_ctzll(n));
  unsigned lg = 0;
  while ((std::size_t{1} << lg) < 2 * n - 1) ++lg;
  return lg;
}

std::string NttConvPlan::str() const {
  std::ostringstream os;
  os << "ntt conv " << to_string(mode) << " n=" << n << " d=" << d << " L=2^" << log_len
     << " bound |y| <= max|u|*||h||_1 < 2^" << bound_bits << " primes k=" << k << " (30-bit, c*2^22+1)";
  if (!ntt) os << " -> beyond the NTT (needs >" << kNttMaxPrimes << " primes or L > 2^" << kNttMaxLog << "): FLINT";
  return os.str();
}

NttConvPlan plan_conv_ntt(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u, ConvMode mode) {
  check_shapes(h, u);
  return finish_plan(u.rows(), u.cols(), mode, bounds_of(col_maxabs(u), col_l1(h)));
}

NttConvPlan plan_conv_ntt(const Matrix<Int>& h, const Matrix<Int>& u, ConvMode mode) {
  check_shapes(h, u);
  const std::size_t n = u.rows(), d = u.cols();
  std::vector<Int> maxu(d), l1(d), b(d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      Int a = u(i, j).abs();
      if (a > maxu[j]) maxu[j] = std::move(a);
      l1[j] += h(i, j).abs();
    }
  for (std::size_t j = 0; j < d; ++j) b[j] = maxu[j] * l1[j];
  return finish_plan(n, d, mode, std::move(b));
}

std::optional<Matrix<std::int64_t>> conv_ntt_i64(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u,
                                                 ConvMode mode, NttConvPlan* plan_out) {
  check_shapes(h, u);
  const std::vector<std::uint64_t> maxu = col_maxabs(u);
  const std::vector<u128> l1 = col_l1(h);
  NttConvPlan pl = finish_plan(u.rows(), u.cols(), mode, bounds_of(maxu, l1));
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  if (pl.n == 0) return Matrix<std::int64_t>(0, pl.d);
  OneShotH H{h, pl, max_of(col_maxabs(h))};
  Residues res;
  run_i64(pl, u, maxu, H, res);
  return emit_i64(pl, res);
}

std::optional<Matrix<Int>> conv_ntt(const Matrix<std::int64_t>& h, const Matrix<std::int64_t>& u, ConvMode mode,
                                    NttConvPlan* plan_out) {
  check_shapes(h, u);
  const std::vector<std::uint64_t> maxu = col_maxabs(u);
  NttConvPlan pl = finish_plan(u.rows(), u.cols(), mode, bounds_of(maxu, col_l1(h)));
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  if (pl.n == 0) return Matrix<Int>(0, pl.d);
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
    fill_int(h, false, tab.p, hb, L);
    prepare_filter(hb, pl.d, tab, &pl.primes, t);
    res.r[t] = tl_scratch[t].get(pl.d * stride(L));
    fill_int(u, pl.mode == ConvMode::Anticausal, tab.p, res.r[t], L);
    convolve_prime(pl, t, tab, res.r[t], hb);
  }
  return emit_int(pl, res);
}

std::optional<Matrix<std::uint64_t>> conv_ntt_fp(std::uint64_t p, const Matrix<std::uint64_t>& h,
                                                 const Matrix<std::uint64_t>& u, ConvMode mode, NttConvPlan* plan_out) {
  check_shapes(h, u);
  const std::size_t n = u.rows(), d = u.cols();
  const unsigned lg = ntt_log_len(n, mode);
  if (n == 0) return Matrix<std::uint64_t>(0, d);
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
    if (plan_out) *plan_out = pl;
    const std::size_t L = std::size_t{1} << lg;
    const NttTable& tab = ntt_table(static_cast<std::uint32_t>(p), lg);
    Residues keep;  // trims the scratch on return
    std::uint32_t *hb = tl_scratch[kNttMaxPrimes].get(d * stride(L)), *ub = tl_scratch[0].get(d * stride(L));
    auto fill = [&](const Matrix<std::uint64_t>& x, bool rev, std::uint32_t* buf) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t* r = x.row(rev ? n - 1 - i : i);
        for (std::size_t j = 0; j < d; ++j) buf[j * stride(L) + i] = static_cast<std::uint32_t>(r[j] < p ? r[j] : r[j] % p);
      }
      for (std::size_t j = 0; j < d; ++j) std::fill(buf + j * stride(L) + n, buf + j * stride(L) + L, 0u);
    };
    fill(h, false, hb);
    prepare_filter(hb, d, tab, nullptr, 0);
    fill(u, mode == ConvMode::Anticausal, ub);
    convolve_prime(pl, 0, tab, ub, hb);
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

  const std::uint32_t* get(unsigned t, const NttTable& tab) {
    std::call_once(once[t], [&] {
      const std::size_t L = std::size_t{1} << log_len;
      std::vector<std::uint32_t> b(h.cols() * stride(L));
      fill_i64(h, false, hmax, tab.p, b.data(), L);
      prepare_filter(b.data(), h.cols(), tab, nullptr, t);
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
  Residues res;
  run_i64(pl, u, maxu, [&](unsigned t, const NttTable& tab) { return impl_->get(t, tab); }, res);
  return emit_int(pl, res);
}

std::optional<Matrix<std::int64_t>> NttFilter::apply_i64(const Matrix<std::int64_t>& u, NttConvPlan* plan_out) const {
  check_shapes(impl_->h, u);
  const std::vector<std::uint64_t> maxu = col_maxabs(u);
  NttConvPlan pl = finish_plan(n_, d_, mode_, bounds_of(maxu, impl_->l1));
  if (plan_out) *plan_out = pl;
  if (!pl.ntt) return std::nullopt;
  if (pl.n == 0) return Matrix<std::int64_t>(0, d_);
  Residues res;
  run_i64(pl, u, maxu, [&](unsigned t, const NttTable& tab) { return impl_->get(t, tab); }, res);
  return emit_i64(pl, res);
}

std::vector<std::optional<Matrix<Int>>> NttFilter::apply_batch(const std::vector<Matrix<std::int64_t>>& us) const {
  std::vector<std::optional<Matrix<Int>>> out;
  out.reserve(us.size());
  for (const auto& u : us) out.push_back(apply(u));
  return out;
}

}  // namespace cz
