// Direct convolution over F_p (conv_ntt_fp64.h): one forward transform of each channel of h and
// u, a Montgomery pointwise product, one unnormalised inverse, no CRT lift. The filter's residues
// are scaled by L^{-1}·R (R = 2^64 in 64-bit words, 2^32 in 32-bit ones) before their transform,
// so the pointwise product's factor R^{-1} and the inverse's factor L cancel and the inverse
// yields exactly h*u mod p. Written once over an "engine" (Eng32: ntt.h's tables and ISA kernels
// for p < 2^30; Eng64: ntt64.h for 2^30 ≤ p < 2^62), with the mode rules of conv_ntt.cpp:
//   causal      the first n entries of the linear product (L ≥ 2n − 1);
//   anticausal  causal on the input with rows reversed, the output read back reversed;
//   cyclic      n a power of two: the length-n cyclic product itself (L = n); else the linear
//               product (L ≥ 2n, even) folded: y_i = z_i + z_{i+n}.
// Layout: all d channels of one matrix in a d×stride(L) buffer, channel j at [j·stride, j·stride + L).
#include "tensor/conv_ntt_fp64.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "tensor/ntt64.h"

namespace cz {
namespace {

// A 64-byte pad per channel keeps the d channel streams of the row-wise fill and read-out off one
// cache set (the reason conv_ntt.cpp pads its 32-bit buffers the same way).
template <class T>
constexpr std::size_t stride(std::size_t L) {
  return L + 64 / sizeof(T);
}

// Per-thread scratch kept between calls (fresh multi-MB buffers cost page faults on every call,
// see conv_ntt.cpp); buffers above kKeepBytes are released when the call ends.
template <class T>
class Scratch {
 public:
  static constexpr std::size_t kKeepBytes = std::size_t{64} << 20;
  T* get(std::size_t n) {
    if (n > cap_) {
      p_.reset(new T[n]);  // default-initialised: every entry read is written first
      cap_ = n;
    }
    return p_.get();
  }
  void trim() {
    if (cap_ * sizeof(T) > kKeepBytes) p_.reset(), cap_ = 0;
  }

