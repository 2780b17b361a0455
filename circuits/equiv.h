// Exhaustive equivalence checking on all 0/1 inputs (the Yosys `equiv_opt -assert` idea applied
// to our transformations: compile, export → read, optimise). Instance m sets input i to bit i of
// m; output k of one side is compared with output k of the other. The first failing instance
// (the smallest m, the same for any thread count) is returned as a counterexample.
//   * both circuits all-Bit: bit-sliced (512 instances per pass; sound, see eval_bitslice.h)
//   * otherwise, with ≥ 16 inputs, when Bit inference (bit_infer.h) turns both into all-Bit circuits (a Boolean
//     function written with arithmetic gates, e.g. read from arithmetic Bristol): bit-sliced
//   * else both integral (every constant an integer): batched checked int64 (256 instances per pass over
//     the gate array, overflow flagged per lane and those lanes redone exactly in Z)
//   * otherwise exact, one instance at a time: Q (a constant is not an integer)
//   * circuit vs model: the circuit's inputs are entries of the model's input u and its outputs
//     entries of y (layout_for: by the names u[i][j]/y[i][j] when every name has that form, else
//     row-major by index; other entries of u are 0); the model is evaluated by its own exact
//     evaluator (model/eval.h), not through any compiled circuit.
// Throws std::invalid_argument on mismatched shapes or more than max_inputs inputs.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "circuits/circuit.h"
#include "model/model.h"

namespace cz::circuits {

struct Counterexample {
  std::uint64_t instance = 0;  // the instance number (exhaustive) or the sample index (sampling)
  std::vector<int> inputs;     // 0/1 per input (empty for a field sample)
  std::vector<std::uint64_t> field_inputs;  // field samples: the point in Fp^n (want/got are residues mod p)
  std::string output;       // name (of the first side)
  std::string want, got;    // first side, second side
};

struct EquivResult {
  bool equivalent = true;
  std::uint64_t instances = 0;
  std::string method;  // "bit-sliced" | "batched-int64" | "exact" | "sampled-bit-sliced" | "sampled-Fp"
  std::optional<Counterexample> counterexample;
  // Sampling only (sample_equivalent).
  std::uint64_t samples = 0, seed = 0;
  std::uint64_t prime = 0;                 // sampled-Fp: the random prime p
  std::uint64_t degree = 0;                // sampled-Fp: formal degree bound d (max over both sides; saturates)
  double error_per_sample = 0;             // sampled-Fp: min(1, d/p) (Schwartz–Zippel)
  double log10_error_bound = 0;            // sampled-Fp: K·log10(d/p): a differing pair passes K samples w.p. ≤ 10^this
  std::optional<bool> agree_on_01;         // sampled-Fp difference: do they still agree on every 0/1 input? (checked exhaustively when feasible)
  std::optional<Counterexample> counterexample_01;  // ... and the smallest 0/1 counterexample when they do not
  std::string note;                        // a sentence on what the verdict means
};

EquivResult equivalent_on_01(const Circuit& a, const Circuit& b, unsigned threads = 0, unsigned max_inputs = 32);
// The one-at-a-time exact path (checked int64 → Z, or Q), kept as the independent reference for
// the batched path: same verdict and counterexample.
EquivResult equivalent_on_01_scalar(const Circuit& a, const Circuit& b, unsigned threads = 0, unsigned max_inputs = 32);
// The batched checked-int64 path alone (no Bit inference): for tests and benchmarks; needs
// integral constants.
EquivResult equivalent_on_01_int64(const Circuit& a, const Circuit& b, unsigned threads = 0, unsigned max_inputs = 32);

// Random simulation when the inputs are too many to enumerate; deterministic for a seed and any
// thread count (sample j is a function of (seed, j); the smallest failing j is reported).
//   * both all-Bit: K random 0/1 inputs, bit-sliced; a failure is a concrete 0/1 counterexample.
//   * otherwise: K random points of Fp^n for a random prime p in [2^60, 2^61) (from the seed),
//     batched Fp. A mismatch proves the circuits differ as polynomials; if they agree on every 0/1
//     input (checked exhaustively when inputs ≤ max_inputs_01) the result says exactly that.
//     Passing bounds the chance that differing polynomials slip through: (d/p)^K, d the formal degree.
EquivResult sample_equivalent(const Circuit& a, const Circuit& b, std::uint64_t samples, std::uint64_t seed,
                              unsigned threads = 0, unsigned max_inputs_01 = 24);

EquivResult equivalent_on_01(const Circuit& c, const Model& m, unsigned threads = 0, unsigned max_inputs = 24);

}  // namespace cz::circuits
