#include "tasks/sd.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace cz::sd {
namespace {

std::uint64_t universe(unsigned n) {
  if (n == 0 || n > 24) throw std::invalid_argument("SD element width n must lie in [1, 24]");
  return std::uint64_t(1) << n;
}

// C(m, r), or nullopt above 2^64 - 1 (exact: each partial product C(m, i) is an integer).
std::optional<std::uint64_t> binom(std::uint64_t m, std::uint64_t r) {
  if (r > m) return 0;
  unsigned __int128 c = 1;
  for (std::uint64_t i = 0; i < r; ++i) {
    c = c * (m - i) / (i + 1);
    if (c > UINT64_MAX) return std::nullopt;
  }
  return static_cast<std::uint64_t>(c);
}

// m·(m-1)···(m-l+1), or nullopt on overflow.
std::optional<std::uint64_t> falling(std::uint64_t m, std::uint64_t l) {
  if (l > m) return 0;
  unsigned __int128 c = 1;
  for (std::uint64_t i = 0; i < l; ++i) {
    c *= (m - i);
    if (c > UINT64_MAX) return std::nullopt;
  }
  return static_cast<std::uint64_t>(c);
}

std::optional<std::uint64_t> mul(std::optional<std::uint64_t> a, std::optional<std::uint64_t> b) {
  if (!a || !b) return std::nullopt;
  unsigned __int128 c = static_cast<unsigned __int128>(*a) * *b;
  if (c > UINT64_MAX) return std::nullopt;
  return static_cast<std::uint64_t>(c);
}

std::vector<std::uint32_t> mask_to_set(std::uint64_t mask, std::uint64_t U) {
  std::vector<std::uint32_t> s;
  for (std::uint64_t x = 0; x < U; ++x)
    if ((mask >> x) & 1) s.push_back(static_cast<std::uint32_t>(x));
  return s;
}

// Number of distinct-element sequences of length <= kmax over U symbols.
std::optional<std::uint64_t> count_sequences(std::uint64_t U, std::size_t kmax) {
  std::uint64_t total = 0;
  for (std::size_t l = 0; l <= kmax; ++l) {
    auto f = falling(U, l);
    if (!f || total > UINT64_MAX - *f) return std::nullopt;
    total += *f;
  }
  return total;
}

// The r-th sequence (lengths in increasing order; within a length, mixed-radix digits that pick
// the digit-th unused element).
std::vector<std::uint32_t> sequence(std::uint64_t U, std::size_t kmax, std::uint64_t r) {
  for (std::size_t l = 0; l <= kmax; ++l) {
    std::uint64_t f = *falling(U, l);
    if (r >= f) {
      r -= f;
      continue;
    }
    std::vector<std::uint32_t> out;
    std::vector<bool> used(U, false);
    for (std::size_t i = 0; i < l; ++i) {
      // digit i ranges over U - i values; the most significant digit comes first.
      std::uint64_t rest = *falling(U - i - 1, l - i - 1);
      std::uint64_t digit = r / rest;
      r %= rest;
      for (std::uint64_t x = 0; x < U; ++x)
        if (!used[x] && digit-- == 0) {
          used[x] = true;
          out.push_back(static_cast<std::uint32_t>(x));
          break;
        }
    }
    return out;
  }
  throw std::out_of_range("sequence index out of range");
}

// The r-th a-subset of [0, U) in lexicographic order, increasing.
std::vector<std::uint32_t> combination(std::uint64_t U, std::size_t a, std::uint64_t r) {
  std::vector<std::uint32_t> out;
  std::uint64_t x = 0;
  for (std::size_t i = 0; i < a; ++i) {
    for (;; ++x) {
      std::uint64_t with_x = *binom(U - x - 1, a - i - 1);  // subsets whose next element is x
      if (r < with_x) break;
      r -= with_x;
    }
    out.push_back(static_cast<std::uint32_t>(x++));
  }
  return out;
}

// `count` distinct elements of [0, U) in uniformly random order (rejection; count <= U).
std::vector<std::uint32_t> distinct_sample(std::uint64_t U, std::size_t count, const Below& below) {
  if (count > U) throw std::invalid_argument("set larger than the universe {0,1}^n");
  std::vector<std::uint32_t> out;
  std::set<std::uint32_t> seen;
  if (count * 2 > U) {  // dense: shuffle the whole universe
    std::vector<std::uint32_t> all(U);
    for (std::uint64_t x = 0; x < U; ++x) all[x] = static_cast<std::uint32_t>(x);
    for (std::size_t i = 0; i < count; ++i) std::swap(all[i], all[i + below(U - i)]);
    all.resize(count);
    return all;
  }
  while (out.size() < count) {
    auto x = static_cast<std::uint32_t>(below(U));
    if (seen.insert(x).second) out.push_back(x);
  }
  return out;
}

}  // namespace

