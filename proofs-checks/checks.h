// The computations behind the prove checks, exposed so that tests can feed them mutants (a model
// with a non-causal tap, a wrong degree bound, a stack that drops a layer). No FLINT here.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "verify/construction.h"

namespace cz::proofs {

// --- Lemma 5.1: the largest total degree of the outputs, or nullopt (why) when not computable.
std::optional<long> max_output_degree(const Model& m, std::string& why);
// Every output entry of m has degree <= bound(L); the first violation is described in `why`.
bool degree_within(const Model& m, long bound, std::string& why);

// --- Causality lemma: output entries (i, j) that depend on an input row > i (symbolically).
struct CausalityResult {
  std::size_t entries = 0, violations = 0;
  std::string first;  // the first violation, in words
};
std::optional<CausalityResult> causality_violations(const Model& m, std::string& why);

// --- Degree lower bounds.
// Exact multilinear degree of f: {0,1}^m -> Z (Möbius transform over the cube); -1 when f = 0.
long multilinear_degree(const std::vector<std::int64_t>& f, unsigned m);
// EQ(q, k) on d-bit binary tokens as a table over {0,1}^(2d) (q bits low, k bits high).
std::vector<std::int64_t> eq_binary_table(unsigned d);
// p-hot EQ (digits in base b): the degree-2p polynomial agrees on all c^2 pairs, and the dual
// certificate (the signed sub-cube) annihilates every monomial of degree < 2p but not EQ.
// Returns the exact minimal degree when both hold (2p), else -1 with `why`.
long phot_eq_min_degree(unsigned p, unsigned b, std::string& why, long claimed_lower = -1);

// --- State lower bounds for SD (universe = the first U of the n-bit strings).
struct SdMatrixStats {
  unsigned U = 0, a = 0, b = 0;
  std::uint64_t rows = 0, cols = 0, distinct_rows = 0, rank = 0;  // rank over F_p (<= rank over Q)
};
SdMatrixStats sd_matrix_stats(unsigned U, unsigned a, unsigned b, bool with_rank);
// Smallest state count s with (2s)^(2p-1) >= r (a JR-p prompt gives a (2p-1)-message protocol
// whose messages are a state plus a flag-seen bit); bits = ceil(log2 s).
std::uint64_t jrp_min_states(std::uint64_t r, unsigned p);
unsigned ceil_log2(std::uint64_t x);

// --- Stacking: composed has L(a)+L(b) layers and equals b∘a (a's N×d output extracted, then
// embedded into b) on 64 seeded inputs in [-3, 3].
bool stacking_holds(const Model& a, const Model& b, const Model& composed, std::uint64_t seed, std::string& why);
// a with its last layer's output columns >= d zeroed (BaseConv: W and b1 columns; MLP: W2 and B2
// columns; LinearAttention: Wv columns): its N×d output is unchanged.
Model zero_outer_columns(const Model& a);
// An (N, L1+L2, d, N', d') model computing b∘a for causal a, b of equal shapes (JRT L.G.20's
// stacking, Based): plain concatenation when N' = N and d' = d; otherwise a's last layer first
// zeroes the columns >= d, and rows >= N need no extraction, since a causal b's rows < N read only
// rows < N (causality lemma, spec §2.1). Throws std::invalid_argument for non-causal models with
// inner dims larger than outer ones (their rows >= N wrap into rows < N: an extraction layer is needed).
Model stack_composing(const Model& a, const Model& b);

// --- Shared: build a construction at parameters (defaults filled in).
Built build_construction(const std::string& name, const std::map<std::string, std::string>& params = {});

}  // namespace cz::proofs
