#include "constructions/mqar/sparse_model.h"

#include "constructions/memory_estimate.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace cz::mqarc {

void SparseMat::add(std::size_t i, std::size_t j, std::int64_t v) {
  if (i >= rows || j >= cols) throw std::out_of_range("SparseMat::add: entry outside the matrix");
  if (v) nz.emplace_back(i, j, v);
}

SparseLayer& SparseModel::baseconv() {
  SparseLayer L;
  L.W = SparseMat(inner_d, inner_d);
  L.b1 = L.h = L.b2 = SparseMat(inner_N, inner_d);
  layers.push_back(std::move(L));
  return layers.back();
}

SparseLayer& SparseModel::attention(std::size_t f) {
  SparseLayer L;
  L.attention = true;
  L.Wq = L.Wk = SparseMat(inner_d, f);
  L.Wv = SparseMat(inner_d, inner_d);
  layers.push_back(std::move(L));
  return layers.back();
}

namespace {
RatMatrix rat(const SparseMat& s) {
  RatMatrix m(s.rows, s.cols);
  for (const auto& [i, j, v] : s.nz) m(i, j) += Rat(v);
  return m;
}
Matrix<std::int64_t> dense64(const SparseMat& s) {
  Matrix<std::int64_t> m(s.rows, s.cols, 0);
  for (const auto& [i, j, v] : s.nz) m(i, j) = RingI64{}.add(m(i, j), v);
  return m;
}
// Zeroed dense int64 matrices kept per thread and per shape, so that evaluating thousands of
// per-instance models does not allocate and clear d'×d' weights each time (page faults dominated
// the zoology runs). A matrix is handed back zeroed: only its entries that were set are cleared.
class Pool {
 public:
  Matrix<std::int64_t> take(std::size_t rows, std::size_t cols) {
    auto& v = free_[{rows, cols}];
    if (v.empty()) return Matrix<std::int64_t>(rows, cols, 0);
    Matrix<std::int64_t> m = std::move(v.back());
    v.pop_back();
    bytes_ -= rows * cols * sizeof(std::int64_t);
    return m;
  }
  void give(Matrix<std::int64_t>&& m, const SparseMat& s) {
    for (const auto& [i, j, v] : s.nz) m(i, j) = 0;
    const std::size_t bytes = m.rows() * m.cols() * sizeof(std::int64_t);
    if (bytes_ + bytes > (std::size_t{512} << 20)) return;  // keep at most 512 MiB per thread
    bytes_ += bytes;
    free_[{m.rows(), m.cols()}].push_back(std::move(m));
  }

 private:
  std::map<std::pair<std::size_t, std::size_t>, std::vector<Matrix<std::int64_t>>> free_;
  std::size_t bytes_ = 0;
};
thread_local Pool pool;

Matrix<std::int64_t> pooled64(const SparseMat& s) {
  Matrix<std::int64_t> m = pool.take(s.rows, s.cols);
  for (const auto& [i, j, v] : s.nz) m(i, j) = RingI64{}.add(m(i, j), v);
  return m;
}

// Same layout as model/eval.h's to_ring: the dense matrix plus each row's nonzeros by column.
RMatrix<RingI64> rmat64(const SparseMat& s, bool pooled = false) {
  RMatrix<RingI64> r{pooled ? pooled64(s) : dense64(s), {}};
  r.nz_rows.resize(s.rows);
  std::vector<std::vector<std::size_t>> cols(s.rows);
  for (const auto& [i, j, v] : s.nz) cols[i].push_back(j);
  for (std::size_t i = 0; i < s.rows; ++i) {
    std::sort(cols[i].begin(), cols[i].end());
    cols[i].erase(std::unique(cols[i].begin(), cols[i].end()), cols[i].end());
    for (std::size_t j : cols[i])
      if (r.m(i, j)) r.nz_rows[i].emplace_back(j, r.m(i, j));
  }
  return r;
}
}  // namespace

std::uint64_t dense_weights(const SparseModel& s) {
  std::uint64_t w = 0;
  auto add = [&](const SparseMat& x) { w = sat_add(w, sat_mul(x.rows, x.cols)); };
  for (const auto& L : s.layers) {
    if (L.attention) {
      add(L.Wq), add(L.Wk), add(L.Wv);
    } else {
      add(L.W), add(L.b1), add(L.h), add(L.b2);
    }
  }
  return w;
}

