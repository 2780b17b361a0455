// conv_fast: the multi-modular NTT (tensor/ntt.h) where its certified bound allows, else FLINT.
#include "tensor/conv.h"
#include "tensor/ntt.h"

namespace cz {

Matrix<Int> conv_fast(const RingZ& Z, const Matrix<Int>& h, const Matrix<Int>& u, ConvMode mode) {
  if (auto y = conv_ntt(h, u, mode)) return std::move(*y);
  return conv_flint(Z, h, u, mode);
}

Matrix<std::uint64_t> conv_fast(const RingFp& ring, const Matrix<std::uint64_t>& h, const Matrix<std::uint64_t>& u,
                                ConvMode mode) {
  if (auto y = conv_ntt_fp(ring.prime(), h, u, mode)) return std::move(*y);
  return conv_flint(ring, h, u, mode);
}

Matrix<Rat> conv_fast(const RingQ&, const Matrix<Rat>& h, const Matrix<Rat>& u, ConvMode mode) {
  // Clear denominators: D·h and E·u are integral, so h*u = (Dh * Eu) / (D·E) exactly.
  auto lcm_den = [](const Matrix<Rat>& m) {
    Int l(1);
    for (const auto& x : m.data())
      if (!(x.den() == Int(1))) l = Int::divexact(l * x.den(), Int::gcd(l, x.den()));
    return l;
  };
  Int D = lcm_den(h), E = lcm_den(u);
  auto scale = [](const Matrix<Rat>& m, const Int& s) {
    return map_matrix(m, [&](const Rat& x) { return Int::divexact(x.num() * s, x.den()); });
  };
  Matrix<Int> yi = conv_fast(RingZ{}, scale(h, D), scale(u, E), mode);
  Int DE = D * E;
  return map_matrix(yi, [&](const Int& x) { return Rat(x, DE); });
}

Matrix<std::int64_t> conv_fast(const RingI64&, const Matrix<std::int64_t>& h,
                               const Matrix<std::int64_t>& u, ConvMode mode) {
  auto widen = [](const Matrix<std::int64_t>& m) { return map_matrix(m, [](std::int64_t x) { return Int(x); }); };
  if (auto y = conv_ntt_i64(h, u, mode)) return std::move(*y);  // throws Overflow
  Matrix<Int> yi = conv_flint(RingZ{}, widen(h), widen(u), mode);
  return map_matrix(yi, [](const Int& x) { return RingI64{}.from_Int(x); });  // throws Overflow
}

}  // namespace cz