std::vector<std::uint32_t> intersection(const Instance& x) {
  std::set<std::uint32_t> a(x.A.begin(), x.A.end());
  std::set<std::uint32_t> out;
  for (std::uint32_t b : x.B)
    if (a.count(b)) out.insert(b);
  return {out.begin(), out.end()};
}

bool disjoint(const Instance& x) { return intersection(x).empty(); }

Matrix<std::int64_t> encode(const Instance& x) {
  const std::size_t N = x.A.size() + x.B.size() + 1, d = x.n + 1;
  Matrix<std::int64_t> u(N, d, 0);
  auto put = [&](std::size_t row, std::uint32_t e) {
    for (unsigned b = 0; b < x.n; ++b) u(row, b) = (e >> b) & 1;
  };
  for (std::size_t i = 0; i < x.A.size(); ++i) put(i, x.A[i]);
  u(x.A.size(), x.n) = 1;  // the separator [0^n :: 1]
  for (std::size_t i = 0; i < x.B.size(); ++i) put(x.A.size() + 1 + i, x.B[i]);
  return u;
}

Matrix<std::int64_t> repeat_prompt(const Matrix<std::int64_t>& u, std::size_t p) {
  Matrix<std::int64_t> r(p * u.rows(), u.cols(), 0);
  for (std::size_t c = 0; c < p; ++c)
    for (std::size_t i = 0; i < u.rows(); ++i)
      for (std::size_t j = 0; j < u.cols(); ++j) r(c * u.rows() + i, j) = u(i, j);
  return r;
}

std::uint32_t row_element(const std::int64_t* row, unsigned n) {
  std::uint32_t x = 0;
  for (unsigned b = 0; b < n; ++b)
    if (row[b]) x |= std::uint32_t(1) << b;
  return x;
}

nlohmann::json to_json(const Instance& x) { return {{"n", x.n}, {"A", x.A}, {"B", x.B}}; }

std::optional<std::uint64_t> count_subset_pairs(unsigned n) {
  const std::uint64_t U = universe(n);
  if (U >= 32) return std::nullopt;
  return std::uint64_t(1) << (2 * U);
}

Instance subset_pair(unsigned n, std::uint64_t k) {
  const std::uint64_t U = universe(n);
  if (U >= 32) throw std::invalid_argument("subset pairs enumerate only n <= 4");
  const std::uint64_t low = (std::uint64_t(1) << U) - 1;
  return Instance{n, mask_to_set((k >> U) & low, U), mask_to_set(k & low, U)};
}

Instance sample_subset_pair(unsigned n, const Below& below) {
  const std::uint64_t U = universe(n);
  Instance x{n, {}, {}};
  for (std::uint64_t e = 0; e < U; ++e)
    if (below(2)) x.A.push_back(static_cast<std::uint32_t>(e));
  for (std::uint64_t e = 0; e < U; ++e)
    if (below(2)) x.B.push_back(static_cast<std::uint32_t>(e));
  return x;
}

std::optional<std::uint64_t> count_order_pairs(unsigned n, std::size_t kmax) {
  auto s = count_sequences(universe(n), kmax);
  return mul(s, s);
}

Instance order_pair(unsigned n, std::size_t kmax, std::uint64_t k) {
  const std::uint64_t U = universe(n);
  const std::uint64_t S = *count_sequences(U, kmax);
  return Instance{n, sequence(U, kmax, k / S), sequence(U, kmax, k % S)};
}

Instance sample_order_pair(unsigned n, std::size_t kmax, const Below& below) {
  const std::uint64_t U = universe(n);
  const std::size_t top = static_cast<std::size_t>(std::min<std::uint64_t>(kmax, U));
  Instance x{n, {}, {}};
  x.A = distinct_sample(U, below(top + 1), below);
  x.B = distinct_sample(U, below(top + 1), below);
  return x;
}

std::optional<std::uint64_t> count_sized_pairs(unsigned n, std::size_t a, std::size_t b) {
  const std::uint64_t U = universe(n);
  return mul(binom(U, a), binom(U, b));
}

Instance sized_pair(unsigned n, std::size_t a, std::size_t b, std::uint64_t k) {
  const std::uint64_t U = universe(n);
  const std::uint64_t cb = *binom(U, b);
  return Instance{n, combination(U, a, k / cb), combination(U, b, k % cb)};
}

Instance sample_sized_pair(unsigned n, std::size_t a, std::size_t b, bool plant, const Below& below) {
  const std::uint64_t U = universe(n);
  Instance x{n, distinct_sample(U, a, below), distinct_sample(U, b, below)};
  if (plant && a > 0 && b > 0 && disjoint(x)) x.B[below(b)] = x.A[below(a)];
  // The sized domain is sets in increasing order (sized_pair, and --method sat's blocks): the
  // draws above pick the sets, sorting puts them in the domain (the same sets as before 2026-12-07).
  std::sort(x.A.begin(), x.A.end());
  std::sort(x.B.begin(), x.B.end());
  return x;
}

}  // namespace cz::sd
