// gpu/modmodel.h + gpu/modmodel_kernel.h (issue 12): the modular evaluation (the kernel bodies,
// run here as the CPU twin) lifted through the CRT equals the exact evaluation over Z (src/model)
// on random models of every conv mode and random inputs; the certified bound bounds every layer's
// output; and models the path cannot evaluate exactly are refused.
#include <doctest/doctest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "gpu/modmodel.h"
#include "model/eval.h"
#include "tests/seed.h"

using namespace cz;

namespace {

RatMatrix random_matrix(std::mt19937_64& g, std::size_t r, std::size_t c, std::int64_t mag, double density) {
  std::uniform_int_distribution<std::int64_t> val(-mag, mag);
  std::uniform_real_distribution<double> u(0, 1);
  RatMatrix m(r, c, Rat(0));
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j)
      if (u(g) < density) m(i, j) = Rat(val(g));
  return m;
}

Model random_model(std::mt19937_64& g, ConvMode mode, std::size_t layers, bool attention, std::int64_t mag) {
  std::uniform_int_distribution<std::size_t> pick(0, 4);
  Model m;
  m.N = 3 + pick(g);
  m.d = 1 + pick(g) % 3;
  m.inner_N = m.N + pick(g) % 3;
  m.inner_d = m.d + pick(g) % 3;
  if (mode == ConvMode::Cyclic && pick(g) % 2) m.inner_N = m.N = 8;  // L = N': the unfolded cyclic transform
  m.conv = mode;
  for (std::size_t l = 0; l < layers; ++l) {
    BaseConvLayer b{random_matrix(g, m.inner_d, m.inner_d, mag, 0.5), random_matrix(g, m.inner_N, m.inner_d, mag, 0.5),
                    random_matrix(g, m.inner_N, m.inner_d, mag, 0.5), random_matrix(g, m.inner_N, m.inner_d, mag, 0.5)};
    m.layers.emplace_back(std::move(b));
  }
  if (attention) {
    const std::size_t f = 1 + pick(g) % 3;
    m.layers.emplace_back(LinearAttentionLayer{random_matrix(g, m.inner_d, f, mag, 0.6), random_matrix(g, m.inner_d, f, mag, 0.6),
                                               random_matrix(g, m.inner_d, m.inner_d, mag, 0.6)});
  }
  validate(m);
  return m;
}

// The twin evaluation of u (N×d) lifted to integers: the full N'×d' final activation.
Matrix<Int> twin_eval(const gpu::ModModel& mm, const Matrix<std::int64_t>& u) {
  const gpu::ModModelView v = mm.view();
  std::vector<std::uint32_t> scratch(v.scratch_words * v.primes);
  for (int q = 0; q < v.primes; ++q) {
    gpu::ModScratch s = gpu::mod_scratch(v, scratch.data() + q * v.scratch_words);
    for (int i = 0; i < v.Np; ++i)
      for (int j = 0; j < v.dp; ++j)
        s.x[i * v.dp + j] = (i < v.N && j < v.d) ? gpu::mod_of(u(i, j), v.p[q]) : 0;
    gpu::mod_eval(v, q, s);
  }
  Matrix<Int> y(v.Np, v.dp);
  std::uint32_t r[gpu::kModMaxPrimes];
  for (int i = 0; i < v.Np; ++i)
    for (int j = 0; j < v.dp; ++j) {
      for (int q = 0; q < v.primes; ++q) r[q] = scratch[q * v.scratch_words + i * v.dp + j];
      y(i, j) = mm.lift(r);
    }
  return y;
}

Matrix<std::int64_t> random_input(std::mt19937_64& g, const Model& m, std::int64_t bound) {
  std::uniform_int_distribution<std::int64_t> val(-bound, bound);
  Matrix<std::int64_t> u(m.N, m.d);
  for (auto& e : u.data()) e = val(g);
  return u;
}

// Every entry of every layer's output (models truncated after each layer) within the bound.
void check_bound(const Model& m, const Matrix<std::int64_t>& u, const Int& B) {
  for (std::size_t l = 1; l <= m.layers.size(); ++l) {
    Model t = m;
    t.layers.resize(l);
    const PreparedModel<RingZ> p = prepare(RingZ{}, t);
    const Matrix<Int> y = eval_inner(p, map_matrix(u, [](std::int64_t x) { return Int(x); }));
    for (const Int& e : y.data()) REQUIRE(e.abs() <= B);
  }
}

