// Set disjointness (SD) instances, their input encoding and the plain reference solver
// (JRT App. G: Remark G.14 input layout, Def G.4 JRT prompt, Def G.28 JR-p prompt).
//
// An element of {0,1}^n is stored as an integer x < 2^n; bit b of x ((x >> b) & 1) is column b of
// its row, so column 0 holds the least significant bit. Column n is the separator flag:
// element rows are [x :: 0], the single separator is [0^n :: 1] (Remark G.14). Note that the
// element 0^n is a legal element whose row is all zero; only the flag tells it from the separator.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tensor/matrix.h"

namespace cz::sd {

struct Instance {
  unsigned n = 0;                   // element width in bits
  std::vector<std::uint32_t> A, B;  // in prompt order; elements distinct within each set
};

// --- reference (independent of every construction; written as plainly as possible) ---
// A ∩ B in increasing order.
std::vector<std::uint32_t> intersection(const Instance& x);
// true iff A ∩ B = ∅.
bool disjoint(const Instance& x);

// --- encodings ---
// u ∈ {0,1}^{N×(n+1)} with N = |A| + |B| + 1: A's rows, the separator, B's rows (Remark G.14).
Matrix<std::int64_t> encode(const Instance& x);
// The p-times repeated prompt [u; ...; u] ∈ R^{pN×d} (p = 2: JRT prompt, Def G.4; JR-p, Def G.28).
Matrix<std::int64_t> repeat_prompt(const Matrix<std::int64_t>& u, std::size_t p);
// Element bits of a row (columns 0..n-1) as an integer.
std::uint32_t row_element(const std::int64_t* row, unsigned n);

nlohmann::json to_json(const Instance& x);

// --- enumeration and sampling ---
// A uniform draw in [0, bound); the caller supplies the (seeded) source.
using Below = std::function<std::uint64_t(std::uint64_t)>;

// All pairs (A, B) of subsets of {0,1}^n, elements in increasing order: (2^(2^n))^2 pairs
// (65,536 at n = 3). nullopt when the count does not fit 64 bits.
std::optional<std::uint64_t> count_subset_pairs(unsigned n);
Instance subset_pair(unsigned n, std::uint64_t k);
Instance sample_subset_pair(unsigned n, const Below& below);

// All pairs of sequences of distinct elements of {0,1}^n, each of length at most kmax, in every
// order (each set is a sequence; 1,681 pairs at n = 2, kmax = 3; 160,801 at n = 3).
std::optional<std::uint64_t> count_order_pairs(unsigned n, std::size_t kmax);
Instance order_pair(unsigned n, std::size_t kmax, std::uint64_t k);
Instance sample_order_pair(unsigned n, std::size_t kmax, const Below& below);

// The sized domain: all pairs of sets with |A| = a and |B| = b, each set's elements in increasing
// order (an instance is a pair of increasing sequences, not sequences in any order: domain=orders
// is that): C(2^n,a)·C(2^n,b) pairs.
std::optional<std::uint64_t> count_sized_pairs(unsigned n, std::size_t a, std::size_t b);
Instance sized_pair(unsigned n, std::size_t a, std::size_t b, std::uint64_t k);
// A random instance of the sized domain: random sets of sizes a and b, each in increasing order
// (drawn in random order, then sorted); when `plant` (and a, b > 0) one element of A is planted
// into B when the draw is disjoint (before sorting), so that intersecting instances are not rare.
Instance sample_sized_pair(unsigned n, std::size_t a, std::size_t b, bool plant, const Below& below);

}  // namespace cz::sd
