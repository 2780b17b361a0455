#include "model/h3.h"

#include <random>
#include <string>

namespace cz {

const char* h3_form_name(H3Form f) { return f == H3Form::Published ? "published" : "shift_v"; }

void validate(const H3Operator& op) {
  if (op.N == 0 || op.d == 0 || op.m == 0) throw std::invalid_argument("h3: N, d and the state size must be positive");
  for (const RatMatrix* W : {&op.WQ, &op.WK, &op.WV})
    if (W->rows() != op.d || W->cols() != op.d) throw std::invalid_argument("h3: a projection is not d×d");
  for (bool diagonal : {false, true}) {
    const auto& f = diagonal ? op.diag : op.shift;
    if (f.size() != op.d) throw std::invalid_argument("h3: want one SSM per channel");
    for (const Ssm& s : f)
      if (s.B.size() != op.m || s.C.size() != op.m || s.lambda.size() != (diagonal ? op.m : 0))
        throw std::invalid_argument("h3: an SSM's B, C (and λ for the diagonal SSM) must have the state size");
  }
}

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

RatMatrix h3_kernel(const H3Operator& op, bool diagonal) {
  validate(op);
  RatMatrix h(op.N, op.d);
  for (std::size_t c = 0; c < op.d; ++c) {
    const Ssm& f = (diagonal ? op.diag : op.shift)[c];
    std::vector<Rat> v = f.B;  // A^t·B
    for (std::size_t t = 0; t < op.N; ++t) {
      Rat s = t == 0 ? f.D : Rat(0);
      for (std::size_t i = 0; i < op.m; ++i) s += f.C[i] * v[i];
      h(t, c) = s;
      if (diagonal) {
        for (std::size_t i = 0; i < op.m; ++i) v[i] *= f.lambda[i];
      } else {
        for (std::size_t i = op.m; i-- > 1;) v[i] = v[i - 1];
        v[0] = Rat(0);
      }
    }
  }
  return h;
}

HyenaOperator h3_as_hyena(const H3Operator& op) {
  validate(op);
  HyenaOperator hy;
  hy.N = op.N, hy.d = op.d, hy.order = 2;
  const std::size_t d = op.d;
  hy.W = RatMatrix(d, 3 * d);
  for (std::size_t j = 0; j < d; ++j)
    for (std::size_t c = 0; c < d; ++c) {
      // v (Hyena's z^0, run through h^1 = h_shift) is K as published, V in the ShiftV variant.
      const bool published = op.form == H3Form::Published;
      hy.W(j, c) = published ? op.WK(j, c) : op.WV(j, c);
      hy.W(j, d + c) = published ? op.WV(j, c) : op.WK(j, c);
      hy.W(j, 2 * d + c) = op.WQ(j, c);
    }
  hy.hs = RatMatrix(op.N, 3 * d);
  for (std::size_t c = 0; c < 3 * d; ++c) hy.hs(0, c) = Rat(1);
  hy.h = {h3_kernel(op, false), h3_kernel(op, true)};
  validate(hy);
  return hy;
}

}  // namespace cz
