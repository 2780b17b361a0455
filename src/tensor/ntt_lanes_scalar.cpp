// Lane-batched NTT kernels in plain C++ (W = 8 lanes in an array; the compiler vectorises what it
// can for the baseline target), the path for CPUs without AVX2, and the reference the vector
// kernels are tested against (ntt_arith.h's functions lane by lane).
#include <bit>
#include <climits>
#include <type_traits>

#include "tensor/ntt_arith.h"
#include "tensor/ntt_lanes.h"

namespace cz::ntt_lanes {
namespace {

struct V {
  static constexpr unsigned W = 8;
  static constexpr unsigned kRadix = 2;  // stages per register pass (see LaneConv::radix)
  struct R {
    std::uint32_t v[W];
  };
  template <class F>
  static R map(F&& f) {
    R r;
    for (unsigned l = 0; l < W; ++l) r.v[l] = f(l);
    return r;
  }
  static R load(const std::uint32_t* a) { return map([&](unsigned l) { return a[l]; }); }
  static void store(std::uint32_t* a, R x) {
    for (unsigned l = 0; l < W; ++l) a[l] = x.v[l];
  }
  static R zero() { return map([](unsigned) { return 0u; }); }
  static R set1(std::uint32_t x) { return map([&](unsigned) { return x; }); }
  static R add(R a, R b) { return map([&](unsigned l) { return a.v[l] + b.v[l]; }); }
  static R sub(R a, R b) { return map([&](unsigned l) { return a.v[l] - b.v[l]; }); }
  static R minu(R a, R b) { return map([&](unsigned l) { return a.v[l] < b.v[l] ? a.v[l] : b.v[l]; }); }
  static R mullo(R a, R b) { return map([&](unsigned l) { return a.v[l] * b.v[l]; }); }
  static R mulhi(R a, R b) {
    return map([&](unsigned l) { return static_cast<std::uint32_t>((std::uint64_t{a.v[l]} * b.v[l]) >> 32); });
  }
  static R mont(R a, R b, R p, R pneg) {
    return map([&](unsigned l) { return ntt::mul_mont(a.v[l], b.v[l], p.v[0], pneg.v[0]); });
  }
  static R from_i64(const std::int64_t* s, unsigned cnt, std::uint32_t p) {
    return map([&](unsigned l) {
      if (l >= cnt) return 0u;
      const std::int64_t x = s[l];
      return static_cast<std::uint32_t>(x < 0 ? x + p : x);
    });
  }
  // Per-lane min, max and Σ|x| of int64 rows (plain loops: this ISA has no 64-bit min/max).
  struct Acc {
    std::int64_t mn[W], mx[W];
    std::uint64_t l1[W];
  };
  static Acc acc_init() {
    Acc a;
    for (unsigned l = 0; l < W; ++l) a.mn[l] = INT64_MAX, a.mx[l] = INT64_MIN, a.l1[l] = 0;
    return a;
  }
  static void acc_row(Acc& a, const std::int64_t* s, unsigned cnt) {
    for (unsigned l = 0; l < cnt; ++l) {
      const std::int64_t v = s[l];
      a.mn[l] = v < a.mn[l] ? v : a.mn[l];
      a.mx[l] = v > a.mx[l] ? v : a.mx[l];
      a.l1[l] += v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    }
  }
  static void acc_out(const Acc& a, std::int64_t* mn, std::int64_t* mx, std::uint64_t* l1) {
    for (unsigned l = 0; l < W; ++l) mn[l] = a.mn[l], mx[l] = a.mx[l], l1[l] = a.l1[l];
  }
  static void to_i64(R x, std::uint32_t p, std::int64_t* d, unsigned cnt) {
    for (unsigned l = 0; l < cnt; ++l) d[l] = x.v[l] > (p - 1) / 2 ? std::int64_t{x.v[l]} - p : std::int64_t{x.v[l]};
  }
};

#include "tensor/ntt_lanes_impl.h"

}  // namespace

const Kernels& kernels_scalar() {
  static const Kernels k{V::W, lanes_conv<V>, lanes_forward<V>, lanes_fill<V>, lanes_emit<V>, lanes_fold<V>};
  return k;
}


}  // namespace cz::ntt_lanes
