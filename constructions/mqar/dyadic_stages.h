// mqar/dyadic's circuit (queries=sorted) proved stage by stage (issue 27: at n = 16, c = 64 one
// miter per query stalls at query 8: its cone holds the query sorts, the blocks' searches and the
// routing back, and the solver must rediscover that a sort and its reverse cancel). The trace of
// build_dyadic (dyadic_circuit.h) names the cut points; nothing in it is trusted: positions are
// threaded here and every obligation is a miter over the circuit's own gates.
//   1. leaf words: each key/query word's cone reads only its own row's inputs, and evaluated
//      exactly on every token's codeword it gives one table W, the same for every row, injective
//      on the c tokens; each value row is that row's inputs. So comparisons of words are
//      comparisons of tokens, and distinct keys have distinct words.
//   2. routes: every comparator of every key/query merge, on free input records a, b, has swap
//      bit s = [b.key < a.key] and outputs (s ? b : a, s ? a : b): a compare-exchange moving whole
//      records. Each merge network merges (every 0-1 input with sorted halves comes out sorted,
//      (h+1)^2 vectors; by the 0-1 principle, every input with sorted halves). Leaves are sorted,
//      so by induction every node's sorted records are its records permuted into ascending order
//      (keys strictly ascending, being distinct).
//   3. blocks: for every block, on free records K (its left child's sorted keys and values) and
//      free words Q (its right child's sorted queries) with K's keys strictly ascending and Q
//      ascending, every answer word equals [found] ++ value, found = OR_j [K_j.key == Q_p], value =
//      OR_j [K_j.key == Q_p]·K_j.value. One miter per block, or per query position in blocks of
//      split_block queries or more (each with every assumption: a query's answer reads only the
//      pbs calls above it, so the miters are small; n = 32, c = 64: 84 s -> 12 s). variant=pbs*
//      blocks of pbs_call_block queries or more: call by call instead (dyadic_pbs_stages.h; the
//      64-query block of n = 128 stalled query by query).
//   4. routing back: every step of the top-down pass is the matching query comparator run
//      backwards on free words with the same swap bit (s ? b : a, s ? a : b), and every OR word is
//      the bitwise OR of its two free words; the outputs y[3i+2][j] are the leaves' words.
//   5. composition (checked on the tree): for every query i the left children of the blocks whose
//      right child holds i partition {0, ..., i-1}.
// Hence query i's output is OR over those blocks of [some key j < i equals q_i] ++ v_j: with
// distinct keys, exactly MQAR's answer. Every miter is UNSAT-proved for all values of its free
// wires, so the proof holds however the stages share gates. Anything else (a trace that does not
// match, a miter that is SAT) is no proof and no refutation: the caller falls back to the
// monolithic miter, which then finds the counterexample if there is one.
#pragma once
#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "circuits/sat/solver.h"
#include "constructions/mqar/dyadic_circuit.h"
#include "verify/params.h"

namespace cz::mqarc {

struct DyStageOptions {
  double timeout_s = 300;
  unsigned threads = 1;
  const std::atomic<bool>* cancel = nullptr;
  // --confirm: every UNSAT answer re-solved by this solver too (SAT there: std::logic_error).
  std::optional<circuits::sat::SolverSpec> second;
  // Blocks with at least this many queries get one miter per query (each with every assumption).
  std::size_t split_block = 4;
  // variant=pbs*: blocks with at least this many queries are proved call by call instead
  // (dyadic_pbs_stages.h); 0: never.
  std::size_t pbs_call_block = 4;
  // The call miters' order facts across queries (dyadic_pbs_stages.h, issue 48); false: the miters
  // as written before them (a --proof DIR or shard part from then is checked with these).
  bool pbs_across = true;
  // Progress (optional): the number of miters once the structure is checked, then each miter as
  // it starts and ends (from the solving threads).
  std::function<void(std::size_t total)> on_built;
  std::function<void(std::size_t k, const std::string& what)> on_start;
  std::function<void(std::size_t k)> on_done;
  circuits::sat::BatchRunner runner;  // the batch elsewhere (issue 38: ranks, cubes, shards); empty: here
};

struct DyStageResult {
  enum class Status { NotRecognised, Proved, Failed, Undecided } status = Status::NotRecognised;
  std::string why;  // NotRecognised / Failed / Undecided: what and where
  std::size_t leaf_words = 0, route_steps = 0, mergers = 0, unroute_steps = 0, or_words = 0, blocks = 0;
  std::size_t pbs_blocks = 0, pbs_obligations = 0;  // blocks proved call by call, their miters
  std::size_t miters = 0;  // CNFs given to the solver
  std::size_t vars = 0, clauses = 0, max_vars = 0, max_clauses = 0;
  std::size_t confirmed = 0;
  double structure_s = 0, local_s = 0, block_s = 0, max_block_s = 0;
};

// mqar/dyadic's configuration from its parameters (dyadic.cpp), to rebuild it with a trace.
DyadicConfig dyadic_config(const Params& p);

DyStageResult prove_dyadic_stages(const circuits::Circuit& c, const DyadicTrace& t, const DyadicConfig& cfg,
                                  const circuits::sat::SolverSpec& solver, const DyStageOptions& o);

}  // namespace cz::mqarc
