#include "circuits/sat/model_bits.h"

#include <variant>

#include "tensor/conv_naive.h"
#include "util/error.h"

namespace cz::circuits::sat {

namespace {

void integral(const RatMatrix& x, const std::string& what, std::size_t layer, const std::string& where) {
  for (std::size_t i = 0; i < x.rows(); ++i)
    for (std::size_t j = 0; j < x.cols(); ++j)
      if (!x(i, j).is_integer())
        throw InputError("layer " + std::to_string(layer) + " weight " + what + "[" + std::to_string(i) + "][" + std::to_string(j) +
                             "] = " + x(i, j).str() +
                             " is not an integer: --method sat bit-blasts integer arithmetic (ring Z, or Q with integral weights)",
                         where);
}

Matrix<Word> consts(const BitRing& r, const RatMatrix& x) {
  return map_matrix(x, [&](const Rat& q) { return r.from_rat(q); });
}

// x·W (+ bias), skipping zero weights and zero entries (they fold to the constant 0 anyway).
Matrix<Word> matmul(const BitRing& r, const Matrix<Word>& x, const RatMatrix& W, const RatMatrix* bias) {
  Matrix<Word> y = bias ? consts(r, *bias) : Matrix<Word>(x.rows(), W.cols(), r.zero());
  for (std::size_t k = 0; k < W.rows(); ++k)
    for (std::size_t j = 0; j < W.cols(); ++j) {
      if (W(k, j).is_zero()) continue;
      const Word w = r.from_rat(W(k, j));
      for (std::size_t i = 0; i < x.rows(); ++i)
        if (!r.is_zero(x(i, k))) r.addmul(y(i, j), x(i, k), w);
    }
  return y;
}

Matrix<Word> layer(const BitRing& r, const Model& m, const BaseConvLayer& L, const Matrix<Word>& x) {
  Matrix<Word> a = matmul(r, x, L.W, &L.b1);
  Matrix<Word> c = conv_naive(r, consts(r, L.h), x, m.conv);
  for (std::size_t k = 0; k < a.data().size(); ++k) a.data()[k] = r.mul(a.data()[k], r.add(c.data()[k], r.from_rat(L.b2.data()[k])));
  return a;
}

Matrix<Word> layer(const BitRing& r, const Model&, const MlpLayer& L, const Matrix<Word>& x) {
  Matrix<Word> z = matmul(r, x, L.W1, &L.B1);
  for (auto& e : z.data()) e = r.wb->relu(e);
  return matmul(r, z, L.W2, &L.B2);
}

Matrix<Word> layer(const BitRing& r, const Model&, const LinearAttentionLayer& L, const Matrix<Word>& x) {
  const Matrix<Word> Q = matmul(r, x, L.Wq, nullptr), K = matmul(r, x, L.Wk, nullptr), V = matmul(r, x, L.Wv, nullptr);
  const std::size_t f = Q.cols(), d = V.cols();
  Matrix<Word> S(f, d, r.zero()), z(x.rows(), d, r.zero());
  for (std::size_t i = 0; i < x.rows(); ++i) {
    for (std::size_t a = 0; a < f; ++a)
      if (!r.is_zero(K(i, a)))
        for (std::size_t b = 0; b < d; ++b) r.addmul(S(a, b), K(i, a), V(i, b));
    for (std::size_t a = 0; a < f; ++a)
      if (!r.is_zero(Q(i, a)))
        for (std::size_t b = 0; b < d; ++b) r.addmul(z(i, b), Q(i, a), S(a, b));
  }
  return z;
}

}  // namespace

void require_integral(const Model& m, const std::string& where) {
  if (m.ring != "Z" && m.ring != "Q")
    throw InputError("ring " + m.ring + ": --method sat bit-blasts integer arithmetic (ring Z, or Q with integral weights); "
                     "arithmetic mod p is not bit-blasted",
                     where);
  for (std::size_t l = 0; l < m.layers.size(); ++l) {
    if (const auto* b = std::get_if<BaseConvLayer>(&m.layers[l])) {
      integral(b->W, "W", l, where), integral(b->b1, "b1", l, where);
      integral(b->h, "h", l, where), integral(b->b2, "b2", l, where);
    } else if (const auto* f = std::get_if<MlpLayer>(&m.layers[l])) {
      integral(f->W1, "W1", l, where), integral(f->B1, "B1", l, where);
      integral(f->W2, "W2", l, where), integral(f->B2, "B2", l, where);
    } else if (const auto* a = std::get_if<LinearAttentionLayer>(&m.layers[l])) {
      integral(a->Wq, "Wq", l, where), integral(a->Wk, "Wk", l, where), integral(a->Wv, "Wv", l, where);
    }
  }
}

Matrix<Word> layer_words(WordBuilder& wb, const Model& m, std::size_t l, const Matrix<Word>& x) {
  const BitRing r{&wb};
  return std::visit([&](const auto& L) { return layer(r, m, L, x); }, m.layers.at(l));
}

Matrix<Word> state_words(WordBuilder& wb, const Model& m, const Matrix<Word>& u, std::size_t layers, const LayerBounds* bounds) {
  if (u.rows() != m.N || u.cols() != m.d) throw std::invalid_argument("model_words: input shape is not the model's N x d");
  const BitRing r{&wb};
  Matrix<Word> x(m.inner_N, m.inner_d, r.zero());  // the input embedded top-left, zeros elsewhere
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j) x(i, j) = u(i, j);
  for (std::size_t l = 0; l < layers && l < m.layers.size(); ++l) {
    x = std::visit([&](const auto& L) { return layer(r, m, L, x); }, m.layers[l]);
    if (bounds && l < bounds->size() && (*bounds)[l].rows() == x.rows() && (*bounds)[l].cols() == x.cols())
      for (std::size_t k = 0; k < x.data().size(); ++k)
        if (const EntryBound& e = (*bounds)[l].data()[k]) x.data()[k] = wb.narrow(x.data()[k], e->first, e->second);
  }
  return x;
}

Matrix<Word> model_words(WordBuilder& wb, const Model& m, const Matrix<Word>& u, const LayerBounds* bounds) {
  const Matrix<Word> x = state_words(wb, m, u, m.layers.size(), bounds);
  Matrix<Word> y(m.N, m.d);
  for (std::size_t i = 0; i < m.N; ++i)
    for (std::size_t j = 0; j < m.d; ++j) y(i, j) = x(i, j);
  return y;
}

}  // namespace cz::circuits::sat
