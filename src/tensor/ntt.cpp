// NTT primes, cached twiddle tables and the transforms: the scalar code of ntt_arith.h, and the
// AVX2 / AVX-512 kernels (ntt_avx2.cpp, ntt_avx512.cpp) chosen at run time by
// __builtin_cpu_supports, performing exactly the same lazy butterflies (so the scalar path is a
// faithful reference for them, bit for bit; tests force each path).
#include "tensor/ntt.h"

#include "tensor/ntt_kernels.h"

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>

namespace cz {

// ---- primes -----------------------------------------------------------------------------------

namespace {
bool is_prime_u32(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t q = 2; q * q <= n; ++q)
    if (n % q == 0) return false;
  return true;
}

struct PrimeTable {
  std::uint32_t p[kNttMaxPrimes];
  PrimeTable() {
    unsigned k = 0;
    // c·2^22 + 1 < 2^30  ⇔  c ≤ 255; largest first.
    for (std::uint64_t c = 255; c >= 1 && k < kNttMaxPrimes; --c) {
      const std::uint64_t q = (c << kNttMaxLog) + 1;
      if (is_prime_u32(q)) p[k++] = static_cast<std::uint32_t>(q);
    }
    // Garner reduces a digit v_j < p_j < 2^30 mod p_i by one subtraction: needs p_i > 2^29.
    if (k != kNttMaxPrimes || p[kNttMaxPrimes - 1] <= (1u << 29)) throw std::logic_error("NTT prime table");
  }
};
}  // namespace

const std::uint32_t* ntt_primes() {
  static const PrimeTable t;
  return t.p;
}

bool ntt_friendly(std::uint64_t p, unsigned log_len) {
  if (p >= (1u << 30) || p < 3 || log_len > 62) return false;
  if (((p - 1) & ((std::uint64_t{1} << log_len) - 1)) != 0) return false;
  return is_prime_u32(p);
}

// ---- tables -----------------------------------------------------------------------------------

namespace {
NttTable build_table(std::uint32_t p, unsigned log_len) {
  if (!ntt_friendly(p, log_len)) throw std::invalid_argument("ntt_table: prime not NTT-friendly for this length");
  using namespace ntt;
  const std::size_t L = std::size_t{1} << log_len;
  NttTable t{p, log_len, {}, {}, {}, {}, 0, 0, 0};
  // ω: a primitive L-th root of unity (L ≥ 2: ω^{L/2} = −1 certifies the order is exactly L).
  std::uint32_t omega = 1;
  if (L >= 2)
    for (std::uint32_t a = 2;; ++a) {
      omega = powmod(a, (p - 1) >> log_len, p);
      if (powmod(omega, L / 2, p) == p - 1) break;
    }
  const std::uint32_t omega_inv = powmod(omega, p - 2, p);
  t.w.assign(L, 0);
  t.wpre.assign(L, 0);
  t.iw.assign(L, 0);
  t.iwpre.assign(L, 0);
  for (std::size_t h = 1; h < L; h <<= 1) {
    // ω_{2h} = ω^{L/(2h)}
    const std::uint32_t b = powmod(omega, L / (2 * h), p), bi = powmod(omega_inv, L / (2 * h), p);
    std::uint32_t x = 1, xi = 1;
    for (std::size_t j = 0; j < h; ++j) {
      t.w[h + j] = x;
      t.wpre[h + j] = shoup_pre(x, p);
      t.iw[h + j] = xi;
      t.iwpre[h + j] = shoup_pre(xi, p);
      x = mulmod(x, b, p);
      xi = mulmod(xi, bi, p);
    }
  }
  t.pneg = mont_pneg(p);
  const std::uint32_t inv_len = powmod(static_cast<std::uint32_t>(L % p), p - 2, p);
  const std::uint32_t r = static_cast<std::uint32_t>((std::uint64_t{1} << 32) % p);
  t.filt_scale = mulmod(inv_len, r, p);
  t.filt_scale_pre = shoup_pre(t.filt_scale, p);
  return t;
}
}  // namespace

const NttTable& ntt_table(std::uint32_t p, unsigned log_len) {
  static std::mutex mu;
  static std::map<std::pair<std::uint32_t, unsigned>, std::unique_ptr<NttTable>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{p, log_len}];
  if (!slot) slot = std::make_unique<NttTable>(build_table(p, log_len));
  return *slot;
}

// ---- ISA dispatch -----------------------------------------------------------------------------

namespace {
NttIsa best_isa() {
  static const NttIsa best = ntt_kernels::cpu_has_avx512() ? NttIsa::Avx512
                             : ntt_kernels::cpu_has_avx2() ? NttIsa::Avx2
                                                           : NttIsa::Scalar;
  return best;
}
std::atomic<int>& isa_slot() {
  static std::atomic<int> s(static_cast<int>(best_isa()));
  return s;
}
}  // namespace

