// Exact symbolic evaluation of a data-independent BaseConv model (FLINT fmpq_mpoly, kept out of
// this header): every input entry u[i][j] is a variable, every output entry a polynomial. From
// the polynomials: total degrees (Based Lemma 5.1) and which input rows each output depends on
// (the causality lemma, spec §2.1). The convolution is written here from its definition
// (contract.md's three modes), not taken from src/tensor, so the checks stand apart from the
// evaluator they are about.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.h"

namespace cz::proofs {

struct SymbolicOutput {
  std::size_t N = 0, d = 0, layers = 0;
  std::vector<long> degree;   // N*d, row-major: total degree of each output entry (-1: the zero polynomial)
  std::vector<long> max_row;  // N*d: the largest input row that entry depends on (-1: none)
  std::vector<long> min_row;  // N*d: the smallest input row it depends on (-1: none)
  long max_degree = -1;
  std::size_t max_terms = 0;  // the longest polynomial met (any layer)
};

// nullopt (with `why`) when a layer is not BaseConv or a polynomial would pass term_cap terms.
std::optional<SymbolicOutput> symbolic_eval(const Model& m, std::string& why, std::size_t term_cap = 300000);

// A random data-independent BaseConv model with integer weights in [-range, range] (dense W, b1,
// h, b2), drawn from `seed` (splitmix64; the same model on every machine).
Model random_baseconv(std::size_t N, std::size_t d, std::size_t inner_N, std::size_t inner_d, std::size_t L,
                      ConvMode mode, std::uint64_t seed, int range = 2);

// True when every layer is a BaseConv layer (Lemma 5.1 and the causality lemma are about those).
bool baseconv_only(const Model& m);

}  // namespace cz::proofs
