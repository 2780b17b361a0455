// Primality, NTT-friendliness and cached twiddle tables for the 62-bit direct NTT (ntt64.h).
#include "tensor/ntt64.h"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "tensor/ntt.h"  // detail::ntt_mutant

namespace cz {

bool is_prime64(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t q : {2u, 3u, 5u, 7u, 11u, 13u, 17u, 19u, 23u, 29u, 31u, 37u}) {
    if (n == q) return true;
    if (n % q == 0) return false;
  }
  // n − 1 = d·2^s with d odd.
  std::uint64_t d = n - 1;
  unsigned s = 0;
  while ((d & 1) == 0) d >>= 1, ++s;
  using ntt64::mulmod;
  for (std::uint64_t base : {2ull, 325ull, 9375ull, 28178ull, 450775ull, 9780504ull, 1795265022ull}) {
    const std::uint64_t a = base % n;
    if (a == 0) continue;  // a base that is a multiple of n says nothing (n > 37 here, so n ∤ 2)
    std::uint64_t x = ntt64::powmod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (unsigned r = 1; r < s && composite; ++r) {
      x = mulmod(x, x, n);
      if (x == n - 1) composite = false;
    }
    if (composite) return false;
  }
  return true;
}

bool ntt_friendly64(std::uint64_t p, unsigned log_len) {
  if (p < 3 || p >= (std::uint64_t{1} << 62) || log_len > 61) return false;
  if (((p - 1) & ((std::uint64_t{1} << log_len) - 1)) != 0) return false;
  // The test costs ~10^3 128-bit divisions (tens of µs): remember the last prime this thread
  // certified, since one model calls this with its one prime for every convolution.
  thread_local std::uint64_t last_prime = 0;
  if (p == last_prime) return true;
  if (!is_prime64(p)) return false;
  last_prime = p;
  return true;
}

namespace {
NttTable64 build_table(std::uint64_t p, unsigned log_len) {
  if (!ntt_friendly64(p, log_len))
    throw std::invalid_argument("ntt_table64: p = " + std::to_string(p) + " is not a prime below 2^62 with 2^" +
                                std::to_string(log_len) + " dividing p - 1");
  if (log_len >= 8 * sizeof(std::size_t) - 6) throw std::invalid_argument("ntt_table64: transform length too large");
  using namespace ntt64;
  const std::size_t L = std::size_t{1} << log_len;
  NttTable64 t;
  t.p = p;
  t.log_len = log_len;
  // ω: a primitive L-th root of unity (L ≥ 2: ω^{L/2} = −1 certifies the order is exactly L;
  // ω = a^{(p−1)/L} does so for every quadratic non-residue a, so a few tries suffice).
  std::uint64_t omega = 1;
  if (L >= 2)
    for (std::uint64_t a = 2;; ++a) {
      omega = powmod(a, (p - 1) >> log_len, p);
      if (powmod(omega, L / 2, p) == p - 1) break;
    }
  const std::uint64_t omega_inv = powmod(omega, p - 2, p);
  t.w.assign(L, 0);
  t.wpre.assign(L, 0);
  t.iw.assign(L, 0);
  t.iwpre.assign(L, 0);
  for (std::size_t h = 1; h < L; h <<= 1) {
    // ω_{2h} = ω^{L/(2h)}
    const std::uint64_t b = powmod(omega, L / (2 * h), p), bi = powmod(omega_inv, L / (2 * h), p);
    std::uint64_t x = 1, xi = 1;
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
  const std::uint64_t inv_len = powmod(L % p, p - 2, p);
  const std::uint64_t r = static_cast<std::uint64_t>((static_cast<unsigned __int128>(1) << 64) % p);  // 2^64 mod p
  t.filt_scale = mulmod(inv_len, r, p);
  t.filt_scale_pre = shoup_pre(t.filt_scale, p);
  return t;
}
}  // namespace

const NttTable64& ntt_table64(std::uint64_t p, unsigned log_len) {
  static std::mutex mu;
  static std::map<std::pair<std::uint64_t, unsigned>, std::unique_ptr<NttTable64>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{p, log_len}];
  if (!slot) {
    try {
      slot = std::make_unique<NttTable64>(build_table(p, log_len));
    } catch (...) {
      cache.erase({p, log_len});  // no empty slot left behind for a refused (p, log_len)
      throw;
    }
  }
  return *slot;
}

void ntt64_forward(std::uint64_t* a, const NttTable64& t, bool half_zero) {
  if (t.log_len >= 2 && detail::ntt_mutant() == 3) {  // mutant: ω_L^1 of the first stage replaced by 2·ω_L^1
    std::vector<std::uint64_t> w = t.w, wp = t.wpre;
    const std::size_t i = (std::size_t{1} << (t.log_len - 1)) + 1;
    w[i] = ntt64::mulmod(w[i], 2, t.p);
    wp[i] = ntt64::shoup_pre(w[i], t.p);
    return ntt64::forward_scalar(a, t.log_len, w.data(), wp.data(), t.p, half_zero);
  }
  ntt64::forward_scalar(a, t.log_len, t.w.data(), t.wpre.data(), t.p, half_zero);
}

void ntt64_inverse(std::uint64_t* a, const NttTable64& t, std::size_t n_out) {
  if (n_out > (std::size_t{1} << t.log_len)) throw std::invalid_argument("ntt64_inverse: n_out beyond the transform length");
  ntt64::inverse_scalar(a, t.log_len, t.iw.data(), t.iwpre.data(), t.p, n_out);
}

void ntt64_pointwise(std::uint64_t* a, const std::uint64_t* b, std::size_t len, const NttTable64& t) {
  ntt64::pointwise_mont_scalar(a, b, len, t.p, t.pneg);
}

}  // namespace cz
