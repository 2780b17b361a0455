#include "model/h3.h"

#include "exact/poly.h"

#include <random>
#include <string>

namespace cz {

const char* h3_form_name(H3Form f) { return f == H3Form::Published ? "published" : "shift_v"; }

H3Operator random_h3(std::size_t N, std::size_t d, std::size_t m, std::uint64_t seed, std::int64_t range, H3Form form) {
  std::mt19937_64 g(seed * 0x9e3779b97f4a7c15ULL + 0x4833ULL);
  auto draw = [&](std::int64_t lim) { return Rat(static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(2 * lim + 1)) - lim); };
  H3Operator op;
  op.N = N, op.d = d, op.m = m, op.form = form;
  for (RatMatrix* W : {&op.WQ, &op.WK, &op.WV}) {
    *W = RatMatrix(d, d);
    for (auto& x : W->data()) x = draw(range);
  }
  for (bool diagonal : {false, true})
    for (std::size_t c = 0; c < d; ++c) {
      Ssm s;
      for (std::size_t i = 0; i < m; ++i) {
        if (diagonal) s.lambda.push_back(draw(2));  // |λ| <= 2: kernels up to 2^N, exact in Z
        s.B.push_back(draw(range));
        s.C.push_back(draw(range));
      }
      s.D = draw(range);
      (diagonal ? op.diag : op.shift).push_back(std::move(s));
    }
  validate(op);
  return op;
}

template <class S>
Matrix<S> h3_kernel(const H3OperatorT<S>& op, bool diagonal) {
  validate_shape(op);
  Matrix<S> h(op.N, op.d);
  for (std::size_t c = 0; c < op.d; ++c) {
    const SsmT<S>& f = (diagonal ? op.diag : op.shift)[c];
    std::vector<S> v = f.B;  // A^t·B
    for (std::size_t t = 0; t < op.N; ++t) {
      S s = t == 0 ? f.D : S(Rat(0));
      for (std::size_t i = 0; i < op.m; ++i) s = s + f.C[i] * v[i];
      h(t, c) = s;
      if (diagonal) {
        for (std::size_t i = 0; i < op.m; ++i) v[i] *= f.lambda[i];
      } else {
        for (std::size_t i = op.m; i-- > 1;) v[i] = v[i - 1];
        v[0] = S(Rat(0));
      }
    }
  }
  return h;
}

template <class S>
HyenaOperatorT<S> h3_as_hyena(const H3OperatorT<S>& op) {
  validate_shape(op);
  HyenaOperatorT<S> hy;
  hy.N = op.N, hy.d = op.d, hy.order = 2;
  const std::size_t d = op.d;
  hy.W = Matrix<S>(d, 3 * d);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t c = 0; c < d; ++c) {
      // v (Hyena's z^0, run through h^1 = h_shift) is K as published, V in the ShiftV variant.
      const bool published = op.form == H3Form::Published;
      hy.W(j, c) = published ? op.WK(j, c) : op.WV(j, c);
      hy.W(j, d + c) = published ? op.WV(j, c) : op.WK(j, c);
      hy.W(j, 2 * d + c) = op.WQ(j, c);
    }
  hy.hs = Matrix<S>(op.N, 3 * d);
  for (std::size_t c = 0; c < 3 * d; ++c) hy.hs(0, c) = S(Rat(1));
  hy.h = {h3_kernel(op, false), h3_kernel(op, true)};
  validate_shape(hy);
  return hy;
}

// Rat: the shipped models; RingScalar<...>: the weights-as-symbols proof and its estimate.
template Matrix<Rat> h3_kernel(const H3OperatorT<Rat>&, bool);
template HyenaOperatorT<Rat> h3_as_hyena(const H3OperatorT<Rat>&);
template Matrix<RingScalar<RingPolyQ>> h3_kernel(const H3OperatorT<RingScalar<RingPolyQ>>&, bool);
template HyenaOperatorT<RingScalar<RingPolyQ>> h3_as_hyena(const H3OperatorT<RingScalar<RingPolyQ>>&);
template Matrix<RingScalar<RingBound>> h3_kernel(const H3OperatorT<RingScalar<RingBound>>&, bool);
template HyenaOperatorT<RingScalar<RingBound>> h3_as_hyena(const H3OperatorT<RingScalar<RingBound>>&);

}  // namespace cz
