#include "model/retnet.h"

#include <random>
#include <string>

namespace cz {

void validate(const RetNetOperator& op) {
  validate_shape(op);
  for (const auto& head : op.rotation)
    for (const auto& [c, s] : head)
      if (c * c + s * s != Rat(1))
        throw std::invalid_argument("retnet: (" + c.str() + ", " + s.str() + ") is not on the unit circle (cos² + sin² must be 1 exactly)");
}

RetNetOperator random_retnet(std::size_t N, std::size_t d, std::size_t heads, std::size_t dk, std::size_t dv,
                             std::uint64_t seed, std::int64_t range, std::size_t gexp, bool rotate) {
  std::mt19937_64 g(seed * 0x9e3779b97f4a7c15ULL + 0x5265744eULL);
  auto fill = [&](std::size_t r, std::size_t c) {
    RatMatrix m(r, c);
    for (auto& x : m.data()) {  // nonzero: a zero weight can silence a head (and the check with it)
      const std::int64_t v = static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(2 * range)) - range;
      x = Rat(v >= 0 ? v + 1 : v);
    }
    return m;
  };
  RetNetOperator op;
  op.N = N, op.d = d, op.heads = heads, op.dk = dk, op.dv = dv;
  op.WQ = fill(d, heads * dk);
  op.WK = fill(d, heads * dk);
  op.WV = fill(d, heads * dv);
  op.WO = fill(heads * dv, d);
  for (std::size_t h = 0; h < heads; ++h) {
    if (gexp == 0) {
      op.gamma.push_back(Rat(1));
    } else {
      Int den(1);
      for (std::size_t k = 0; k < gexp + h; ++k) den *= Int(2);
      op.gamma.push_back(Rat(den - Int(1), den));  // 1 − 2^{−(gexp+h)}
    }
  }
  if (rotate) {
    op.rotation.assign(heads, {});
    for (auto& head : op.rotation)
      for (std::size_t i = 0; i < dk / 2; ++i) {
        const std::int64_t a = 2 + static_cast<std::int64_t>(g() % 3), b = 1 + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(a - 1));
        head.emplace_back(Rat(Int(a * a - b * b), Int(a * a + b * b)), Rat(Int(2 * a * b), Int(a * a + b * b)));
      }
  }
  validate(op);
  return op;
}

bool retnet_integral(const RetNetOperator& op) {
  for (const RatMatrix* W : {&op.WQ, &op.WK, &op.WV, &op.WO})
    for (const Rat& x : W->data())
      if (!x.is_integer()) return false;
  for (const Rat& x : op.gamma)
    if (!x.is_integer()) return false;
  for (const auto& head : op.rotation)
    for (const auto& [c, s] : head)
      if (!c.is_integer() || !s.is_integer()) return false;
  return true;
}

}  // namespace cz
