#include "constructions/sd/based_stages.h"

#include <stdexcept>

#include "constructions/primitives/builders.h"

namespace cz::sdc {

Model g20_model(std::size_t N, unsigned n) {
  const std::size_t d = n + 1, R = 2 * N;
  // The rows counted as "A first": separator index p <= kstar = floor(N/2) - 1 (none when N = 1).
  const long long kstar = static_cast<long long>(N / 2) - 1;
  Model m;
  if (kstar >= 0) {
    // f on the first copy: cumsum (Based Prop F.41), then shift_down by N-1-kstar (Prop F.38),
    // so row N-1 holds cumsum[kstar] = [p <= kstar] in column n.
    Model f = stack(build::cumsum(N, d), build::shift_down(N, d, N - 1 - static_cast<std::size_t>(kstar)));
    m = build::remember(R, d, 0, N, f);  // Based Def F.15 / Prop F.13; rows [N, 2N) keep v
  } else {
    m = build::shell(R, d, ConvMode::Causal);
  }
  // Keep column n at row N-1 and at rows (N + kstar, 2N): the second copy's separator N+p
  // survives exactly when p > kstar, i.e. when B must be moved first.
  BaseConvLayer L = zero_baseconv(m);
  for (std::size_t i = 0; i < R; ++i) {
    const bool keep = (kstar >= 0 && i == N - 1) || static_cast<long long>(i) > static_cast<long long>(N) + kstar;
    L.b1(i, n) = keep ? 1 : 0;
  }
  L.h(0, n) = 1;
  m.layers.push_back(L);
  return m;
}

std::vector<std::int64_t> read_kernel(const Matrix<Int>& Y, std::size_t N, unsigned n, Layout layout) {
  std::vector<std::int64_t> h(2 * N, 0);
  for (std::size_t j = 0; j < 2 * N; ++j) {
    const std::size_t row = layout == Layout::Top ? N - 1 + j : 2 * N - 1 - j;
    if (row < 2 * N) {
      const Int& y = Y(row, n);
      if (!y.fits_int64()) throw std::overflow_error("G.20 kernel entry does not fit int64");
      h[j] = y.to_int64();
    }
  }
  return h;
}

std::vector<std::int64_t> read_kernel(const Matrix<std::int64_t>& Y, std::size_t N, unsigned n, Layout layout) {
  std::vector<std::int64_t> h(2 * N, 0);
  for (std::size_t j = 0; j < 2 * N; ++j) {
    const std::size_t row = layout == Layout::Top ? N - 1 + j : 2 * N - 1 - j;
    if (row < 2 * N) h[j] = Y(row, n);
  }
  return h;
}

Model g21_insert_model(std::size_t N, unsigned n) {
  const std::size_t d = n + 1, R = 2 * N;
  Model f;
  if (N >= 2) {
    f = build::shift_down(N, d, 1);
  } else {  // shift_down by 1 of a single row is 0
    f = build::shell(N, d, ConvMode::Causal);
    f.layers.push_back(zero_baseconv(f));
  }
  Model m = build::remember(R, d, N, R, f);
  // The final (sum) layer computes u·W with a constant second factor; its bias writes the
  // separator [0^n :: 1] into row N, which the shift left empty.
  auto& sum = std::get<BaseConvLayer>(m.layers.back());
  sum.b1(N, n) = 1;
  return m;
}

Model g21_shift_model(std::size_t N, unsigned n, const std::vector<std::int64_t>& kernel, Layout layout) {
  const std::size_t d = n + 1, R = 2 * N;
  if (kernel.size() != R) throw std::invalid_argument("g21_shift_model: kernel must have 2N taps");
  Model m = build::shell(R, d, layout == Layout::Top ? ConvMode::Anticausal : ConvMode::Causal);
  BaseConvLayer L = zero_baseconv(m);
  for (std::size_t i = 0; i < R; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      L.b1(i, j) = 1;
      L.h(i, j) = kernel[i];
    }
  m.layers.push_back(L);
  return m;
}

}  // namespace cz::sdc
