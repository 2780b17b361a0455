// A stage-wise proof that a circuit built from a comparator network sorts (issue 27: proofs past
// the size where one miter of the whole circuit stalls). Three machine-checked steps, nothing
// taken on trust from the generator's NetworkTrace (circuits/gadgets_sort.h), which only names
// the cut points:
//   1. structure: the trace's wires are checked against the circuit. Initial items are the task
//      inputs k<i>[b] (high key bits constant 0) with constant payloads, or (bitonic padding)
//      all-constant sentinels whose key exceeds every real key; positions are threaded through
//      the comparators (pos[i] := lo, pos[j] := hi); the circuit's outputs key<i>[b], idx<i>[b]
//      are exactly the final items of positions i < n; every comparator's output cone, cut at
//      earlier items' wires, inputs and constants, is made of certified Bit gates.
//   2. local miters: per comparator, with every leaf of its cone free (constants fixed), SAT of
//      "not ((lo, hi) = (a, b) or (b, a) as whole items, and lo.key <= hi.key)". UNSAT: the
//      comparator is a compare-exchange for all leaf values, hence on every circuit input (sound
//      with shared gates or extra leaves). Identical CNFs are solved once. A comparator whose
//      local miter is SAT gets a prefix miter: the same property on its whole input cone from the
//      circuit's inputs. UNSAT there: a compare-exchange on every circuit input, all the
//      composition below needs; SAT: a circuit input on which it misbehaves (the witness).
//   3. 0-1 check: the abstract network (min = AND, max = OR), positions >= n held at 1 (sentinels
//      are larger than every key), sorts every 0-1 vector: exhaustively (bit-sliced) or by one
//      SAT miter. By the 0-1 principle (Knuth TAOCP 5.3.4 Thm Z; a threshold t <= the sentinel
//      keeps sentinels at 1) the network sorts every key vector; with step 2 the final items are
//      the initial ones permuted, so positions < n hold the n real items (key, index) in key
//      order: sorted keys and an index permutation with key[idx[i]] = sorted[i].
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "circuits/circuit.h"
#include "circuits/gadgets_sort.h"
#include "circuits/sat/solver.h"

namespace cz::circuits::sat {

struct SortShape {
  std::size_t n = 0, d = 0, w = 0;  // keys, key bits, payload (index) bits
};

// Step 1. ok = false with why when anything does not match (then no stage-wise proof is tried).
struct StageStructure {
  bool ok = false;
  std::string why;
  std::size_t positions = 0, key_bits = 0;  // m >= n, D >= d
  gadgets::Network net;                      // the comparators, as matched
};
StageStructure check_sort_structure(const Circuit& c, const gadgets::NetworkTrace& t, const SortShape& s);

struct StageOptions {
  double timeout_s = 300;
  unsigned threads = 1;
  std::string zero_one = "auto";  // "auto" | "exhaustive" | "sat": how step 3 is decided
  const std::atomic<bool>* cancel = nullptr;
  // --confirm: every UNSAT answer (local, prefix and 0-1 miters) re-solved by this solver too;
  // it saying SAT is a std::runtime_error (solvers disagree), running out of time is Undecided.
  std::optional<SolverSpec> second;
  BatchRunner runner;  // the local miters' batch elsewhere (issue 38: ranks, cubes, shards); empty: here
};

struct StageResult {
  enum class Status { NotRecognised, Proved, LocalFailed, ZeroOneFailed, Undecided } status = Status::NotRecognised;
  std::string why;                   // NotRecognised / Undecided / failures: what and where
  std::size_t comparators = 0, local_miters = 0, local_folded = 0, local_distinct = 0;
  std::size_t local_vars = 0, local_clauses = 0;  // summed over the distinct CNFs solved
  std::size_t local_max_vars = 0, local_max_clauses = 0;
  std::size_t failed_step = 0;                     // LocalFailed: the comparator (index in order)
  std::vector<int> witness;                        // LocalFailed: circuit inputs (by index) on which it fails; empty: none found
  std::size_t prefix_miters = 0, prefix_unsat = 0, prefix_clauses = 0;  // comparators re-checked on the circuit's inputs
  std::vector<int> zero_one_input;                 // ZeroOneFailed: bits of positions < n
  std::string zero_one_method;                     // exhaustive | sat
  std::size_t zero_one_vectors_log2 = 0, zero_one_vars = 0, zero_one_clauses = 0;
  double structure_s = 0, local_s = 0, zero_one_s = 0;
  std::size_t confirmed = 0;  // UNSAT answers the second solver agreed with
};

// Steps 1-3 in order; stops at the first failure. Throws std::runtime_error when the solver fails.
StageResult prove_sort_stages(const Circuit& c, const gadgets::NetworkTrace& t, const SortShape& s, const SolverSpec& solver,
                              const StageOptions& o);

// Step 3 alone on a comparator list (exposed for tests and the benchmark): nullopt when every 0-1
// vector (positions >= n at 1) comes out sorted, else such a vector's first n bits.
// method: "exhaustive" (n <= 40) or "sat"; Undecided (time) throws std::runtime_error("time limit").
// second (sat only): the UNSAT answer re-solved by it (disagreement: std::logic_error).
struct ZeroOneStats {
  std::size_t vars = 0, clauses = 0;
};
std::optional<std::vector<int>> zero_one_counterexample(const gadgets::Network& net, std::size_t m, std::size_t n,
                                                        const std::string& method, const SolverSpec& solver,
                                                        double timeout_s, unsigned threads, ZeroOneStats* stats = nullptr,
                                                        const std::atomic<bool>* cancel = nullptr,
                                                        const SolverSpec* second = nullptr);

}  // namespace cz::circuits::sat
