#include "app/report/fit.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace cz {

std::optional<Fit> fit_loglog(const std::vector<std::pair<double, double>>& xy) {
  Fit f;
  for (const auto& [x, y] : xy)
    if (x > 0 && y > 0) f.points.emplace_back(x, y);
  const double n = static_cast<double>(f.points.size());
  if (f.points.size() < 2) return std::nullopt;
  double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
  for (const auto& [x, y] : f.points) {
    const double lx = std::log(x), ly = std::log(y);
    sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly; syy += ly * ly;
  }
  const double vx = sxx - sx * sx / n, vy = syy - sy * sy / n, cxy = sxy - sx * sy / n;
  // Equal x values leave only rounding noise in vx: no growth to fit (relative tolerance).
  if (vx <= 1e-12 * std::max(1.0, sxx)) return std::nullopt;
  f.slope = cxy / vx;
  f.intercept = (sy - f.slope * sx) / n;
  // A constant y (vy only rounding noise): the line fits exactly, r2 = 1 (not 0/0 noise).
  f.r2 = vy > 1e-12 * std::max(1.0, syy) ? (cxy * cxy) / (vx * vy) : 1.0;
  return f;
}

}  // namespace cz

namespace cz {

std::string no_fit_reason(const std::vector<std::pair<double, double>>& xy) {
  std::size_t positive = 0;
  for (const auto& [x, y] : xy) positive += x > 0 && y > 0;
  if (positive < 2)
    return "fewer than 2 points with positive values (" + std::to_string(positive) + " of " + std::to_string(xy.size()) +
           "): no log-log fit";
  return "x is the same at every point: nothing to fit against";
}

}  // namespace cz
