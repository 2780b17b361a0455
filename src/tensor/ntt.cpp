// NTT primes, cached twiddle tables and the transforms: the scalar code of ntt_arith.h, and AVX2
// kernels (8 lanes of 32 bits) chosen at run time by __builtin_cpu_supports, performing exactly
// the same lazy butterflies (so the scalar path is a faithful reference for them; tests force it).
#include "tensor/ntt.h"

#include <immintrin.h>

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
bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
std::atomic<int>& isa_slot() {
  static std::atomic<int> s(static_cast<int>(cpu_has_avx2() ? NttIsa::Avx2 : NttIsa::Scalar));
  return s;
}
}  // namespace

NttIsa ntt_isa() { return static_cast<NttIsa>(isa_slot().load(std::memory_order_relaxed)); }
void ntt_set_isa(NttIsa isa) {
  if (isa == NttIsa::Avx2 && !cpu_has_avx2()) isa = NttIsa::Scalar;
  isa_slot().store(static_cast<int>(isa), std::memory_order_relaxed);
}
std::string to_string(NttIsa isa) { return isa == NttIsa::Avx2 ? "avx2" : "scalar"; }

// ---- AVX2 kernels -----------------------------------------------------------------------------

#define CZ_AVX2 __attribute__((target("avx2"))) inline
namespace {

CZ_AVX2 __m256i ld(const std::uint32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
CZ_AVX2 void st(std::uint32_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
// x < 2m → x mod m: min(x, x − m) as unsigned picks x − m exactly when x ≥ m.
CZ_AVX2 __m256i v_red(__m256i x, __m256i m) { return _mm256_min_epu32(x, _mm256_sub_epi32(x, m)); }
CZ_AVX2 __m256i v_mulhi(__m256i a, __m256i b) {
  const __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(a, b), 32);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
  return _mm256_blend_epi32(even, odd, 0xAA);
}
CZ_AVX2 __m256i v_shoup(__m256i a, __m256i w, __m256i wp, __m256i p) {
  const __m256i q = v_mulhi(a, wp);
  return _mm256_sub_epi32(_mm256_mullo_epi32(a, w), _mm256_mullo_epi32(q, p));
}
CZ_AVX2 __m256i v_mont(__m256i a, __m256i b, __m256i p, __m256i pneg) {
  const __m256i te = _mm256_mul_epu32(a, b);
  const __m256i to = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
  const __m256i ue = _mm256_add_epi64(te, _mm256_mul_epu32(_mm256_mul_epu32(te, pneg), p));
  const __m256i uo = _mm256_add_epi64(to, _mm256_mul_epu32(_mm256_mul_epu32(to, pneg), p));
  return _mm256_blend_epi32(_mm256_srli_epi64(ue, 32), uo, 0xAA);
}

struct VP {
  __m256i p, p2;
};
CZ_AVX2 VP vp(std::uint32_t p) { return {_mm256_set1_epi32(static_cast<int>(p)), _mm256_set1_epi32(static_cast<int>(2 * p))}; }

// Gentleman–Sande (forward) and Cooley–Tukey (inverse) butterflies, as in ntt_fwd_stage / ntt_inv_stage.
CZ_AVX2 void bf_fwd(__m256i& x, __m256i& y, __m256i w, __m256i wp, const VP& c) {
  const __m256i s = v_red(_mm256_add_epi32(x, y), c.p2);
  y = v_shoup(_mm256_add_epi32(_mm256_sub_epi32(x, y), c.p2), w, wp, c.p);
  x = s;
}
CZ_AVX2 void bf_inv(__m256i& x, __m256i& y, __m256i w, __m256i wp, const VP& c) {
  const __m256i r = v_red(x, c.p2);
  const __m256i t = v_shoup(y, w, wp, c.p);
  x = _mm256_add_epi32(r, t);
  y = _mm256_add_epi32(_mm256_sub_epi32(r, t), c.p2);
}

CZ_AVX2 void fwd_stage_v(std::uint32_t* a, std::size_t len, std::size_t h, const std::uint32_t* w,
                         const std::uint32_t* wp, const VP& c) {
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; j += 8) {
      __m256i x = ld(a + s + j), y = ld(a + s + j + h);
      bf_fwd(x, y, ld(w + h + j), ld(wp + h + j), c);
      st(a + s + j, x);
      st(a + s + j + h, y);
    }
}
CZ_AVX2 void inv_stage_v(std::uint32_t* a, std::size_t len, std::size_t h, const std::uint32_t* w,
                         const std::uint32_t* wp, const VP& c) {
  for (std::size_t s = 0; s < len; s += 2 * h)
    for (std::size_t j = 0; j < h; j += 8) {
      __m256i x = ld(a + s + j), y = ld(a + s + j + h);
      bf_inv(x, y, ld(w + h + j), ld(wp + h + j), c);
      st(a + s + j, x);
      st(a + s + j + h, y);
    }
}

// Stages h = 4, 2, 1 on 16 entries held in two registers A = a[0..8), B = a[8..16).
// Split into X (first of each pair) and Y (second), butterfly, merge back:
//   h=4: X = [A.lo, B.lo], Y = [A.hi, B.hi]            (permute2x128 0x20 / 0x31, self-inverse)
//   h=2: X = unpacklo_epi64(A, B), Y = unpackhi_epi64   (merge: the same unpacks of X', Y')
//   h=1: X = even entries, Y = odd (shuffle_ps 2020/3131; merge: unpacklo/hi_epi32 of X', Y')
struct Small {
  __m256i w4, wp4, w2, wp2, w1, wp1;
};
CZ_AVX2 __m256i rep4(const std::uint32_t* t) {
  return _mm256_setr_epi32(int(t[4]), int(t[5]), int(t[6]), int(t[7]), int(t[4]), int(t[5]), int(t[6]), int(t[7]));
}
CZ_AVX2 __m256i rep2(const std::uint32_t* t) {
  return _mm256_setr_epi32(int(t[2]), int(t[3]), int(t[2]), int(t[3]), int(t[2]), int(t[3]), int(t[2]), int(t[3]));
}
CZ_AVX2 Small small_tw(const std::uint32_t* w, const std::uint32_t* wp) {
  return {rep4(w), rep4(wp), rep2(w), rep2(wp), _mm256_set1_epi32(int(w[1])), _mm256_set1_epi32(int(wp[1]))};
}
CZ_AVX2 void split4(__m256i A, __m256i B, __m256i& X, __m256i& Y) {
  X = _mm256_permute2x128_si256(A, B, 0x20);
  Y = _mm256_permute2x128_si256(A, B, 0x31);
}
CZ_AVX2 void split2(__m256i A, __m256i B, __m256i& X, __m256i& Y) {
  X = _mm256_unpacklo_epi64(A, B);
  Y = _mm256_unpackhi_epi64(A, B);
}
CZ_AVX2 void split1(__m256i A, __m256i B, __m256i& X, __m256i& Y) {
  X = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(A), _mm256_castsi256_ps(B), 0x88));  // 2,0,2,0
  Y = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(A), _mm256_castsi256_ps(B), 0xDD));  // 3,1,3,1
}
CZ_AVX2 void merge1(__m256i X, __m256i Y, __m256i& A, __m256i& B) {
  A = _mm256_unpacklo_epi32(X, Y);
  B = _mm256_unpackhi_epi32(X, Y);
}

