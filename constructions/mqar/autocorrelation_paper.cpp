// variant=paper of mqar/autocorrelation: the published general-t row stacking (Zoology H.8, the
// display after eq 34), transcribed as literally as a BaseConv model allows; see
// autocorrelation.h for the layers and spec Errata E2 for why it cannot work causally for t >= 2
// (K' sits in the bottom block, causal convolution only moves rows down, and the readout is the
// top block).
#include <stdexcept>

#include "constructions/mqar/autocorrelation.h"

namespace cz::mqarc {

SparseModel build_paper(const mqar::Instance& x, const std::vector<std::size_t>& lags, std::size_t t, ConvMode conv,
                        PaperOffset off) {
  const std::size_t N = x.N(), c = x.c, NN = N * t;
  if (t == 0 || lags.size() > t) throw std::invalid_argument("build_paper: need 1 <= lags.size() <= t");
  if (conv == ConvMode::Anticausal) throw std::invalid_argument("build_paper: causal or cyclic only");
  SparseModel m;
  m.N = N;
  m.d = c;
  m.inner_N = NN;
  m.inner_d = 3 * c;
  m.conv = conv;
  const std::size_t V = 0, K = c, Q = 2 * c;
  const auto MK = x.key_mask(), MV = x.value_mask(), MQ = x.query_mask();
  // Adds tap k (k >= N' is dropped causally, wrapped cyclically).
  auto tap = [&](SparseMat& h, std::size_t k, std::size_t ch) {
    if (k >= NN) {
      if (conv != ConvMode::Cyclic) return;
      k %= NN;
    }
    h.add(k, ch, 1);
  };
  const std::size_t offset = off == PaperOffset::Printed ? N / 3 : N;

  // 1. replicate u into [V | K | Q].
  SparseLayer& L1 = m.baseconv();
  for (std::size_t a = 0; a < c; ++a) {
    for (std::size_t slot : {V, K, Q}) L1.W.add(a, slot + a, 1);
    for (std::size_t r = 0; r < NN; ++r)
      for (std::size_t slot : {V, K, Q}) L1.b2.add(r, slot + a, 1);
  }
  // 2. Q' = [Q; ...; Q], K' = [0; ...; 0; K], V' = [0; ...; 0; V] (eq 20 masks, stacked rows).
  SparseLayer& L2 = m.baseconv();
  for (std::size_t a = 0; a < c; ++a) {
    for (std::size_t b = 0; b < t; ++b) {
      tap(L2.h, b * N, Q + a);
      for (std::size_t r = 0; r < N; ++r) L2.b1.add(b * N + r, Q + a, MQ[r]);
    }
    tap(L2.h, (t - 1) * N, K + a);
    tap(L2.h, (t - 1) * N, V + a);
    for (std::size_t r = 0; r < N; ++r) {
      L2.b1.add((t - 1) * N + r, K + a, MK[r]);
      L2.b1.add((t - 1) * N + r, V + a, MV[r]);
    }
  }
  // 3. y' = Q' ⊙ (h^K * K') in slot K; h^V * V' in slot V.
  SparseLayer& L3 = m.baseconv();
  for (std::size_t a = 0; a < c; ++a) {
    L3.W.add(Q + a, K + a, 1);
    for (std::size_t r = 0; r < NN; ++r) L3.b1.add(r, V + a, 1);
    for (std::size_t l = 0; l < lags.size(); ++l) {
      tap(L3.h, lags[l] + l * offset, K + a);
      tap(L3.h, lags[l] - 1 + l * offset, V + a);
    }
  }
  // 4. E' = smear(y') (eq 23), z' = E' ⊙ (h^V * V') (eq 22).
  SparseLayer& L4 = m.baseconv();
  for (std::size_t b = 0; b < c; ++b) {
    L4.h.add(0, V + b, 1);
    for (std::size_t a = 0; a < c; ++a) L4.W.add(K + a, V + b, 1);
  }
  // 5. Linear_sum over the t row blocks: z_out = sum_b X^{bN} * z' in slot V (output channels).
  SparseLayer& L5 = m.baseconv();
  for (std::size_t a = 0; a < c; ++a) {
    for (std::size_t r = 0; r < NN; ++r) L5.b1.add(r, V + a, 1);
    for (std::size_t b = 0; b < t; ++b) tap(L5.h, b * N, V + a);
  }
  return m;
}

}  // namespace cz::mqarc