 private:
  std::unique_ptr<T[]> p_;
  std::size_t cap_ = 0;
};
template <class T>
Scratch<T>& scratch(int which) {  // 0: the input's residues, 1: a one-shot filter's
  thread_local Scratch<T> s[2];
  return s[which];
}
template <class T>
struct TrimOnExit {
  ~TrimOnExit() { scratch<T>(0).trim(), scratch<T>(1).trim(); }
};

// ---- the two engines --------------------------------------------------------------------------

struct Eng32 {
  using T = std::uint32_t;
  const NttTable& t;
  std::uint64_t p() const { return t.p; }
  unsigned log_len() const { return t.log_len; }
  T filter(std::uint64_t r) const { return ntt::mul_shoup(static_cast<T>(r), t.filt_scale, t.filt_scale_pre, t.p); }
  void forward(T* a, bool hz) const { ntt_forward(a, t, hz); }
  void inverse(T* a, std::size_t n_out) const { ntt_inverse(a, t, n_out); }
  void pointwise(T* a, const T* b, std::size_t len) const { ntt_pointwise(a, b, len, t.p); }
};

struct Eng64 {
  using T = std::uint64_t;
  const NttTable64& t;
  std::uint64_t p() const { return t.p; }
  unsigned log_len() const { return t.log_len; }
  T filter(std::uint64_t r) const { return ntt64::mul_shoup(r, t.filt_scale, t.filt_scale_pre, t.p); }
  void forward(T* a, bool hz) const { ntt64_forward(a, t, hz); }
  void inverse(T* a, std::size_t n_out) const { ntt64_inverse(a, t, n_out); }
  void pointwise(T* a, const T* b, std::size_t len) const { ntt64_pointwise(a, b, len, t); }
};

// ---- residues in, product, residues out -------------------------------------------------------

// The columns of x mod p into buf (d×stride(L)), rows reversed when `rev`, each entry through
// `f` (identity for an input: [0, p); the filter scale for a filter: [0, 2p)); then the zero
// padding. When 2n ≤ L only [n, L/2) is zeroed and the forward transform takes the upper half as
// zero unread (half_zero). Returns that flag.
template <class T, class F>
bool fill(const Matrix<std::uint64_t>& x, bool rev, std::uint64_t p, T* buf, std::size_t L, F&& f) {
  const std::size_t n = x.rows(), d = x.cols(), S = stride<T>(L);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t* r = x.row(rev ? n - 1 - i : i);
    for (std::size_t j = 0; j < d; ++j) buf[j * S + i] = static_cast<T>(f(r[j] < p ? r[j] : r[j] % p));
  }
  const bool half = 2 * n <= L;
  for (std::size_t j = 0; j < d; ++j) std::fill(buf + j * S + n, buf + j * S + (half ? L / 2 : L), T{0});
  return half;
}
template <class E>
bool fill_input(const E& e, const Matrix<std::uint64_t>& u, ConvMode mode, typename E::T* buf) {
  return fill(u, mode == ConvMode::Anticausal, e.p(), buf, std::size_t{1} << e.log_len(), [](std::uint64_t r) { return r; });
}
template <class E>
bool fill_filter(const E& e, const Matrix<std::uint64_t>& h, typename E::T* buf) {
  return fill(h, false, e.p(), buf, std::size_t{1} << e.log_len(), [&](std::uint64_t r) { return e.filter(r); });
}

// The filter's transforms in place, channel by channel (a prepared filter: once per instance).
template <class E>
void transform_filter(const E& e, typename E::T* buf, std::size_t d, bool half_zero) {
  const std::size_t L = std::size_t{1} << e.log_len();
  for (std::size_t j = 0; j < d; ++j) e.forward(buf + j * stride<typename E::T>(L), half_zero);
}

// Per channel: forward u (and h when `raw`: its scaled residues, transformed right before the
// product while they are still in cache), pointwise, inverse with only the outputs read ([0, n),
// and [n, 2n) for the cyclic fold), fold.
template <class E>
void convolve(const E& e, std::size_t n, std::size_t d, ConvMode mode, typename E::T* ub, typename E::T* H, bool raw,
              bool half_zero) {
  using T = typename E::T;
  const std::size_t L = std::size_t{1} << e.log_len(), S = stride<T>(L);
  const bool fold = mode == ConvMode::Cyclic && L != n;  // then L ≥ 2n − 1 is even, so L ≥ 2n
  const T p = static_cast<T>(e.p());
  for (std::size_t j = 0; j < d; ++j) {
    T* a = ub + j * S;
    if (raw) e.forward(H + j * S, half_zero);
    e.forward(a, half_zero);
    e.pointwise(a, H + j * S, L);
    e.inverse(a, fold ? 2 * n : n);
    if (fold)
      for (std::size_t i = 0; i < n; ++i) a[i] = a[i] + a[i + n] >= p ? a[i] + a[i + n] - p : a[i] + a[i + n];
  }
}

// Residues [0, p) of channel j at ub[j·stride + i] → the n×d output (rows reversed back for
// anticausal), appended in row-major order (no zero fill of a matrix overwritten anyway).
template <class T>
Matrix<std::uint64_t> read_out(const T* ub, std::size_t n, std::size_t d, ConvMode mode, std::size_t L) {
  std::vector<std::uint64_t> y;
  y.reserve(n * d);
  const bool rev = mode == ConvMode::Anticausal;
  for (std::size_t row = 0; row < n; ++row) {
    const std::size_t i = rev ? n - 1 - row : row;
    for (std::size_t j = 0; j < d; ++j) y.push_back(ub[j * stride<T>(L) + i]);
  }
  return Matrix<std::uint64_t>(n, d, std::move(y));
}

NttConvPlan direct_plan(std::uint64_t p, std::size_t n, std::size_t d, ConvMode mode) {
  NttConvPlan pl;
  pl.n = n;
  pl.d = d;
  pl.mode = mode;
  pl.log_len = ntt_log_len(n, mode);
  pl.primes.assign(d, 1);
  pl.k = 1;
  pl.ntt = true;
  pl.field = p;
  return pl;
}

// One-shot: h's transform computed in the call.
template <class E>
Matrix<std::uint64_t> one_shot(const E& e, const Matrix<std::uint64_t>& h, const Matrix<std::uint64_t>& u,
                               ConvMode mode) {
  using T = typename E::T;
  const std::size_t n = u.rows(), d = u.cols(), L = std::size_t{1} << e.log_len();
  TrimOnExit<T> trim;
  T* hb = scratch<T>(1).get(d * stride<T>(L));
  T* ub = scratch<T>(0).get(d * stride<T>(L));
  fill_filter(e, h, hb);
  const bool hz = fill_input(e, u, mode, ub);
  convolve(e, n, d, mode, ub, hb, true, hz);
  return read_out(ub, n, d, mode, L);
}

void check_shapes(const Matrix<std::uint64_t>& h, const Matrix<std::uint64_t>& u) {
  if (h.rows() != u.rows() || h.cols() != u.cols())
    throw std::invalid_argument("conv over Fp: filter is " + std::to_string(h.rows()) + "x" + std::to_string(h.cols()) +
                                " but input is " + std::to_string(u.rows()) + "x" + std::to_string(u.cols()));
}

}  // namespace

