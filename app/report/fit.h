// Least-squares fits for sweeps: log-log slope of a measured quantity against the varied
// parameter (the growth exponent), and against a claim's O(.) shape (slope ~1 and bounded
// achieved/shape ratios mean the measurement grows like the claim). Every fit keeps its data.
#pragma once
#include <optional>
#include <utility>
#include <vector>

namespace cz {

struct Fit {
  double slope = 0, intercept = 0, r2 = 0;
  std::vector<std::pair<double, double>> points;  // (x, y), positive values only
};

// Fits log(y) = slope·log(x) + intercept over the points with x, y > 0; nullopt with < 2 points.
std::optional<Fit> fit_loglog(const std::vector<std::pair<double, double>>& xy);

}  // namespace cz