CZ_AVX2 void fwd_tail16(std::uint32_t* a, std::size_t len, const Small& t, const VP& c) {
  for (std::size_t s = 0; s < len; s += 16) {
    __m256i A = ld(a + s), B = ld(a + s + 8), X, Y;
    split4(A, B, X, Y);
    bf_fwd(X, Y, t.w4, t.wp4, c);
    split4(X, Y, A, B);
    split2(A, B, X, Y);
    bf_fwd(X, Y, t.w2, t.wp2, c);
    split2(X, Y, A, B);
    split1(A, B, X, Y);
    bf_fwd(X, Y, t.w1, t.wp1, c);
    merge1(X, Y, A, B);
    st(a + s, A);
    st(a + s + 8, B);
  }
}
CZ_AVX2 void inv_head16(std::uint32_t* a, std::size_t len, const Small& t, const VP& c) {
  for (std::size_t s = 0; s < len; s += 16) {
    __m256i A = ld(a + s), B = ld(a + s + 8), X, Y;
    split1(A, B, X, Y);
    bf_inv(X, Y, t.w1, t.wp1, c);
    merge1(X, Y, A, B);
    split2(A, B, X, Y);
    bf_inv(X, Y, t.w2, t.wp2, c);
    split2(X, Y, A, B);
    split4(A, B, X, Y);
    bf_inv(X, Y, t.w4, t.wp4, c);
    split4(X, Y, A, B);
    st(a + s, A);
    st(a + s + 8, B);
  }
}

// Blocks of kBlock entries (16 KiB) stay in L1 for their innermost stages.
constexpr std::size_t kBlock = 4096;

__attribute__((target("avx2"))) void forward_avx2(std::uint32_t* a, const NttTable& t) {
  const std::size_t L = std::size_t{1} << t.log_len;
  const VP c = vp(t.p);
  const std::uint32_t *w = t.w.data(), *wp = t.wpre.data();
  const std::size_t blk = L < kBlock ? L : kBlock;
  for (std::size_t h = L >> 1; h >= blk; h >>= 1) fwd_stage_v(a, L, h, w, wp, c);
  const Small sm = small_tw(w, wp);
  for (std::size_t b = 0; b < L; b += blk) {
    for (std::size_t h = blk >> 1; h >= 8; h >>= 1) fwd_stage_v(a + b, blk, h, w, wp, c);
    fwd_tail16(a + b, blk, sm, c);
  }
}

