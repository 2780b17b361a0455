// See gate_i64.h. One pass: the kernel computes in wrapping unsigned 64-bit arithmetic (defined
// behaviour, and equal to the exact value whenever the exact value fits int64) while it records
// the column ranges of x, b1, b2 and c that the bound needs; the bound is checked after the pass.
// (Scanning the four N×d operands first for the bound cost as much as the kernel: 32 MiB of reads
// at N = 2^16, d = 16, measured.) The compiler vectorises the loops; target_clones picks the
// widest the CPU has at load time (AVX-512 has 64-bit lane products).
#include "tensor/gate_i64.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace cz {
namespace {

using u128 = unsigned __int128;
using u64 = std::uint64_t;
constexpr u128 kLimit = u128{1} << 63;  // every certified quantity stays below this

u64 uabs(std::int64_t v) { return v < 0 ? 0 - static_cast<u64>(v) : static_cast<u64>(v); }
u128 sat(u128 v) { return std::min(v, kLimit); }  // bounds saturate at 2^63 (a failed certificate)

struct Ranges {  // per column signed min and max (|v| ≤ max(|min|, |max|); min/max vectorise)
  std::vector<std::int64_t> lo, hi;
  explicit Ranges(std::size_t n) : lo(n, 0), hi(n, 0) {}
  u64 maxabs(std::size_t j) const { return std::max(uabs(lo[j]), uabs(hi[j])); }
};

// c_i ← (b1_i + Σ_k x_ik W_k) ⊙ (c_i + b2_i) mod 2^64, row by row (acc: one projected row).
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default"))) void gate_rows(
    const std::int64_t* __restrict x, const std::int64_t* __restrict W, const std::int64_t* __restrict b1,
    const std::int64_t* __restrict b2, std::int64_t* __restrict c, u64* __restrict acc, std::size_t n, std::size_t d,
    std::size_t e, std::int64_t* __restrict xlo, std::int64_t* __restrict xhi, std::int64_t* __restrict b1lo,
    std::int64_t* __restrict b1hi, std::int64_t* __restrict glo, std::int64_t* __restrict ghi,
    std::int64_t* __restrict b2lo, std::int64_t* __restrict b2hi) {
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t *xr = x + i * d, *b1r = b1 + i * e, *b2r = b2 + i * e;
    std::int64_t* cr = c + i * e;
    for (std::size_t k = 0; k < d; ++k) {
      xlo[k] = xr[k] < xlo[k] ? xr[k] : xlo[k];
      xhi[k] = xr[k] > xhi[k] ? xr[k] : xhi[k];
    }
    for (std::size_t j = 0; j < e; ++j) {
      acc[j] = static_cast<u64>(b1r[j]);
      b1lo[j] = b1r[j] < b1lo[j] ? b1r[j] : b1lo[j];
      b1hi[j] = b1r[j] > b1hi[j] ? b1r[j] : b1hi[j];
    }
    for (std::size_t k = 0; k < d; ++k) {
      const u64 xik = static_cast<u64>(xr[k]);
      for (std::size_t j = 0; j < e; ++j) acc[j] += xik * static_cast<u64>(W[k * e + j]);
    }
    for (std::size_t j = 0; j < e; ++j) {
      const std::int64_t cj = cr[j], bj = b2r[j];
      glo[j] = cj < glo[j] ? cj : glo[j];
      ghi[j] = cj > ghi[j] ? cj : ghi[j];
      b2lo[j] = bj < b2lo[j] ? bj : b2lo[j];
      b2hi[j] = bj > b2hi[j] ? bj : b2hi[j];
      cr[j] = static_cast<std::int64_t>(acc[j] * (static_cast<u64>(cj) + static_cast<u64>(bj)));
    }
  }
}

}  // namespace

bool baseconv_gate_i64(const Matrix<std::int64_t>& x, const Matrix<std::int64_t>& W, const Matrix<std::int64_t>& b1,
                       const Matrix<std::int64_t>& b2, Matrix<std::int64_t>& c) {
  const std::size_t n = x.rows(), d = x.cols(), e = W.cols();
  if (W.rows() != d || b1.rows() != n || b1.cols() != e || b2.rows() != n || b2.cols() != e || c.rows() != n ||
      c.cols() != e)
    throw std::invalid_argument("baseconv_gate_i64: shapes differ");
  Ranges X(d), B1(e), C(e), B2(e);
  std::vector<u64> acc(e);
  gate_rows(x.data().data(), W.data().data(), b1.data().data(), b2.data().data(), c.data().data(), acc.data(), n, d,
            e, X.lo.data(), X.hi.data(), B1.lo.data(), B1.hi.data(), C.lo.data(), C.hi.data(), B2.lo.data(),
            B2.hi.data());
  for (std::size_t j = 0; j < e; ++j) {
    u128 A = B1.maxabs(j);
    for (std::size_t k = 0; k < d; ++k) A = sat(A + sat(static_cast<u128>(X.maxabs(k)) * uabs(W(k, j))));
    const u128 G = sat(static_cast<u128>(C.maxabs(j)) + B2.maxabs(j));  // ≥ max_i |c_ij + b2_ij|
    if (A >= kLimit || G >= kLimit || A * G >= kLimit) return false;     // both < 2^63: no u128 wrap
  }
  return true;
}

}  // namespace cz