void same_as_exact(const Model& m, std::int64_t bound, std::mt19937_64& g, int inputs) {
  const gpu::ModModel mm(m, bound);
  REQUIRE(mm.modulus() > mm.bound() * Int(2));
  const PreparedModel<RingZ> p = prepare(RingZ{}, m);
  for (int t = 0; t < inputs; ++t) {
    const Matrix<std::int64_t> u = random_input(g, m, bound);
    const Matrix<Int> want = eval_inner(p, map_matrix(u, [](std::int64_t x) { return Int(x); }));
    REQUIRE(twin_eval(mm, u) == want);
    check_bound(m, u, mm.bound());
  }
}

}  // namespace

TEST_CASE("modular twin evaluation lifted by CRT equals exact evaluation over Z") {
  auto g = test::rng(121);
  INFO("seed " << test::seed());
  for (ConvMode mode : {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal})
    for (int trial = 0; trial < 12; ++trial) {
      INFO(to_string(mode) << " trial " << trial);
      const Model m = random_model(g, mode, 1 + trial % 3, trial % 4 == 3, 3);
      same_as_exact(m, 2, g, 4);
    }
}

TEST_CASE("several CRT primes: large weights lift exactly") {
  auto g = test::rng(122);
  INFO("seed " << test::seed());
  for (ConvMode mode : {ConvMode::Causal, ConvMode::Cyclic, ConvMode::Anticausal}) {
    const Model m = random_model(g, mode, 1, false, std::int64_t{1} << 20);  // |y| up to ~2^65: several primes
    CHECK(gpu::ModModel(m, 1000).primes() >= 2);
    same_as_exact(m, 1000, g, 3);
    const Model a = random_model(g, mode, 1, true, 256);  // attention after it: more primes still
    CHECK(gpu::ModModel(a, 1000).primes() >= 2);
    same_as_exact(a, 1000, g, 3);
  }
}

TEST_CASE("worst-case inputs reach the bound only within it") {
  // One BaseConv layer y = (u + 1)·(h*u) with h = all ones: the certified bound is attained.
  Model m;
  m.N = m.inner_N = 4;
  m.d = m.inner_d = 1;
  m.conv = ConvMode::Causal;
  BaseConvLayer b{RatMatrix(1, 1, Rat(1)), RatMatrix(4, 1, Rat(1)), RatMatrix(4, 1, Rat(1)), RatMatrix(4, 1, Rat(0))};
  m.layers.emplace_back(b);
  const gpu::ModModel mm(m, 5);
  CHECK(mm.bound() == Int(6 * 20));  // |u·W + b1| <= 6, |h*u| <= 5·4 = 20
  Matrix<std::int64_t> u(4, 1, 5);
  CHECK(twin_eval(mm, u)(3, 0) == Int(6 * 20));
}

TEST_CASE("models the modular path cannot evaluate exactly are refused") {
  auto g = test::rng(123);
  Model m = random_model(g, ConvMode::Causal, 1, false, 3);
  CHECK_NOTHROW(gpu::ModModel(m, 1));
  SUBCASE("P too small for the certified bound") {
    Model big = m;
    auto& b = std::get<BaseConvLayer>(big.layers[0]);
    b.b1(0, 0) = Rat(Int(1) * Int(std::int64_t{1} << 40));
    b.b2(0, 0) = Rat(Int(std::int64_t{1} << 40));
    CHECK_THROWS_AS(gpu::ModModel(big, 1, 1), std::invalid_argument);
    CHECK_THROWS_AS(gpu::ModModel(big, 1, 2), std::invalid_argument);
    const gpu::ModModel ok(big, 1, 3);
    CHECK(ok.modulus() > ok.bound() * Int(2));
  }
  SUBCASE("non-integer weight") {
    std::get<BaseConvLayer>(m.layers[0]).W(0, 0) = Rat(Int(1), Int(2));
    CHECK_THROWS_AS(gpu::ModModel(m, 1), std::invalid_argument);
  }
  SUBCASE("MLP layer") {
    m.layers.emplace_back(MlpLayer{RatMatrix(m.inner_d, 2, Rat(1)), RatMatrix(m.inner_N, 2, Rat(0)), RatMatrix(2, m.inner_d, Rat(1)),
                                   RatMatrix(m.inner_N, m.inner_d, Rat(0))});
    CHECK_THROWS_AS(gpu::ModModel(m, 1), std::invalid_argument);
  }
}

TEST_CASE("the device input generator stays within its bound") {
  for (std::uint64_t t = 0; t < 50; ++t)
    for (int i = 0; i < 7; ++i) {
      const std::int64_t x = gpu::mod_random_entry(9, t, i, i % 3, 4);
      CHECK((x >= -4 && x <= 4));
    }
}
