#include "tensor/kmatrix_sparse.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "tensor/kmatrix_route.h"

namespace cz {
namespace {

using kroute::npos;

std::size_t pow2_at_least(std::size_t x) {
  std::size_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

// Disjoint residue classes of the given power-of-two sizes in [0, 2^M): aligned blocks of a
// bit-reversed address space, packed largest first (which keeps every block aligned). Class q is
// {rev(a_q + t) : t < size_q}; its first member rev(a_q) is its least element.
std::vector<std::vector<std::size_t>> classes(const std::vector<std::size_t>& sizes, unsigned M) {
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  std::vector<std::vector<std::size_t>> out(sizes.size());
  std::size_t cursor = 0;
  for (std::size_t q : order) {
    for (std::size_t t = 0; t < sizes[q]; ++t) out[q].push_back(kroute::bit_reverse(cursor + t, M));
    cursor += sizes[q];
  }
  if (cursor > (std::size_t{1} << M)) throw std::logic_error("sparse K-matrix: classes overflow the inner size");
  return out;
}

// Completes a partial map (out[i] = input read by output i, npos where free) to a permutation.
std::vector<std::size_t> complete(std::vector<std::size_t> out) {
  std::vector<char> used(out.size(), 0);
  for (std::size_t v : out)
    if (v != npos) {
      if (used[v]) throw std::logic_error("sparse K-matrix: a row is routed twice");
      used[v] = 1;
    }
  std::size_t next = 0;
  for (auto& v : out)
    if (v == npos) {
      while (used[next]) ++next;
      v = next, used[next] = 1;
    }
  return out;
}

}  // namespace

SparsePlan sparse_plan(std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& entries) {
  log2_exact(n);
  for (const auto& [i, j] : entries)
    if (i >= n || j >= n) throw std::invalid_argument("sparse K-matrix: entry (" + std::to_string(i) + ", " + std::to_string(j) + ") outside " + std::to_string(n) + "×" + std::to_string(n));
  const std::size_t m = 4 * n;
  const unsigned M = log2_exact(m);
  SparsePlan plan;
  plan.coded.n = n;
  plan.coded.e = 4;
  plan.chunks = std::max<std::size_t>(1, (entries.size() + n - 1) / n);
  std::vector<std::size_t> xpos(n), accpos(n, npos);
  std::iota(xpos.begin(), xpos.end(), 0);  // Sᵀ puts x[c] at row c; rows ≥ n are zero
  for (std::size_t ch = 0; ch < plan.chunks; ++ch) {
    const std::size_t lo = ch * n, hi = std::min(entries.size(), lo + n);
    std::vector<std::vector<std::size_t>> by_col(n), by_row(n);
    for (std::size_t t = lo; t < hi; ++t) by_col[entries[t].second].push_back(t), by_row[entries[t].first].push_back(t);
    // Gather layout: class of column c (keeper + its copies), then one row per accumulator.
    std::vector<std::size_t> sizes;
    for (std::size_t c = 0; c < n; ++c) sizes.push_back(pow2_at_least(by_col[c].size() + 1));
    sizes.insert(sizes.end(), n, 1);
    const auto g = classes(sizes, M);
    std::vector<std::size_t> pi(m, npos), src(m, npos), slot(entries.size(), npos);
    std::vector<int> weight(m, 0);
    for (std::size_t c = 0; c < n; ++c) {
      pi[g[c][0]] = xpos[c];
      for (std::size_t i : g[c]) src[i] = g[c][0];
      weight[g[c][0]] = 1;
      for (std::size_t u = 0; u < by_col[c].size(); ++u) {
        const std::size_t t = by_col[c][u];
        slot[t] = g[c][1 + u];
        weight[slot[t]] = static_cast<int>(t + 2);
      }
    }
    for (std::size_t r = 0; r < n; ++r) {
      const std::size_t a = g[n + r][0];
      pi[a] = accpos[r];
      src[a] = a;
      weight[a] = 1;
    }
    // Scatter layout: group of row r (accumulator + its products), then one keeper row per column.
    sizes.clear();
    for (std::size_t r = 0; r < n; ++r) sizes.push_back(pow2_at_least(by_row[r].size() + 1));
    sizes.insert(sizes.end(), n, 1);
    const auto s = classes(sizes, M);
    std::vector<std::size_t> q(m, npos), sink(m, npos);
    for (std::size_t r = 0; r < n; ++r) {
      q[s[r][0]] = g[n + r][0];
      for (std::size_t u = 0; u < by_row[r].size(); ++u) q[s[r][1 + u]] = slot[by_row[r][u]];
      for (std::size_t i : s[r]) sink[i] = s[r][0];
    }
    for (std::size_t c = 0; c < n; ++c) {
      const std::size_t k = s[n + c][0];
      q[k] = g[c][0];
      sink[k] = k;
    }
    BBStar<int> ea = kroute::permutation_bbstar(complete(pi));
    auto [qb, qt] = kroute::permutation_b_then_t(complete(q));
    Butterfly<int> gather = kroute::selection_network(src);
    kroute::scale_columns(gather, weight);
    BBStar<int> eb{std::move(qb), std::move(gather)};
    BBStar<int> ec{kroute::selection_network(sink), std::move(qt)};
    plan.coded.elements.push_back(std::move(ea));
    plan.coded.elements.push_back(std::move(eb));
    plan.coded.elements.push_back(std::move(ec));
    for (std::size_t c = 0; c < n; ++c) xpos[c] = s[n + c][0];
    for (std::size_t r = 0; r < n; ++r) accpos[r] = s[r][0];
  }
  std::vector<std::size_t> last(m, npos);
  for (std::size_t r = 0; r < n; ++r) last[r] = accpos[r];
  plan.coded.elements.push_back(kroute::permutation_bbstar(complete(last)));
  return plan;
}

}  // namespace cz
