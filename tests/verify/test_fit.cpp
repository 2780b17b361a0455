#include <doctest/doctest.h>

#include <cmath>

#include "app/report/fit.h"

using namespace cz;

TEST_CASE("fit_loglog recovers exponents and ignores non-positive points") {
  std::vector<std::pair<double, double>> pts;
  for (double x : {2.0, 4.0, 8.0, 16.0, 32.0}) pts.emplace_back(x, 3 * x * x * std::log2(x));
  pts.emplace_back(0.0, 5.0);
  auto f = fit_loglog(pts);
  REQUIRE(f);
  CHECK(f->points.size() == 5);
  CHECK(f->slope > 2.0);
  CHECK(f->slope < 3.0);  // the log factor adds ~1/ln(x) on this range
  CHECK(f->r2 > 0.99);
  auto g = fit_loglog({{1, 7}, {10, 70}, {100, 700}});
  REQUIRE(g);
  CHECK(g->slope == doctest::Approx(1.0));
  CHECK_FALSE(fit_loglog({{1, 1}}));
  CHECK_FALSE(fit_loglog({{2, 1}, {2, 3}}));
  CHECK_FALSE(fit_loglog({{0.1 * 3, 1}, {0.3, 3}, {0.30000000000000004, 5}}));  // equal up to rounding
}
