// Matrix<E>: a dense row-major rows×cols array of ring elements. Rows are the sequence axis,
// columns the channels (spec §1). Arithmetic goes through a ring object (see exact/rings.h).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cz {

template <class E>
class Matrix {
 public:
  Matrix() = default;
  Matrix(std::size_t rows, std::size_t cols, const E& fill = E())
      : rows_(rows), cols_(cols), data_(rows * cols, fill) {}
  // Adopts row-major entries already computed (no fill pass: producers that write every entry,
  // e.g. the NTT's lift, build the vector in order and hand it over).
  Matrix(std::size_t rows, std::size_t cols, std::vector<E>&& data) : rows_(rows), cols_(cols), data_(std::move(data)) {
    if (data_.size() != rows * cols) throw std::invalid_argument("Matrix: data size is not rows x cols");
  }

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  E& operator()(std::size_t i, std::size_t j) { return data_[i * cols_ + j]; }
  const E& operator()(std::size_t i, std::size_t j) const { return data_[i * cols_ + j]; }
  E* row(std::size_t i) { return data_.data() + i * cols_; }
  const E* row(std::size_t i) const { return data_.data() + i * cols_; }
  std::vector<E>& data() { return data_; }
  const std::vector<E>& data() const { return data_; }

  friend bool operator==(const Matrix& a, const Matrix& b) {
    return a.rows_ == b.rows_ && a.cols_ == b.cols_ && a.data_ == b.data_;
  }

 private:
  std::size_t rows_ = 0, cols_ = 0;
  std::vector<E> data_;
};

// Maps every entry through f (e.g. a ring homomorphism Z -> Fp).
template <class F, class E>
auto map_matrix(const Matrix<E>& m, F&& f) {
  using T = decltype(f(m(0, 0)));
  Matrix<T> r(m.rows(), m.cols());
  for (std::size_t k = 0; k < m.data().size(); ++k) r.data()[k] = f(m.data()[k]);
  return r;
}

}  // namespace cz
