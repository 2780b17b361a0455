// Internal to src/tensor: the certified output bound, the rule that turns it into a number of CRT
// primes, and the CRT (Garner) lift, for the NTT convolution (conv_ntt.cpp). The lift's inner
// loops are inline here because they run once per output entry.
#pragma once
#include <cstdint>
#include <vector>

#include "exact/integer.h"
#include "tensor/ntt.h"

namespace cz::ntt_detail {

using u128 = unsigned __int128;
using i128 = __int128;
using ntt::red_once;

inline std::uint64_t uabs(std::int64_t x) { return x < 0 ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x); }
Int int_from_u128(u128 x);
Int int_from_i128(i128 x);

// CRT data for the Z primes: Garner constants c[j][i] = p_j^{-1} mod p_i (j < i) with Shoup
// companions, and the products M_k = p_0···p_{k−1} (exact, and as u128 for k ≤ 4: M_4 < 2^120).
struct Crt {
  Crt();
  const std::uint32_t* p;
  std::uint32_t c[kNttMaxPrimes][kNttMaxPrimes], cpre[kNttMaxPrimes][kNttMaxPrimes];
  std::vector<Int> M;            // M[k], k = 0..kNttMaxPrimes
  std::vector<Int> half;         // (M[k] − 1)/2: the largest |y| a k-prime lift represents
  u128 M128[5], half128[5];
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
const Crt& crt();

// The plan for per-channel bounds B_j (see NttConvPlan).
NttConvPlan finish_plan(std::size_t n, std::size_t d, ConvMode mode, std::vector<Int> bound);
std::vector<Int> bounds_of(const std::vector<std::uint64_t>& maxu, const std::vector<u128>& l1);
std::vector<std::uint64_t> col_maxabs(const Matrix<std::int64_t>& u);  // per channel max |u|
std::vector<u128> col_l1(const Matrix<std::int64_t>& h);               // per channel Σ|h|
inline std::uint64_t max_of(const std::vector<std::uint64_t>& v) {
  std::uint64_t m = 0;
  for (std::uint64_t x : v) m = x > m ? x : m;
  return m;
}
template <class A, class B>
inline void check_shapes(const Matrix<A>& h, const Matrix<B>& u) {
  if (h.rows() != u.rows() || h.cols() != u.cols()) throw std::invalid_argument("conv: filter and input shapes differ");
}

}  // namespace cz::ntt_detail
