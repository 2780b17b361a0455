#include "app/report/fit.h"

#include <algorithm>
#include <cmath>

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
  f.r2 = vy > 0 ? (cxy * cxy) / (vx * vy) : 1.0;
  return f;
}

}  // namespace cz
