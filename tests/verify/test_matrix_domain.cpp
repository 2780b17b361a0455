// The integer-matrix domain of the primitives (verify/matrix_domain.h, issue 24 D2): the default
// meets signed values, the box is enumerated exactly once per matrix, the description names each
// set covered, and the mutants that 0/1 inputs cannot tell apart (u², u³ after a shift) fail.
#include <doctest/doctest.h>

#include <set>

#include "app/engine/byo/byo.h"
#include "util/error.h"
#include "verify/matrix_domain.h"
#include "verify/task.h"

using namespace cz;

namespace {

// shift_down by s (one layer: (u·0 + 1) ⊙ (X^s * u)), then `squarings` layers u ⊙ (X^0 * u).
Model shift_then_square(std::size_t N, std::size_t d, std::size_t s, int squarings) {
  Model m;
  m.N = m.inner_N = N;
  m.d = m.inner_d = d;
  BaseConvLayer shift{RatMatrix(d, d), RatMatrix(N, d), RatMatrix(N, d), RatMatrix(N, d)};
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t i = 0; i < N; ++i) shift.b1(i, j) = Rat(1);
    shift.h(s, j) = Rat(1);
  }
  m.layers.push_back(shift);
  for (int k = 0; k < squarings; ++k) {
    BaseConvLayer sq{RatMatrix(d, d), RatMatrix(N, d), RatMatrix(N, d), RatMatrix(N, d)};
    for (std::size_t j = 0; j < d; ++j) {
      sq.W(j, j) = Rat(1);
      sq.h(0, j) = Rat(1);
    }
    m.layers.push_back(sq);
  }
  return m;
}

// y = u[i-s]³ for d = 1, through one spare channel (x = the shifted input):
//   shift: ch0 = x;  copy: ch0 = ch1 = x (u·W, W = [[1, 1], [0, 0]]);  square: ch0 = x, ch1 = x²;
//   product: ch0 = (u·W)[0] ⊙ (X^0 * u)[0] = x² · x.
Model shift_then_cube(std::size_t N, std::size_t s) {
  Model m;
  m.N = m.inner_N = N;
  m.d = 1;
  m.inner_d = 2;
  auto layer = [&] { return BaseConvLayer{RatMatrix(2, 2), RatMatrix(N, 2), RatMatrix(N, 2), RatMatrix(N, 2)}; };
  BaseConvLayer shift = layer(), copy = layer(), square = layer(), product = layer();
  for (std::size_t i = 0; i < N; ++i) {
    shift.b1(i, 0) = Rat(1);
    copy.b2(i, 0) = copy.b2(i, 1) = Rat(1);
    square.b2(i, 0) = Rat(1);
  }
  shift.h(s, 0) = Rat(1);
  copy.W(0, 0) = copy.W(0, 1) = Rat(1);
  square.W(0, 0) = square.W(1, 1) = Rat(1);
  square.h(0, 1) = Rat(1);
  product.W(1, 0) = Rat(1);
  product.h(0, 0) = Rat(1);
  m.layers = {shift, copy, square, product};
  return m;
}

Report check_file(const Model& m, const std::string& task, std::map<std::string, std::string> given, DomainOptions o = {}) {
  o.threads = 1;
  return run_task_check(find_task(task), std::move(given), model_artifact(m, "m.json"), o);
}

}  // namespace

