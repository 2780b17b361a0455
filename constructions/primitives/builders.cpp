#include "constructions/primitives/builders.h"

#include <stdexcept>

namespace cz::build {

Model shell(std::size_t N, std::size_t d, ConvMode conv) {
  Model m;
  m.N = m.inner_N = N;
  m.d = m.inner_d = d;
  m.conv = conv;
  return m;
}

namespace {
void fill(RatMatrix& m, const Rat& v) {
  for (auto& x : m.data()) x = v;
}
void tap(RatMatrix& h, std::size_t k) {
  for (std::size_t j = 0; j < h.cols(); ++j) h(k, j) = 1;
}
}  // namespace

Model identity(std::size_t N, std::size_t d, ConvMode conv) {
  Model m = shell(N, d, conv);
  BaseConvLayer L = zero_baseconv(m);
  fill(L.b1, 1);
  tap(L.h, 0);
  m.layers.push_back(L);
  return m;
}

Model shift_down(std::size_t N, std::size_t d, std::size_t s, ConvMode conv) {
  if (s >= N) throw std::invalid_argument("shift_down needs s < N");
  Model m = shell(N, d, conv);
  BaseConvLayer L = zero_baseconv(m);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < d; ++j) L.b1(i, j) = (conv == ConvMode::Cyclic && i < s) ? 0 : 1;
  tap(L.h, s);
  m.layers.push_back(L);
  return m;
}

Model shift_up(std::size_t N, std::size_t d, std::size_t s, ConvMode conv) {
  if (s >= N || s == 0) throw std::invalid_argument("shift_up needs 0 < s < N");
  Model m = shell(N, d, conv);
  BaseConvLayer L = zero_baseconv(m);
  if (conv == ConvMode::Anticausal) {
    fill(L.b1, 1);
    tap(L.h, s);
  } else {  // cyclic weights; under causal convolution they are wrong, as they must be
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < d; ++j) L.b1(i, j) = i + s < N ? 1 : 0;
    tap(L.h, N - s);
  }
  m.layers.push_back(L);
  return m;
}

Model cumsum(std::size_t N, std::size_t d) {
  Model m = shell(N, d, ConvMode::Causal);
  BaseConvLayer L = zero_baseconv(m);
  fill(L.b1, 1);
  fill(L.h, 1);
  m.layers.push_back(L);
  return m;
}

Model add_blocks(std::size_t N, std::size_t d) {
  if (d % 2) throw std::invalid_argument("add needs an even d = 2k");
  Model m = shell(N, d, ConvMode::Causal);
  BaseConvLayer L = zero_baseconv(m);
  for (std::size_t j = 0; j < d / 2; ++j) L.W(j, j) = L.W(d / 2 + j, j) = 1;
  fill(L.b2, 1);
  m.layers.push_back(L);
  return m;
}

Model hadamard_blocks(std::size_t N, std::size_t d, ConvMode conv) {
  if (d % 2) throw std::invalid_argument("hadamard needs an even d = 2k");
  Model m = shell(N, d, conv);
  BaseConvLayer L = zero_baseconv(m);
  for (std::size_t j = 0; j < d / 2; ++j) {
    L.W(d / 2 + j, j) = 1;  // z_j into slot j
    L.h(0, j) = 1;          // δ on slot j: x_j
  }
  m.layers.push_back(L);
  return m;
}

Model remember(std::size_t N, std::size_t d, std::size_t s, std::size_t t, const Model& f) {
  if (!(s < t && t <= N)) throw std::invalid_argument("remember needs s < t <= N");
  if (f.N != t - s || f.d != d) throw std::invalid_argument("remember: f must map (t-s)×d inputs");
  if (f.conv != ConvMode::Causal) throw std::invalid_argument("remember: f must be causal (time invariance + causality)");
  const std::size_t df = f.inner_d, nf = f.inner_N;
  Model m = shell(N, d, ConvMode::Causal);
  m.inner_d = df + d;
  m.ring = f.ring;
  auto in_window = [&](std::size_t i) { return i >= s && i < t; };
  // 1. split: [M⊙u | (1-M)⊙u]
  BaseConvLayer split = zero_baseconv(m);
  for (std::size_t j = 0; j < d; ++j) split.W(j, j) = split.W(j, df + j) = 1;
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = 0; j < d; ++j) split.b2(i, j) = in_window(i) ? 1 : 0;
    for (std::size_t j = 0; j < d; ++j) split.b2(i, df + j) = in_window(i) ? 0 : 1;
  }
  m.layers.push_back(split);
  // 2. f on block 1 (biases shifted by s, zero outside [s,t)), identity on block 2
  for (const auto& layer : f.layers) {
    const auto* fl = std::get_if<BaseConvLayer>(&layer);
    if (!fl) throw std::invalid_argument("remember: f must consist of BaseConv layers");
    BaseConvLayer L = zero_baseconv(m);
    for (std::size_t a = 0; a < df; ++a)
      for (std::size_t b = 0; b < df; ++b) L.W(a, b) = fl->W(a, b);
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = 0; j < df; ++j) {
        if (in_window(i) && i - s < nf) {
          L.b1(i, j) = fl->b1(i - s, j);
          L.b2(i, j) = fl->b2(i - s, j);
        }
        if (i < nf) L.h(i, j) = fl->h(i, j);
      }
      for (std::size_t j = 0; j < d; ++j) L.b1(i, df + j) = 1;
    }
    for (std::size_t j = 0; j < d; ++j) L.h(0, df + j) = 1;
    m.layers.push_back(L);
  }
  // 3. sum the blocks into channels [0, d)
  BaseConvLayer sum = zero_baseconv(m);
  for (std::size_t j = 0; j < d; ++j) sum.W(j, j) = sum.W(df + j, j) = 1;
  for (auto& x : sum.b2.data()) x = 1;
  m.layers.push_back(sum);
  return m;
}

}  // namespace cz::build
