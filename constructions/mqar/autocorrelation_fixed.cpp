// variant=fixed of mqar/autocorrelation: the causal channel-stacking program (spec §8 [R]),
// (N, 4, c, N, (2t+1)c). Zoology H.8 eq 20-34 per block; see autocorrelation.h.
#include <stdexcept>

#include "constructions/mqar/autocorrelation.h"

namespace cz::mqarc {

SparseModel build_fixed(const mqar::Instance& x, const std::vector<std::size_t>& lags, std::size_t t, ConvMode conv,
                        Mutant mutant) {
  const std::size_t N = x.N(), c = x.c;
  if (t == 0 || lags.size() > t) throw std::invalid_argument("build_fixed: need 1 <= lags.size() <= t");
  for (std::size_t s : lags)
    if (s == 0 || s >= N) throw std::invalid_argument("build_fixed: lags must lie in [1, N)");
  SparseModel m;
  m.N = N;
  m.d = c;
  m.inner_N = N;
  m.inner_d = (2 * t + 1) * c;
  m.conv = conv;
  const std::size_t Q = 0;
  auto K = [&](std::size_t l) { return (1 + l) * c; };
  auto V = [&](std::size_t l) { return (1 + t + l) * c; };
  const auto MK = x.key_mask(), MV = x.value_mask(), MQ = x.query_mask();

  // 1. masks (Zoology eq 20): Q = M_Q ⊙ u via (b1 = M_Q) ⊙ (δ * u); K_l, V_l = (u routed) ⊙ (b2 = mask).
  SparseLayer& L1 = m.baseconv();
  for (std::size_t a = 0; a < c; ++a) {
    L1.h.add(0, Q + a, 1);
    for (std::size_t r = 0; r < N; ++r) L1.b1.add(r, Q + a, MQ[r]);
    for (std::size_t l = 0; l < t; ++l) {
      L1.W.add(a, K(l) + a, 1);
      L1.W.add(a, V(l) + a, 1);
      for (std::size_t r = 0; r < N; ++r) {
        L1.b2.add(r, K(l) + a, MK[r]);
        L1.b2.add(r, V(l) + a, MV[r]);
      }
    }
  }
  // 2. y_l = Q ⊙ shift_down(K, s_l) (eq 26) in slot K_l; shift_down(V, s_l - 1) (eq 27) in slot V_l.
  SparseLayer& L2 = m.baseconv();
  for (std::size_t l = 0; l < t; ++l) {
    std::size_t s = l < lags.size() ? lags[l] : 0;  // 0: an empty block (zero kernels)
    if (mutant == Mutant::WrongLag && l == 0 && s) {  // a plausible wrong lag: same residue mod 3
      if (s + 3 < N) s += 3;
      else if (s > 3) s -= 3;
    }
    for (std::size_t a = 0; a < c; ++a) {
      L2.W.add(Q + a, K(l) + a, 1);
      for (std::size_t r = 0; r < N; ++r) L2.b1.add(r, V(l) + a, 1);
      if (s) {
        L2.h.add(s, K(l) + a, 1);
        L2.h.add(s - 1, V(l) + a, 1);
      }
    }
  }
  // 3. E_l = smear(y_l) (eq 23: all-ones c×c block), z_l = E_l ⊙ V_l (eq 22).
  SparseLayer& L3 = m.baseconv();
  for (std::size_t l = 0; l < t; ++l)
    for (std::size_t b = 0; b < c; ++b) {
      L3.h.add(0, V(l) + b, 1);
      if (mutant == Mutant::DropSmear) L3.W.add(K(l) + b, V(l) + b, 1);  // E_l = y_l: no smear
      else
        for (std::size_t a = 0; a < c; ++a) L3.W.add(K(l) + a, V(l) + b, 1);
    }
  // 4. Linear_sum: output channels (slot Q) = sum_l z_l.
  SparseLayer& L4 = m.baseconv();
  for (std::size_t a = 0; a < c; ++a) {
    for (std::size_t r = 0; r < N; ++r) L4.b2.add(r, Q + a, 1);
    for (std::size_t l = 0; l < t; ++l) L4.W.add(V(l) + a, Q + a, 1);
  }
  return m;
}

}  // namespace cz::mqarc
