#include "model/hyena.h"

#include <random>

namespace cz {

HyenaOperator random_hyena(std::size_t N, std::size_t d, std::size_t order, std::uint64_t seed, std::int64_t range,
                           std::size_t short_taps) {
  std::mt19937_64 g(seed * 0x9e3779b97f4a7c15ULL + 0x4879656eULL);
  auto draw = [&] { return Rat(static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(2 * range + 1)) - range); };
  HyenaOperator op;
  op.N = N, op.d = d, op.order = order;
  const std::size_t C = (order + 1) * d;
  op.W = RatMatrix(d, C);
  for (auto& x : op.W.data()) x = draw();
  op.hs = RatMatrix(N, C);
  for (std::size_t t = 0; t < N && t < short_taps; ++t)
    for (std::size_t c = 0; c < C; ++c) op.hs(t, c) = draw();
  for (std::size_t l = 0; l < order; ++l) {
    RatMatrix h(N, d);
    for (auto& x : h.data()) x = draw();
    op.h.push_back(std::move(h));
  }
  validate(op);
  return op;
}

}  // namespace cz