void require_dense(const SparseModel& s, std::uint64_t bytes_per_weight, const std::string& what) {
  require_memory(sat_mul(dense_weights(s), bytes_per_weight),
                 what + " (" + std::to_string(dense_weights(s)) + " dense weights: " + std::to_string(s.layers.size()) +
                     " layers at " + std::to_string(s.inner_N) + "x" + std::to_string(s.inner_d) + ")",
                 "-p c");
}

Model to_model(const SparseModel& s) {
  require_dense(s, est::kBuildBytesPerWeight, "the exact model");
  Model m;
  m.N = s.N;
  m.d = s.d;
  m.inner_N = s.inner_N;
  m.inner_d = s.inner_d;
  m.conv = s.conv;
  for (const auto& L : s.layers) {
    if (L.attention) m.layers.emplace_back(LinearAttentionLayer{rat(L.Wq), rat(L.Wk), rat(L.Wv)});
    else m.layers.emplace_back(BaseConvLayer{rat(L.W), rat(L.b1), rat(L.h), rat(L.b2)});
  }
  return m;
}

namespace {
bool sparse_of(const RatMatrix& r, SparseMat& out) {
  out = SparseMat(r.rows(), r.cols());
  for (std::size_t i = 0; i < r.rows(); ++i)
    for (std::size_t j = 0; j < r.cols(); ++j) {
      const Rat& v = r(i, j);
      if (!v.is_integer() || !v.num().fits_int64()) return false;
      if (const std::int64_t x = v.num().to_int64()) out.add(i, j, x);
    }
  return true;
}
}  // namespace

std::optional<SparseModel> sparse_from_model(const Model& m) {
  // Integer arithmetic is the model's own only over Z (or Q with integral weights, checked per
  // weight below); over Fp every sum is reduced mod p, which int64 lanes do not do.
  if (m.ring != "Z" && m.ring != "Q") return std::nullopt;
  SparseModel s;
  s.N = m.N;
  s.d = m.d;
  s.inner_N = m.inner_N;
  s.inner_d = m.inner_d;
  s.conv = m.conv;
  for (const auto& layer : m.layers) {
    SparseLayer L;
    bool ok = false;
    if (const auto* b = std::get_if<BaseConvLayer>(&layer))
      ok = sparse_of(b->W, L.W) && sparse_of(b->b1, L.b1) && sparse_of(b->h, L.h) && sparse_of(b->b2, L.b2);
    else if (const auto* a = std::get_if<LinearAttentionLayer>(&layer)) {
      L.attention = true;
      ok = sparse_of(a->Wq, L.Wq) && sparse_of(a->Wk, L.Wk) && sparse_of(a->Wv, L.Wv);
    }
    if (!ok) return std::nullopt;  // an MLP (ReLU), or a weight that is no int64 integer
    s.layers.push_back(std::move(L));
  }
  return s;
}

namespace {
PreparedModel<RingI64> prepared(const SparseModel& s, bool pooled) {
  PreparedModel<RingI64> p{RingI64{}, s.N, s.d, s.inner_N, s.inner_d, s.conv, {}};
  for (const auto& L : s.layers) {
    if (L.attention)
      p.layers.emplace_back(typename PreparedModel<RingI64>::LinAttn{rmat64(L.Wq), rmat64(L.Wk), rmat64(L.Wv)});
    else
      p.layers.emplace_back(
          typename PreparedModel<RingI64>::BaseConv{rmat64(L.W, pooled), dense64(L.b1), dense64(L.h), dense64(L.b2)});
  }
  return p;
}
// Hands the pooled d'×d' matrices back (zeroed) after an evaluation.
void release(PreparedModel<RingI64>& p, const SparseModel& s) {
  for (std::size_t k = 0; k < p.layers.size(); ++k)
    if (auto* b = std::get_if<typename PreparedModel<RingI64>::BaseConv>(&p.layers[k])) pool.give(std::move(b->W.m), s.layers[k].W);
}
}  // namespace

PreparedModel<RingI64> to_prepared_i64(const SparseModel& s) {
  require_dense(s, est::kCheckBytesPerWeight, "the evaluator's copy of the model");
  return prepared(s, false);
}

Matrix<Int> eval_exact(const SparseModel& s, const Matrix<std::int64_t>& u) {
  try {
    PreparedModel<RingI64> p = prepared(s, true);
    Matrix<std::int64_t> y;
    try {
      y = eval(p, u);
    } catch (...) {
      release(p, s);
      throw;
    }
    release(p, s);
    return map_matrix(y, [](std::int64_t x) { return Int(x); });
  } catch (const Overflow&) {
    return IntegerEvaluator(to_model(s))(u);
  }
}

}  // namespace cz::mqarc
