#include "constructions/sd/kernels.h"

#include <cmath>
#include <stdexcept>

#include "util/seeded.h"

namespace cz::sdc {

std::vector<std::int64_t> dd_phi(const std::vector<std::uint32_t>& S, unsigned n, std::uint32_t x) {
  std::vector<std::int64_t> phi(S.size() + n, 0);
  for (std::size_t k = 0; k < S.size(); ++k)
    if (S[k] == x) {
      phi[k] = 1;
      return phi;
    }
  for (unsigned b = 0; b < n; ++b) phi[S.size() + b] = (x >> b) & 1;
  return phi;
}

std::vector<std::int64_t> random_phi(std::uint64_t seed, std::size_t f, std::uint32_t x) {
  std::vector<std::int64_t> r(f);
  InstanceRng rng(seed, x);
  std::uint64_t word = 0;
  for (std::size_t t = 0; t < f; ++t) {
    if (t % 64 == 0) word = rng.next();
    r[t] = ((word >> (t % 64)) & 1) ? 1 : -1;
  }
  return r;
}

namespace {
std::vector<std::vector<std::int64_t>> all_rows(std::uint64_t seed, std::size_t f, unsigned n) {
  std::vector<std::vector<std::int64_t>> rows;
  for (std::uint32_t x = 0; x < (std::uint32_t(1) << n); ++x) rows.push_back(random_phi(seed, f, x));
  return rows;
}
}  // namespace

std::int64_t random_max_offdiag(std::uint64_t seed, std::size_t f, unsigned n) {
  auto rows = all_rows(seed, f, n);
  std::int64_t worst = 0;
  for (std::size_t x = 0; x < rows.size(); ++x)
    for (std::size_t y = x + 1; y < rows.size(); ++y) {
      std::int64_t ip = 0;
      for (std::size_t t = 0; t < f; ++t) ip += rows[x][t] * rows[y][t];
      worst = std::max(worst, ip < 0 ? -ip : ip);
    }
  return worst;
}

std::optional<std::size_t> random_f_for_eps(std::uint64_t seed, unsigned n, std::size_t s, std::size_t fmax) {
  auto rows = all_rows(seed, fmax, n);
  const std::size_t c = rows.size();
  std::vector<std::int64_t> gram(c * c, 0);  // prefix inner products, grown one coordinate at a time
  for (std::size_t f = 1; f <= fmax; ++f) {
    std::int64_t worst = 0;
    for (std::size_t x = 0; x < c; ++x)
      for (std::size_t y = x + 1; y < c; ++y) {
        std::int64_t& g = gram[x * c + y];
        g += rows[x][f - 1] * rows[y][f - 1];
        worst = std::max(worst, g < 0 ? -g : g);
      }
    if (static_cast<std::int64_t>(3 * s) * worst <= static_cast<std::int64_t>(f)) return f;
  }
  return std::nullopt;
}

double random_f_jrt(unsigned n, std::size_t s) {
  const double c = std::ldexp(1.0, static_cast<int>(n));
  const double t2 = 2.0 * std::log(2.0 * c * c);
  return 9.0 * static_cast<double>(s * s) * t2;
}

RatInterval exp_neg(std::size_t t) {
  // e_lo = sum_{k<=K} 1/k!, e_hi = e_lo + 1/(K!·K) (the tail sum_{k>K} 1/k! < 1/(K!·K)).
  constexpr int K = 24;
  Rat e_lo(0), term(1);
  for (int k = 0; k <= K; ++k) {
    if (k > 0) term /= Rat(k);
    e_lo += term;
  }
  const Rat e_hi = e_lo + term / Rat(K);
  Rat plo(1), phi(1);
  for (std::size_t i = 0; i < t; ++i) {
    plo *= e_lo;
    phi *= e_hi;
  }
  return {Rat(1) / phi, Rat(1) / plo};  // e^{-t} in [1/e_hi^t, 1/e_lo^t]
}

std::size_t exp_r_for_eps(std::size_t s) {
  for (std::size_t r = 1;; ++r)
    if (exp_neg(2 * r).hi * Rat(static_cast<std::int64_t>(3 * s)) <= Rat(1)) return r;
}

}  // namespace cz::sdc

namespace cz::sdc {
std::optional<std::size_t> random_f_min(std::uint64_t seed, unsigned n,
                                        const std::vector<std::pair<std::vector<std::uint32_t>, std::uint32_t>>& pairs,
                                        std::size_t fmax) {
  auto rows = all_rows(seed, fmax, n);
  const std::size_t c = rows.size();
  std::vector<std::int64_t> gram(c * c, 0);
  for (std::size_t f = 1; f <= fmax; ++f) {
    for (std::size_t x = 0; x < c; ++x)
      for (std::size_t y = 0; y < c; ++y) gram[x * c + y] += rows[x][f - 1] * rows[y][f - 1];
    bool ok = true;
    for (const auto& [S, b] : pairs) {
      std::int64_t z = 0;
      bool in = false;
      for (std::uint32_t a : S) {
        z += gram[b * c + a];
        in = in || a == b;
      }
      if ((2 * z > static_cast<std::int64_t>(f)) != in) { ok = false; break; }
    }
    if (ok) return f;
  }
  return std::nullopt;
}
}  // namespace cz::sdc