__attribute__((target("avx2"))) void inverse_avx2(std::uint32_t* a, const NttTable& t) {
  const std::size_t L = std::size_t{1} << t.log_len;
  const VP c = vp(t.p);
  const std::uint32_t *w = t.iw.data(), *wp = t.iwpre.data();
  const std::size_t blk = L < kBlock ? L : kBlock;
  const Small sm = small_tw(w, wp);
  for (std::size_t b = 0; b < L; b += blk) {
    inv_head16(a + b, blk, sm, c);
    for (std::size_t h = 8; h < blk; h <<= 1) inv_stage_v(a + b, blk, h, w, wp, c);
  }
  for (std::size_t h = blk; h < L; h <<= 1) inv_stage_v(a, L, h, w, wp, c);
  for (std::size_t i = 0; i < L; i += 8) st(a + i, v_red(v_red(ld(a + i), c.p2), c.p));
}

__attribute__((target("avx2"))) void pointwise_avx2(std::uint32_t* a, const std::uint32_t* b, std::size_t len,
                                                    std::uint32_t p, std::uint32_t pneg) {
  const __m256i vpp = _mm256_set1_epi32(static_cast<int>(p)), vn = _mm256_set1_epi32(static_cast<int>(pneg));
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) st(a + i, v_mont(ld(a + i), ld(b + i), vpp, vn));
  for (; i < len; ++i) a[i] = ntt::mul_mont(a[i], b[i], p, pneg);
}

__attribute__((target("avx2"))) void mul_const_avx2(std::uint32_t* a, std::size_t len, std::uint32_t w,
                                                    std::uint32_t wpre, std::uint32_t p) {
  const __m256i vw = _mm256_set1_epi32(static_cast<int>(w)), vwp = _mm256_set1_epi32(static_cast<int>(wpre)),
                vpp = _mm256_set1_epi32(static_cast<int>(p));
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) st(a + i, v_shoup(ld(a + i), vw, vwp, vpp));
  for (; i < len; ++i) a[i] = ntt::mul_shoup(a[i], w, wpre, p);
}

}  // namespace

namespace detail {
namespace {
std::atomic<int> g_mutant{0};
}
void ntt_set_mutant(int m) { g_mutant.store(m, std::memory_order_relaxed); }
int ntt_mutant() { return g_mutant.load(std::memory_order_relaxed); }
}  // namespace detail

void ntt_forward(std::uint32_t* a, const NttTable& t) {
  if (t.log_len >= 2 && detail::ntt_mutant() == 2) {  // mutant: ω_L^1 of the first stage replaced by 2·ω_L^1
    std::vector<std::uint32_t> w = t.w, wp = t.wpre;
    const std::size_t i = (std::size_t{1} << (t.log_len - 1)) + 1;
    w[i] = ntt::mulmod(w[i], 2, t.p);
    wp[i] = ntt::shoup_pre(w[i], t.p);
    return ntt::ntt_forward_scalar(a, t.log_len, w.data(), wp.data(), t.p);
  }
  if (t.log_len >= 4 && ntt_isa() == NttIsa::Avx2) return forward_avx2(a, t);
  ntt::ntt_forward_scalar(a, t.log_len, t.w.data(), t.wpre.data(), t.p);
}

void ntt_inverse(std::uint32_t* a, const NttTable& t) {
  if (t.log_len >= 4 && ntt_isa() == NttIsa::Avx2) return inverse_avx2(a, t);
  ntt::ntt_inverse_scalar(a, t.log_len, t.iw.data(), t.iwpre.data(), t.p);
}

void ntt_mul_const(std::uint32_t* a, std::size_t len, std::uint32_t w, std::uint32_t wpre, std::uint32_t p) {
  if (ntt_isa() == NttIsa::Avx2) return mul_const_avx2(a, len, w, wpre, p);
  for (std::size_t i = 0; i < len; ++i) a[i] = ntt::mul_shoup(a[i], w, wpre, p);
}

void ntt_pointwise(std::uint32_t* a, const std::uint32_t* b, std::size_t len, std::uint32_t p) {
  const std::uint32_t pneg = ntt::mont_pneg(p);
  if (ntt_isa() == NttIsa::Avx2) return pointwise_avx2(a, b, len, p, pneg);
  ntt::pointwise_mont_scalar(a, b, len, p, pneg);
}

}  // namespace cz