NttIsa ntt_isa() { return static_cast<NttIsa>(isa_slot().load(std::memory_order_relaxed)); }
void ntt_set_isa(NttIsa isa) {
  if (static_cast<int>(isa) > static_cast<int>(best_isa())) isa = best_isa();  // the CPU lacks it
  isa_slot().store(static_cast<int>(isa), std::memory_order_relaxed);
}
std::string to_string(NttIsa isa) {
  switch (isa) {
    case NttIsa::Avx512: return "avx512";
    case NttIsa::Avx2: return "avx2";
    default: return "scalar";
  }
}

namespace detail {
namespace {
std::atomic<int> g_mutant{0};
}
void ntt_set_mutant(int m) { g_mutant.store(m, std::memory_order_relaxed); }
int ntt_mutant() { return g_mutant.load(std::memory_order_relaxed); }
namespace {
std::atomic<int> g_lane_policy{0};
}
void ntt_set_lane_policy(LanePolicy p) { g_lane_policy.store(static_cast<int>(p), std::memory_order_relaxed); }
LanePolicy ntt_lane_policy() { return static_cast<LanePolicy>(g_lane_policy.load(std::memory_order_relaxed)); }
}  // namespace detail

// The vector kernels need a few vectors per transform: 16 entries (AVX2), 32 (AVX-512); shorter
// transforms take the next narrower path.
void ntt_forward(std::uint32_t* a, const NttTable& t, bool half_zero) {
  if (t.log_len >= 2 && detail::ntt_mutant() == 2) {  // mutant: ω_L^1 of the first stage replaced by 2·ω_L^1
    std::vector<std::uint32_t> w = t.w, wp = t.wpre;
    const std::size_t i = (std::size_t{1} << (t.log_len - 1)) + 1;
    w[i] = ntt::mulmod(w[i], 2, t.p);
    wp[i] = ntt::shoup_pre(w[i], t.p);
    return ntt::ntt_forward_scalar(a, t.log_len, w.data(), wp.data(), t.p, half_zero);
  }
  const NttIsa isa = ntt_isa();
  if (t.log_len >= 5 && isa == NttIsa::Avx512) return ntt_kernels::forward_avx512(a, t, half_zero);
  if (t.log_len >= 4 && isa >= NttIsa::Avx2) return ntt_kernels::forward_avx2(a, t, half_zero);
  ntt::ntt_forward_scalar(a, t.log_len, t.w.data(), t.wpre.data(), t.p, half_zero);
}

void ntt_inverse(std::uint32_t* a, const NttTable& t, std::size_t n_out) {
  const std::size_t L = std::size_t{1} << t.log_len;
  if (n_out > L) throw std::invalid_argument("ntt_inverse: n_out beyond the transform length");
  const NttIsa isa = ntt_isa();
  if (t.log_len >= 5 && isa == NttIsa::Avx512) return ntt_kernels::inverse_avx512(a, t, n_out);
  if (t.log_len >= 4 && isa >= NttIsa::Avx2) return ntt_kernels::inverse_avx2(a, t, n_out);
  ntt::ntt_inverse_scalar(a, t.log_len, t.iw.data(), t.iwpre.data(), t.p, n_out);
}
void ntt_inverse(std::uint32_t* a, const NttTable& t) { ntt_inverse(a, t, std::size_t{1} << t.log_len); }

void ntt_mul_const(std::uint32_t* a, std::size_t len, std::uint32_t w, std::uint32_t wpre, std::uint32_t p) {
  const NttIsa isa = ntt_isa();
  if (isa == NttIsa::Avx512) return ntt_kernels::mul_const_avx512(a, len, w, wpre, p);
  if (isa == NttIsa::Avx2) return ntt_kernels::mul_const_avx2(a, len, w, wpre, p);
  for (std::size_t i = 0; i < len; ++i) a[i] = ntt::mul_shoup(a[i], w, wpre, p);
}

void ntt_pointwise(std::uint32_t* a, const std::uint32_t* b, std::size_t len, std::uint32_t p) {
  const std::uint32_t pneg = ntt::mont_pneg(p);
  const NttIsa isa = ntt_isa();
  if (isa == NttIsa::Avx512) return ntt_kernels::pointwise_avx512(a, b, len, p, pneg);
  if (isa == NttIsa::Avx2) return ntt_kernels::pointwise_avx2(a, b, len, p, pneg);
  ntt::pointwise_mont_scalar(a, b, len, p, pneg);
}

}  // namespace cz
