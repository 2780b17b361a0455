// A model written as lists of nonzero weights. The MQAR constructions build their (instance-
// dependent) models in this form once, then turn it into
//   - the exact Model (Rat weights) that is reported and exported, and
//   - the int64 PreparedModel that the per-instance checks evaluate,
// both from the same entries, so the checked model is the reported one. Going through Rat for a
// width of thousands of channels costs ~10 library calls per dense weight (zoology c = 66, t = 8
// gives d' = 1122: 5M weights per instance); this path skips that. Duplicate entries add up.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "exact/integer.h"
#include "model/eval.h"
#include "model/model.h"

namespace cz::mqarc {

struct SparseMat {
  std::size_t rows = 0, cols = 0;
  std::vector<std::tuple<std::size_t, std::size_t, std::int64_t>> nz;
  SparseMat() = default;
  SparseMat(std::size_t r, std::size_t c) : rows(r), cols(c) {}
  void add(std::size_t i, std::size_t j, std::int64_t v);  // throws std::out_of_range
};

struct SparseLayer {
  bool attention = false;      // false: BaseConv (W, b1, h, b2); true: LinearAttention (Wq, Wk, Wv)
  SparseMat W, b1, h, b2;      // BaseConv
  SparseMat Wq, Wk, Wv;        // LinearAttention
};

struct SparseModel {
  std::size_t N = 0, d = 0, inner_N = 0, inner_d = 0;
  ConvMode conv = ConvMode::Causal;
  std::vector<SparseLayer> layers;
  SparseLayer& baseconv();                                  // appends a zero BaseConv layer of the inner shape
  SparseLayer& attention(std::size_t f);                    // appends a LinearAttention layer (d'×f, d'×f, d'×d')
};

// Dense weights of the model once it is a Model (every matrix rows × cols, saturating).
std::uint64_t dense_weights(const SparseModel& s);
// Refuses (InputError, where "-p c") `what` at bytes_per_weight × dense_weights(s) above the
// memory budget; to_model and to_prepared_i64 call it before allocating.
void require_dense(const SparseModel& s, std::uint64_t bytes_per_weight, const std::string& what);
Model to_model(const SparseModel& s);
// The other way, for a model that came from elsewhere (a user's file): nullopt unless the ring is Z
// or Q, every layer is BaseConv or LinearAttention and every weight an integer that fits int64.
std::optional<SparseModel> sparse_from_model(const Model& m);
PreparedModel<RingI64> to_prepared_i64(const SparseModel& s);  // throws Overflow if a sum leaves int64
// Exact evaluation: the int64 prepared model, and on Overflow the whole computation in Z.
Matrix<Int> eval_exact(const SparseModel& s, const Matrix<std::int64_t>& u);

}  // namespace cz::mqarc
