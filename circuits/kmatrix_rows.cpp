#include "circuits/kmatrix_rows.h"

#include "tensor/kmatrix_forms.h"

#include <algorithm>
#include <stdexcept>

namespace cz::circuits {

namespace {

// One butterfly factor matrix of stride r on channel 0 rows [0, m) (kmatrix_rows.h): copy, move.
// blocks: the pair (a, c = a + r) with A = a's own, B = c into a, C = a into c, D = c's own.
void append_factor(Model& model, const ButterflyFactor<Rat>& f, bool transposed, std::size_t keep) {
  const std::size_t m = f.n, Np = model.inner_N, r = f.stride();
  BaseConvLayer copy = zero_baseconv(model), move = zero_baseconv(model);
  copy.h(0, 0) = Rat(1), copy.h(2 * m, 0) = Rat(1), copy.h(4 * m, 0) = Rat(1);
  for (std::size_t p = 0; p < m / 2; ++p) {
    const std::size_t a = f.lower_of(p), c = a + r;
    const Rat& B = transposed ? f.d3[p] : f.d2[p];
    const Rat& C = transposed ? f.d2[p] : f.d3[p];
    copy.b1(a, 0) = f.d1[p], copy.b1(c, 0) = f.d4[p];
    copy.b1(2 * m + a, 0) = C;  // moves down by r to c
    copy.b1(4 * m + c, 0) = B;  // moves up by r to a
  }
  move.h(0, 0) = Rat(1);
  move.h((Np - 2 * m + r) % Np, 0) += Rat(1);
  move.h(Np - 4 * m - r, 0) += Rat(1);
  for (std::size_t i = 0; i < keep; ++i) move.b1(i, 0) = Rat(1);
  model.layers.push_back(std::move(copy));
  model.layers.push_back(std::move(move));
}

}  // namespace

std::size_t append_kmatrix_rows(Model& model, const KMatrix<Rat>& k, std::size_t keep) {
  k.check_shape();
  const std::size_t m = k.inner();
  if (model.conv != ConvMode::Cyclic || model.inner_N < kmatrix_rows(m) || keep > m)
    throw std::invalid_argument("append_kmatrix_rows: needs a cyclic model with inner_N >= 6·e·n̂ and keep <= e·n̂");
  // The factors in the order they act (kmatrix.h): per element M2ᵀ (F_{L−1}ᵀ first), then M1
  // (F_0 first); every factor but the last keeps all m rows.
  std::vector<std::pair<const ButterflyFactor<Rat>*, bool>> order;
  for (const auto& el : k.elements) {
    for (std::size_t j = el.M2.factors.size(); j-- > 0;) order.emplace_back(&el.M2.factors[j], true);
    for (const auto& F : el.M1.factors) order.emplace_back(&F, false);
  }
  for (std::size_t t = 0; t < order.size(); ++t) append_factor(model, *order[t].first, order[t].second, t + 1 == order.size() ? keep : m);
  return 2 * order.size();
}

void append_gather(Model& model, std::size_t one_row) {
  const std::size_t N = model.N, d = model.d, Np = model.inner_N;
  if (Np <= N * d || model.inner_d < d) throw std::invalid_argument("append_gather: needs inner_N > N·d");
  BaseConvLayer shift = zero_baseconv(model), sum = zero_baseconv(model);
  for (std::size_t j = 0; j < d; ++j) {
    shift.h(j * N, j) = Rat(1);
    for (std::size_t r = 0; r < Np; ++r) shift.b1(r, j) = Rat(1);
    sum.W(j, 0) = Rat(1);
  }
  for (std::size_t r = 0; r < Np; ++r) sum.b2(r, 0) = Rat(1);
  if (one_row < Np) sum.b1(one_row, 0) = Rat(1);
  model.layers.push_back(std::move(shift));
  model.layers.push_back(std::move(sum));
}

void append_scatter(Model& model) {
  const std::size_t N = model.N, d = model.d, Np = model.inner_N;
  BaseConvLayer spread = zero_baseconv(model), shift = zero_baseconv(model);
  for (std::size_t j = 0; j < d; ++j) {
    spread.W(0, j) = Rat(1);
    for (std::size_t i = 0; i < N; ++i) spread.b2(j * N + i, j) = Rat(1), shift.b1(i, j) = Rat(1);
    shift.h((Np - j * N) % Np, j) = Rat(1);
  }
  model.layers.push_back(std::move(spread));
  model.layers.push_back(std::move(shift));
}

Model kmatrix_to_model(const KMatrix<Rat>& k, std::size_t N, std::size_t d, const std::string& ring) {
  if (k.n != pad_pow2(N * d)) throw std::invalid_argument("kmatrix_to_model: the K-matrix must act on vec(u), n = 2^⌈log2(N·d)⌉");
  Model model;
  model.ring = ring;
  model.N = N;
  model.d = model.inner_d = d;
  model.inner_N = std::max(kmatrix_rows(k.inner()), N * d + 1);
  model.conv = ConvMode::Cyclic;
  append_gather(model, model.inner_N);
  append_kmatrix_rows(model, k, N * d);  // width 0 (E = I): no layer, the gathered vector is the answer
  append_scatter(model);
  validate(model, "compiled K-matrix model");
  return model;
}

}  // namespace cz::circuits