TEST_CASE("the default matrix domain: a signed box when it fits, then samples, described exactly") {
  const MatrixDomain small = make_matrix_domain(3, 2, DomainOptions{}, 3);
  CHECK(small.lo == -1);
  CHECK(small.hi == 1);
  CHECK(small.box == 729);
  CHECK(small.samples == kSamplesBesideBox);
  CHECK(small.count == 729 + kSamplesBesideBox);
  CHECK(small.kind() == "exhaustive+sampled");
  CHECK(small.describe() == "all 729 matrices in {-1,0,1}^(3x2), then 10000 seeded random 3x2 matrices, entries in [-3, 3], seed 1");
  // Every matrix of the box exactly once.
  std::set<std::vector<std::int64_t>> seen;
  for (std::uint64_t k = 0; k < small.box; ++k) {
    const auto u = small.instance(k);
    for (auto x : u.data()) CHECK((x >= -1 && x <= 1));
    seen.insert(u.data());
  }
  CHECK(seen.size() == 729);
  // Samples reach beyond the box, within [-range, range], and are the --samples draws of the seed.
  DomainOptions only;
  only.samples = 50;
  const MatrixDomain sampled = make_matrix_domain(3, 2, only, 3);
  CHECK(sampled.kind() == "sampled");
  bool wide = false;
  for (std::uint64_t j = 0; j < 50; ++j) {
    CHECK(small.instance(small.box + j).data() == sampled.instance(j).data());
    const auto u = sampled.instance(j);
    for (auto x : u.data()) {
      CHECK((x >= -3 && x <= 3));
      wide = wide || x < -1 || x > 1;
    }
  }
  CHECK(wide);
  // 8x2 = 16 cells: 3^16 > 2^22, so the 0/1 box (2^16, in the old order), then samples.
  const MatrixDomain mid = make_matrix_domain(8, 2, DomainOptions{}, 3);
  CHECK(mid.lo == 0);
  CHECK(mid.box == 65536);
  CHECK(mid.instance(5).data()[0] == 1);
  CHECK(mid.instance(5).data()[2] == 1);
  CHECK(mid.kind() == "exhaustive+sampled");
  // Too many cells for any box: samples alone.
  const MatrixDomain big = make_matrix_domain(16, 2, DomainOptions{}, 3);
  CHECK(big.box == 0);
  CHECK(big.samples == 100000);
  CHECK(big.kind() == "sampled");
  // --exhaustive: the box alone, signed up to 3^20, refused above 2^32.
  DomainOptions ex;
  ex.force_exhaustive = true;
  const MatrixDomain forced = make_matrix_domain(4, 2, ex, 3);
  CHECK(forced.kind() == "exhaustive");
  CHECK(forced.box == 6561);
  CHECK(forced.count == 6561);
  CHECK_THROWS_AS(make_matrix_domain(11, 3, ex, 3), InputError);
}

TEST_CASE("shift_down followed by a squaring layer fails the default domain (issue 24 D2)") {
  const Model sq = shift_then_square(8, 2, 3, 1);
  const Report r = check_file(sq, "shift_down", {{"s", "3"}});
  CHECK(r.domain == "exhaustive+sampled");
  CHECK(r.failed > 0);
  CHECK(r.exit_code() == 1);
  REQUIRE(r.counterexample.has_value());
  // The plain shift passes the same domain (the mutant is not failing for another reason).
  const Report ok = check_file(shift_then_square(8, 2, 3, 0), "shift_down", {{"s", "3"}});
  CHECK(ok.failed == 0);
  CHECK(ok.instances == 65536 + kSamplesBesideBox);
  // On a small shape the signed box alone catches it, at an index inside the box.
  const Report small = check_file(shift_then_square(3, 1, 1, 1), "shift_down", {{"s", "1"}});
  CHECK(small.failed > 0);
  REQUIRE(small.counterexample.has_value());
  CHECK(small.counterexample->instance["index"].get<std::uint64_t>() < 27);
}

TEST_CASE("u^3 equals u on {-1,0,1}: the samples beyond the box catch it") {
  const Model cube = shift_then_cube(3, 1);
  DomainOptions ex;
  ex.force_exhaustive = true;
  const Report box_only = check_file(cube, "shift_down", {{"s", "1"}}, ex);
  CHECK(box_only.domain == "exhaustive");
  CHECK(box_only.failed == 0);  // x³ = x on {-1, 0, 1}: the box alone cannot tell
  const Report r = check_file(cube, "shift_down", {{"s", "1"}});
  CHECK(r.failed > 0);
  REQUIRE(r.counterexample.has_value());
  CHECK(r.counterexample->instance["index"].get<std::uint64_t>() >= 27);
}
