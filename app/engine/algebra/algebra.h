// `verify NAME --method algebra` (issue 37 item 1; contract.md "verify --method algebra"): a proof
// for EVERY input in Q^{N×d}, not a box. The input u becomes N·d symbols (exact/poly.h); the
// model (model/eval.h, the project's one evaluator) and the construction's reference (the
// architecture's own evaluation for sim/*, src/tasks semantics for the primitives) run on them,
// and their outputs are compared coefficient by coefficient.
//   route "expansion":     both sides expanded in full. Refused (exit 2, with the estimate) when
//                          the bound twin (RingBound) says the terms would pass the budget.
//   route "compositional": Hyena's wide simulation (sim/hyena layout=wide): the projection layers
//                          against Hyena's projection on u, then each gate layer ℓ against the step
//                          z^ℓ = p^ℓ ⊙ (h^ℓ ∗ z^{ℓ−1}) on fresh symbols for z^{ℓ−1} and p^ℓ..p^k,
//                          each step an identity of degree ≤ 2 in its own symbols; the steps'
//                          references are Hyena's own evaluator (hyena_eval) on order-1 operators
//                          that isolate one step, and the recursion composes them.
//   verdicts: proved (exit 0); refuted (exit 1): a point where the difference is nonzero, found
//   by evaluating it at seeded small integers, confirmed by exact evaluation (over Q) of model
//   and reference at that input, and shrunk toward 0; undecided (exit 4): a compositional step
//   failed, expansion is over budget and no random point told model and reference apart.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "verify/construction.h"
#include "verify/symbolic_reference.h"

namespace cz {

struct AlgebraOptions {
  std::uint64_t budget_bytes = std::uint64_t{4} << 30;  // --algebra-budget
  std::string route = "auto";                           // auto | expansion | compositional (--algebra-route)
  std::uint64_t seed = 1;                               // the points tried for a counterexample
  std::string symbols = "inputs";                       // inputs | weights (--algebra-symbols; app/engine/algebra/algebra_weights.h)
};

struct AlgebraOutcome {
  nlohmann::json report;  // all but tool, version, counterexample, claims, timing
  std::string verdict;    // proved | refuted | undecided
  int exit_code = 0;      // 0 proved, 1 refuted, 4 undecided
  std::optional<Failure> counterexample;
  std::vector<Claim> claims;
  double seconds = 0;
};

// The model's polynomial outputs against the reference's (the core, used by the CLI and tests).
// head: construction, params, ... copied into the report. Throws InputError (exit 2) over budget.
AlgebraOutcome prove_model_identity(const Model& m, const SymbolicReference& ref, const AlgebraOptions& o, nlohmann::json head,
                                    const std::string& where);

// Output entries of the reference that are 0 at each of 3 seeded inputs in F_p, p = 2^61 − 1 (issue
// 46 item 4): an upper bound on the entries that are the zero polynomial (a nonzero value at a
// point is a nonzero polynomial, so 0 is exact). The routes that never expand the outputs
// (compositional) report it as zero_outputs; the expansions count the zero polynomials exactly.
inline constexpr std::uint64_t kZeroCheckPrime = 2305843009213693951ULL;  // 2^61 − 1
std::size_t zero_outputs_at_points(const SymbolicReference& ref, std::size_t N, std::size_t d, std::uint64_t seed);

// The reference --method algebra proves a built construction against: the sim/* constructions'
// attached one, the primitives' task semantics; nullptr when there is none (or no model).
std::shared_ptr<const SymbolicReference> algebra_reference(const Construction& c, const Params& p, const Built& bt);

// A built-in construction: sim/* (their Built carries a SymbolicReference) and the primitives
// (model vs src/tasks semantics). Throws InputError (exit 2) for anything else, with why.
AlgebraOutcome run_verify_algebra(const Construction& c, const std::map<std::string, std::string>& given, const AlgebraOptions& o);

}  // namespace cz
