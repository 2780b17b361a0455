#include "model/retnet.h"

#include <random>
#include <string>

namespace cz {

void validate(const RetNetOperator& op) {
  auto shape = [](const RatMatrix& m, std::size_t r, std::size_t c, const std::string& name) {
    if (m.rows() != r || m.cols() != c)
      throw std::invalid_argument("retnet: " + name + " is " + std::to_string(m.rows()) + "×" + std::to_string(m.cols()) + ", want " +
                                  std::to_string(r) + "×" + std::to_string(c));
  };
  if (op.N == 0 || op.d == 0 || op.heads == 0 || op.dk == 0 || op.dv == 0)
    throw std::invalid_argument("retnet: N, d, heads, dk and dv must be positive");
  shape(op.WQ, op.d, op.heads * op.dk, "W_Q");
  shape(op.WK, op.d, op.heads * op.dk, "W_K");
  shape(op.WV, op.d, op.heads * op.dv, "W_V");
  shape(op.WO, op.heads * op.dv, op.d, "W_O");
  if (op.gamma.size() != op.heads) throw std::invalid_argument("retnet: want one decay γ per head");
  if (op.rotation.empty()) return;
  if (op.dk % 2) throw std::invalid_argument("retnet: a rotation needs an even key width dk (pairs of coordinates)");
  if (op.rotation.size() != op.heads) throw std::invalid_argument("retnet: want one rotation per head");
  for (const auto& head : op.rotation) {
    if (head.size() != op.dk / 2) throw std::invalid_argument("retnet: want one (cos θ, sin θ) per pair of key coordinates (dk/2)");
    for (const auto& [c, s] : head)
      if (c * c + s * s != Rat(1))
        throw std::invalid_argument("retnet: (" + c.str() + ", " + s.str() + ") is not on the unit circle (cos² + sin² must be 1 exactly)");
  }
}

std::vector<std::pair<Rat, Rat>> rotation_powers(const std::pair<Rat, Rat>& cs, std::size_t N) {
  std::vector<std::pair<Rat, Rat>> out;
  Rat c(1), s(0);
  for (std::size_t n = 0; n < N; ++n) {
    out.emplace_back(c, s);
    const Rat c2 = c * cs.first - s * cs.second, s2 = s * cs.first + c * cs.second;  // angle addition
    c = c2, s = s2;
  }
  return out;
}

bool retnet_rotated(const RetNetOperator& op) {
  for (const auto& head : op.rotation)
    for (const auto& [c, s] : head)
      if (!s.is_zero() || c != Rat(1)) return true;
  return false;
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
