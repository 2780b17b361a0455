// sd/based-jrt's output read the way `tasks sd` documents it (issue 24, D5): the last layer's
// column 0 at the window rows is the flag, the element of a flagged row is read off the G.21
// output (JRT Thm G.22: the rearranged copy), on every pair of subsets at n = 2.
#include <doctest/doctest.h>

#include <set>

#include "constructions/sd/based_jrt.h"
#include "verify/task.h"

using namespace cz;

namespace {
std::vector<std::uint32_t> members(unsigned mask) {
  std::vector<std::uint32_t> s;
  for (std::uint32_t e = 0; e < 4; ++e)
    if ((mask >> e) & 1) s.push_back(e);
  return s;
}

// The documented decoding of a (rows x (n+1)) output whose window [lo, lo+N) holds the flags in
// column 0; `elements` holds row i's element at row i - lo. Also counts nonzero entries elsewhere.
std::vector<std::uint32_t> decode_documented(const Matrix<Int>& out, std::size_t lo, std::size_t N, const Matrix<std::int64_t>& elements,
                                             unsigned n, std::size_t& stray) {
  std::set<std::uint32_t> common;
  for (std::size_t i = 0; i < out.rows(); ++i)
    for (std::size_t j = 0; j < out.cols(); ++j) {
      const bool in_window = i >= lo && i < lo + N;
      if (out(i, j).is_zero()) continue;
      if (j == 0 && in_window) common.insert(sd::row_element(elements.row(i - lo), n));
      else ++stray;
    }
  return {common.begin(), common.end()};
}
}  // namespace

TEST_CASE("sd/based-jrt: `tasks sd` documents column 0 of the last layer as the flag") {
  const Task& t = find_task("sd");
  CHECK(t.output_decoding.find("writes the flag in column 0") != std::string::npos);
}

TEST_CASE("sd/based-jrt decodes the documented way on all 256 pairs of subsets at n = 2") {
  const unsigned n = 2;
  for (const auto layout : {sdc::Layout::Top, sdc::Layout::Bottom}) {
    sdc::PipelineConfig cfg;
    cfg.n = n;
    cfg.layout = layout;
    const sdc::Pipeline P(cfg);
    std::size_t right = 0, right_alg3 = 0, stray = 0, right_g18 = 0;
    for (unsigned ma = 0; ma < 16; ++ma)
      for (unsigned mb = 0; mb < 16; ++mb) {
        const sd::Instance x{n, members(ma), members(mb)};
        const auto want = sd::intersection(x);
        // End to end: the G.21 output's window (the G.18 mask zeroes every other row), then the
        // G.18 block as one model, evaluated here.
        const sdc::PipelineOutcome o = sdc::run_pipeline(P, x);
        const std::size_t N = o.window.rows(), lo = P.window_lo(N);
        const sdc::G18Model g = sdc::build_g18(n, 2 * N, lo, N, cfg.kernel, sdc::first_set(o.window, n));
        Matrix<std::int64_t> z(2 * N, n + 1, 0);
        for (std::size_t i = 0; i < N; ++i)
          for (std::size_t j = 0; j <= n; ++j) z(lo + i, j) = o.window(i, j);
        const Matrix<Int> out = IntegerEvaluator(g.full())(z);
        right += decode_documented(out, lo, N, o.window, n, stray) == want;
        // Alg. 3's reading (flag in column n): never flagged here.
        bool any_n = false;
        for (std::size_t i = 0; i < out.rows(); ++i) any_n = any_n || !out(i, n).is_zero();
        right_alg3 += (!any_n) == want.empty();
        // stage=g18: rows [0, N) of u itself (A first).
        const Matrix<std::int64_t> u = sd::encode(x);
        const sdc::G18Model g1 = sdc::build_g18(n, u.rows(), 0, u.rows(), cfg.kernel, x.A);
        right_g18 += decode_documented(IntegerEvaluator(g1.full())(u), 0, u.rows(), u, n, stray) == want;
      }
    CHECK(right == 256);
    CHECK(right_g18 == 256);
    CHECK(stray == 0);
    CHECK(right_alg3 < 256);  // the old documentation's reading fails (only disjoint pairs come out right)
  }
}