unsigned ntt_fp_direct_bits(std::uint64_t p, std::size_t n, ConvMode mode) {
  const unsigned lg = ntt_log_len(n, mode);
  if (p < (1u << 30)) return lg <= kNttMaxLog && ntt_friendly(p, lg) ? 32 : 0;  // conv_ntt_fp's 32-bit rule
  return ntt_friendly64(p, lg) ? 64 : 0;
}

std::optional<Matrix<std::uint64_t>> conv_ntt_fp64(std::uint64_t p, const Matrix<std::uint64_t>& h,
                                                   const Matrix<std::uint64_t>& u, ConvMode mode,
                                                   NttConvPlan* plan_out) {
  check_shapes(h, u);
  const std::size_t n = u.rows(), d = u.cols();
  if (ntt_fp_direct_bits(p, n, mode) != 64) return std::nullopt;
  if (plan_out) *plan_out = direct_plan(p, n, d, mode);
  if (n == 0) return Matrix<std::uint64_t>(0, d);
  return one_shot(Eng64{ntt_table64(p, ntt_log_len(n, mode))}, h, u, mode);
}

// ---- NttFilterFp ------------------------------------------------------------------------------

struct NttFilterFp::Impl {
  std::uint64_t p;
  Matrix<std::uint64_t> h;
  ConvMode mode;
  unsigned bits;                    // the route: 32, 64 or 0
  std::once_flag once;
  std::vector<std::uint32_t> H32;   // d×stride(L) transforms of h·L^{-1}·2^32 (bits = 32)
  std::vector<std::uint64_t> H64;   // d×stride(L) transforms of h·L^{-1}·2^64 (bits = 64)

  template <class E>
  std::optional<Matrix<std::uint64_t>> run(const E& e, std::vector<typename E::T>& H,
                                           const Matrix<std::uint64_t>& u) {
    using T = typename E::T;
    const std::size_t n = h.rows(), d = h.cols(), L = std::size_t{1} << e.log_len();
    std::call_once(once, [&] {
      std::vector<T> b(d * stride<T>(L));
      transform_filter(e, b.data(), d, fill_filter(e, h, b.data()));
      H = std::move(b);
    });
    TrimOnExit<T> trim;
    T* ub = scratch<T>(0).get(d * stride<T>(L));
    const bool hz = fill_input(e, u, mode, ub);
    convolve(e, n, d, mode, ub, H.data(), false, hz);
    return read_out(ub, n, d, mode, L);
  }
};

NttFilterFp::NttFilterFp(std::uint64_t p, const Matrix<std::uint64_t>& h, ConvMode mode) : impl_(std::make_unique<Impl>()) {
  if (p < 2 || p >= (std::uint64_t{1} << 62))
    throw std::invalid_argument("NttFilterFp: the modulus p = " + std::to_string(p) + " is not in [2, 2^62)");
  impl_->p = p;
  impl_->h = h;
  impl_->mode = mode;
  impl_->bits = ntt_fp_direct_bits(p, h.rows(), mode);
}
NttFilterFp::~NttFilterFp() = default;

std::uint64_t NttFilterFp::prime() const { return impl_->p; }
std::size_t NttFilterFp::rows() const { return impl_->h.rows(); }
std::size_t NttFilterFp::cols() const { return impl_->h.cols(); }
ConvMode NttFilterFp::mode() const { return impl_->mode; }
unsigned NttFilterFp::direct_bits() const { return impl_->bits; }

std::optional<Matrix<std::uint64_t>> NttFilterFp::apply(const Matrix<std::uint64_t>& u, NttConvPlan* plan_out) const {
  Impl& I = *impl_;
  check_shapes(I.h, u);
  if (I.bits == 0) return std::nullopt;
  const std::size_t n = u.rows(), d = u.cols();
  if (plan_out) *plan_out = direct_plan(I.p, n, d, I.mode);
  if (n == 0) return Matrix<std::uint64_t>(0, d);
  const unsigned lg = ntt_log_len(n, I.mode);
  if (I.bits == 32) return I.run(Eng32{ntt_table(static_cast<std::uint32_t>(I.p), lg)}, I.H32, u);
  return I.run(Eng64{ntt_table64(I.p, lg)}, I.H64, u);
}

}  // namespace cz
