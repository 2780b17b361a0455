// The certified bound on |h*u| per channel and the number of CRT primes it needs (NttConvPlan),
// the CRT constants, and the plan's public entry points (ntt.h).
#include "tensor/ntt_bound.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace cz {
namespace ntt_detail {

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

Crt::Crt() : p(ntt_primes()) {
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

std::vector<Int> bounds_of(const std::vector<std::uint64_t>& maxu, const std::vector<u128>& l1) {
  std::vector<Int> b(maxu.size());
  for (std::size_t j = 0; j < maxu.size(); ++j) b[j] = int_from_u128(maxu[j]) * int_from_u128(l1[j]);
  return b;
}
// Per-channel signed min and max (vectorisable; max |x| = max(|min|, |max|)).
namespace {
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
}  // namespace
std::vector<std::uint64_t> col_maxabs(const Matrix<std::int64_t>& u) {
  const std::size_t d = u.cols();
  std::vector<std::int64_t> lo(d, 0), hi(d, 0);
  col_minmax(u.data().data(), u.rows(), d, lo.data(), hi.data());
  std::vector<std::uint64_t> m(d);
  for (std::size_t j = 0; j < d; ++j) m[j] = std::max(uabs(lo[j]), uabs(hi[j]));
  return m;
}
// Per-channel Σ|x| as two 64-bit sums of the 32-bit halves of |x| (vectorisable; exact for up to
// 2^32 rows per call, and the caller passes at most 2^31): Σ|x| = hi·2^32 + lo.
namespace {
__attribute__((target_clones("avx2", "default"))) void col_abs_sums(const std::int64_t* __restrict x, std::size_t n,
                                                                    std::size_t d, std::uint64_t* __restrict lo,
                                                                    std::uint64_t* __restrict hi) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      const std::int64_t v = x[i * d + j];
      const std::uint64_t a = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      lo[j] += a & 0xffffffffu;
      hi[j] += a >> 32;
    }
}
}  // namespace
std::vector<u128> col_l1(const Matrix<std::int64_t>& h) {
  const std::size_t d = h.cols(), chunk = std::size_t{1} << 31;
  std::vector<u128> s(d, 0);
  std::vector<std::uint64_t> lo(d), hi(d);
  for (std::size_t i0 = 0; i0 < h.rows(); i0 += chunk) {
    std::fill(lo.begin(), lo.end(), 0), std::fill(hi.begin(), hi.end(), 0);
    col_abs_sums(h.row(i0), std::min(chunk, h.rows() - i0), d, lo.data(), hi.data());
    for (std::size_t j = 0; j < d; ++j) s[j] += (static_cast<u128>(hi[j]) << 32) + lo[j];
  }
  return s;
}

}  // namespace ntt_detail

using namespace ntt_detail;

unsigned ntt_log_len(std::size_t n, ConvMode mode) {
  if (n == 0) return 0;
  if (mode == ConvMode::Cyclic && (n & (n - 1)) == 0) return static_cast<unsigned>(__builtin_ctzll(n));
  unsigned lg = 0;
  while ((std::size_t{1} << lg) < 2 * n - 1) ++lg;
  return lg;
}

std::string NttConvPlan::str() const {
  std::ostringstream os;
  if (field) {
    os << "ntt conv " << to_string(mode) << " n=" << n << " d=" << d << " L=2^" << log_len << " direct in F_p, p="
       << field << " (" << (field < (1u << 30) ? 32 : 64) << "-bit words, no lift)";
    return os.str();
  }
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

}  // namespace cz
