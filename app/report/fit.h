// Least-squares fits for sweeps: log-log slope of a measured quantity against the varied
// parameter (the growth exponent), and against a claim's O(.) shape (slope ~1 and bounded
// achieved/shape ratios mean the measurement grows like the claim). Every fit keeps its data.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cz {

struct Fit {
  double slope = 0, intercept = 0, r2 = 0;
  std::vector<std::pair<double, double>> points;  // (x, y), positive values only
};

// The fewest points a slope is read from (issue 49 item 5): a line through 2 points always has
// r2 = 1, so fewer than this many sizes give no verdict (the ledger's rule, ledger.h) and no slope
// in human output. The JSON keeps the fit (with its points) whatever their number.
inline constexpr std::size_t kMinFitPoints = 5;

// Fits log(y) = slope·log(x) + intercept over the points with x, y > 0; nullopt with < 2 points.
std::optional<Fit> fit_loglog(const std::vector<std::pair<double, double>>& xy);

// Why fit_loglog gives no fit for XY (call it when it returned nullopt): "fewer than 2 points with
// positive values", or "x is the same at every point" (e.g. an O(1) shape: nothing to fit against).
std::string no_fit_reason(const std::vector<std::pair<double, double>>& xy);

}  // namespace cz
