// The allocation-free int64 evaluator (model/eval_scratch.h) against eval_inner<RingI64> and Z on
// seeded random models with every layer kind, a scratch reused across models of other shapes, and
// overflow: it throws exactly when the answer leaves int64 territory, and IntegerEvaluator then
// answers in Z (its exact copy prepared on that first overflow).
#include <doctest/doctest.h>

#include "constructions/primitives/builders.h"
#include "model/eval.h"
#include "model/eval_scratch.h"
#include "tests/seed.h"

using namespace cz;

namespace {
Model mixed_model(std::mt19937_64& g, std::size_t N, std::size_t d, std::size_t L, ConvMode conv, int wmax) {
  Model m = build::shell(N, d, conv);
  m.inner_N = N + g() % 3;
  m.inner_d = d + g() % 3;
  const std::size_t D = m.inner_d, R = m.inner_N;
  auto fill = [&](RatMatrix& x) {
    for (auto& e : x.data())
      if (g() % 3) e = static_cast<std::int64_t>(g() % (2 * wmax + 1)) - wmax;
  };
  for (std::size_t l = 0; l < L; ++l) {
    switch (g() % 3) {
      case 0: {
        BaseConvLayer b = zero_baseconv(m);
        for (auto* x : {&b.W, &b.b1, &b.h, &b.b2}) fill(*x);
        m.layers.push_back(b);
        break;
      }
      case 1: {
        MlpLayer f{RatMatrix(D, D), RatMatrix(R, D), RatMatrix(D, D), RatMatrix(R, D)};
        for (auto* x : {&f.W1, &f.B1, &f.W2, &f.B2}) fill(*x);
        m.layers.push_back(f);
        break;
      }
      default: {
        const std::size_t f = 1 + g() % 3;
        LinearAttentionLayer a{RatMatrix(D, f), RatMatrix(D, f), RatMatrix(D, D)};
        for (auto* x : {&a.Wq, &a.Wk, &a.Wv}) fill(*x);
        m.layers.push_back(a);
      }
    }
  }
  return m;
}
}  // namespace

TEST_CASE("allocation-free int64 evaluation equals eval_inner and Z on random models, overflow included") {
  INFO("seed " << test::seed());
  auto g = test::rng(31);
  I64Scratch s;  // one scratch for every model: shapes change between calls
  int overflowed = 0, exact = 0;
  for (int it = 0; it < 300; ++it) {
    const int wmax = it % 4 == 3 ? 1000000 : 3;  // large weights: some products leave int64
    Model m = mixed_model(g, 2 + g() % 6, 1 + g() % 3, 1 + g() % 5, static_cast<ConvMode>(it % 3), wmax);
    Matrix<std::int64_t> u(m.N, m.d);
    for (auto& x : u.data()) x = static_cast<std::int64_t>(g() % 7) - 3;
    const PreparedModel<RingI64> p = prepare(RingI64{}, m);
    std::optional<Matrix<std::int64_t>> want;
    try {
      want = eval_inner(p, u);
    } catch (const Overflow&) {
    }
    std::optional<std::vector<std::int64_t>> got;
    try {
      got = eval_inner_scratch(p, u, s);
    } catch (const Overflow&) {
    }
    const Matrix<Int> z = eval_inner(prepare(RingZ{}, m), map_matrix(u, [](std::int64_t x) { return Int(x); }));
    bool fits = true;
    for (const Int& e : z.data()) fits = fits && e.fits_int64();
    if (got) {  // no throw: the exact answer, entry for entry
      for (std::size_t k = 0; k < z.data().size(); ++k) CHECK(Int((*got)[k]) == z.data()[k]);
      if (want) CHECK(*got == want->data());
      ++exact;
    } else {  // a throw only where some intermediate left int64
      ++overflowed;
    }
    // IntegerEvaluator (which runs the scratch path) agrees with Z either way.
    CHECK(IntegerEvaluator(m)(u) == eval(prepare(RingZ{}, m), map_matrix(u, [](std::int64_t x) { return Int(x); })));
    if (!fits) CHECK_FALSE(got.has_value());
  }
  CHECK(overflowed > 0);
  CHECK(exact > 200);
}
