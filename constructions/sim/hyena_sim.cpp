#include "constructions/sim/hyena_sim.h"

#include "constructions/primitives/builders.h"

namespace cz::sim {

Model hyena_to_baseconv(const HyenaOperator& op, bool short_conv) {
  validate(op);
  if (!short_conv)
    for (std::size_t t = 0; t < op.N; ++t)
      for (std::size_t c = 0; c < op.hs.cols(); ++c)
        if (op.hs(t, c) != Rat(t == 0 ? 1 : 0)) throw std::invalid_argument("hyena_to_baseconv: h_s is not δ0, the short-conv layer is needed");
  const std::size_t N = op.N, d = op.d, k = op.order, D = (k + 1) * d;
  Model m = build::shell(N, d, ConvMode::Causal);
  m.inner_d = D;
  BaseConvLayer lin = zero_baseconv(m);  // (x·W_A + 0) ⊙ (0 ∗ x + 1)
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t c = 0; c < D; ++c) lin.W(j, c) = op.W(j, c);
  for (auto& x : lin.b2.data()) x = Rat(1);
  m.layers.push_back(std::move(lin));
  BaseConvLayer conv = zero_baseconv(m);  // (0 + 1) ⊙ (h_s ∗ x + 0)
  for (auto& x : conv.b1.data()) x = Rat(1);
  conv.h = op.hs;
  if (short_conv) m.layers.push_back(std::move(conv));
  for (std::size_t l = 1; l <= k; ++l) {
    BaseConvLayer g = zero_baseconv(m);
    for (std::size_t j = 0; j < d; ++j) g.W(l * d + j, j) = Rat(1);  // p^ℓ into block 0
    for (std::size_t c = (l + 1) * d; c < D; ++c) g.W(c, c) = Rat(1);  // blocks m > ℓ kept
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = 0; j < d; ++j) g.h(i, j) = op.h[l - 1](i, j);
      for (std::size_t c = d; c < D; ++c) g.b2(i, c) = Rat(1);
    }
    m.layers.push_back(std::move(g));
  }
  return m;
}

}  // namespace cz::sim
