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
}

RetNetOperator random_retnet(std::size_t N, std::size_t d, std::size_t heads, std::size_t dk, std::size_t dv,
                             std::uint64_t seed, std::int64_t range, std::size_t gexp) {
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
  validate(op);
  return op;
}

bool retnet_integral(const RetNetOperator& op) {
  for (const RatMatrix* W : {&op.WQ, &op.WK, &op.WV, &op.WO})
    for (const Rat& x : W->data())
      if (!x.is_integer()) return false;
  for (const Rat& x : op.gamma)
    if (!x.is_integer()) return false;
  return true;
}

}  // namespace cz
