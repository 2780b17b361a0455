// Weight matrices and inputs cross the Python boundary as int64 buffers (numpy arrays), not as
// JSON text entry by entry (issue 26 item 3). A model travels as model-json whose int64 matrices
// are replaced by {"$buffer": i}, index i into a list of row-major int64 buffers; matrices with an
// entry beyond int64 or a fraction stay JSON text (exact, as model-json writes them: decimal
// strings, "p/q"), and the Python side turns those into object arrays of ints and Fractions.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exact/rational.h"
#include "model/model.h"

namespace cz::py_module {

struct Buffer {
  std::size_t rows = 0, cols = 0;
  std::vector<std::int64_t> data;  // row-major
};

// The matrix keys of model-json layers (contract.md, "model-json").
inline bool is_matrix_key(const std::string& k) {
  for (const char* m : {"W", "b1", "h", "b2", "W1", "B1", "W2", "B2", "Wq", "Wk", "Wv"})
    if (k == m) return true;
  return false;
}

// Moves every non-empty all-int64 matrix of model["layers"][*] into `out`, leaving {"$buffer": i}.
inline void extract_buffers(nlohmann::json& model, std::vector<Buffer>& out) {
  if (!model.is_object() || !model.contains("layers") || !model["layers"].is_array()) return;
  for (auto& layer : model["layers"]) {
    if (!layer.is_object()) continue;
    for (auto it = layer.begin(); it != layer.end(); ++it) {
      if (!is_matrix_key(it.key()) || !it->is_array() || it->empty() || !(*it)[0].is_array()) continue;
      Buffer b;
      b.rows = it->size();
      b.cols = (*it)[0].size();
      bool ok = true;
      b.data.reserve(b.rows * b.cols);
      for (const auto& row : *it) {
        ok = ok && row.is_array() && row.size() == b.cols;
        if (!ok) break;
        for (const auto& x : row) {
          ok = x.is_number_integer() && !(x.is_number_unsigned() && x.get<std::uint64_t>() > INT64_MAX);
          if (!ok) break;
          b.data.push_back(x.get<std::int64_t>());
        }
        if (!ok) break;
      }
      if (!ok) continue;
      *it = {{"$buffer", out.size()}};
      out.push_back(std::move(b));
    }
  }
}

// The reverse: {"$buffer": i} in model["layers"][*] becomes the JSON matrix of bufs[i].
inline void substitute_buffers(nlohmann::json& model, const std::vector<Buffer>& bufs) {
  if (!model.is_object() || !model.contains("layers") || !model["layers"].is_array()) return;
  for (auto& layer : model["layers"]) {
    if (!layer.is_object()) continue;
    for (auto it = layer.begin(); it != layer.end(); ++it) {
      if (!it->is_object() || !it->contains("$buffer")) continue;
      const auto& ix = (*it)["$buffer"];
      if (!ix.is_number_unsigned() || ix.get<std::size_t>() >= bufs.size()) continue;  // the reader refuses it
      const Buffer& b = bufs[ix.get<std::size_t>()];
      nlohmann::json m = nlohmann::json::array();
      for (std::size_t r = 0; r < b.rows; ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (std::size_t c = 0; c < b.cols; ++c) row.push_back(b.data[r * b.cols + c]);
        m.push_back(std::move(row));
      }
      *it = std::move(m);
    }
  }
}

// An exact matrix as an int64 buffer when every entry is an integer within int64.
inline bool int64_buffer(const RatMatrix& m, Buffer& out) {
  out.rows = m.rows();
  out.cols = m.cols();
  out.data.clear();
  out.data.reserve(m.data().size());
  for (const Rat& q : m.data()) {
    if (!q.is_integer() || !q.num().fits_int64()) return false;
    out.data.push_back(q.num().to_int64());
  }
  return true;
}

inline RatMatrix rat_matrix(const Buffer& b) {
  RatMatrix m(b.rows, b.cols);
  for (std::size_t k = 0; k < b.data.size(); ++k) m.data()[k] = Rat(b.data[k]);
  return m;
}

}  // namespace cz::py_module
