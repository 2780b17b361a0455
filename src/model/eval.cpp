#include "model/eval.h"

#include "model/eval_scratch.h"

namespace cz {
namespace {
std::optional<PreparedModel<RingI64>> try_fast(const Model& m) {
  try {
    return prepare(RingI64{}, m);
  } catch (const Overflow&) {
    return std::nullopt;
  }
}

Matrix<Int> lift(const Matrix<std::int64_t>& m) {
  return map_matrix(m, [](std::int64_t x) { return Int(x); });
}

RMatrix<RingZ> lift(const RMatrix<RingI64>& r) {
  RMatrix<RingZ> z{lift(r.m), {}};
  z.nz_rows.resize(r.nz_rows.size());
  for (std::size_t i = 0; i < r.nz_rows.size(); ++i)
    for (const auto& [j, w] : r.nz_rows[i]) z.nz_rows[i].emplace_back(j, Int(w));
  return z;
}

// The Z copy of an int64-prepared model: the same weights, entry for entry (the NTT filter is
// the same object: prepare_ntt_filter builds it from the same int64 taps in both rings).
PreparedModel<RingZ> lift(const PreparedModel<RingI64>& p) {
  PreparedModel<RingZ> z{RingZ{}, p.N, p.d, p.inner_N, p.inner_d, p.conv, {}};
  using Z = PreparedModel<RingZ>;
  using I = PreparedModel<RingI64>;
  for (const auto& layer : p.layers) {
    if (auto* b = std::get_if<I::BaseConv>(&layer))
    {
      Z::BaseConv L{lift(b->W), lift(b->b1), lift(b->h), lift(b->b2), b->ntt};
      L.taps = filter_taps(RingZ{}, L.h);
      z.layers.emplace_back(std::move(L));
    }
    else if (auto* f = std::get_if<I::Mlp>(&layer))
      z.layers.emplace_back(Z::Mlp{lift(f->W1), lift(f->B1), lift(f->W2), lift(f->B2)});
    else if (auto* a = std::get_if<I::LinAttn>(&layer))
      z.layers.emplace_back(Z::LinAttn{lift(a->Wq), lift(a->Wk), lift(a->Wv)});
  }
  return z;
}
}  // namespace

IntegerEvaluator::IntegerEvaluator(const Model& m) : fast_(try_fast(m)) {
  if (!fast_) std::call_once(*exact_once_, [&] { exact_.emplace(prepare(RingZ{}, m)); });
}

const PreparedModel<RingZ>& IntegerEvaluator::exact() const {
  std::call_once(*exact_once_, [&] { exact_.emplace(lift(*fast_)); });  // fast_ is set: see the constructor
  return *exact_;
}

Matrix<Int> IntegerEvaluator::operator()(const Matrix<Int>& u) const {
  if (fast_) {
    try {
      Matrix<std::int64_t> u64 = map_matrix(u, [](const Int& x) { return RingI64{}.from_Int(x); });
      if (auto y = try_i64(u64)) return lift(*y);
    } catch (const Overflow&) {
    }
  }
  return eval(exact(), u);
}

Matrix<Int> IntegerEvaluator::operator()(const Matrix<std::int64_t>& u) const {
  if (auto y = try_i64(u)) return lift(*y);
  return eval(exact(), lift(u));
}

std::optional<Matrix<std::int64_t>> IntegerEvaluator::try_i64(const Matrix<std::int64_t>& u) const {
  if (!fast_) return std::nullopt;
  thread_local I64Scratch scratch;  // per thread, reused: the layers allocate nothing once warm
  try {
    const std::vector<std::int64_t>& x = eval_inner_scratch(*fast_, u, scratch);
    Matrix<std::int64_t> y(fast_->N, fast_->d);
    for (std::size_t i = 0; i < fast_->N; ++i)
      for (std::size_t j = 0; j < fast_->d; ++j) y(i, j) = x[i * fast_->inner_d + j];
    return y;
  } catch (const Overflow&) {
    return std::nullopt;
  }
}

}  // namespace cz
