// Zoology Algorithm 11 (MQAR via dyadic intervals, spec §7.4; Prop H.30) as ONE arithmetic circuit
// over 0/1 inputs, with every wire a certified Bit (so it is verified bit-sliced, 512 instances
// per pass).
//
// Inputs: u[r][j], the N×d encoded sequence (N = 3n, triples (k_i, v_i, q_i) at rows 3i, 3i+1,
// 3i+2), row-major (input index r·d + j). Outputs, per query i in order: y[3i+2][j] for j < d (the
// encoded value of the matching key, or the zero row), then, when `found_output`, y[3i+2][d] =
// [some key j < i equals q_i] (binary tokens cannot tell "null" from "token 0" otherwise). Other
// rows of y are zero by construction (not outputs).
//
// Comparison words (the key-bit order of every comparator): a token's natural binary, LSB first,
// compared MSB first (gadgets::less_than), i.e. keys are ordered as integers. Binary rows are that
// word already (column 0 = LSB, Zoology's dec()); one-hot rows give bit b = OR of the columns t
// with bit b of t set; p-hot rows give each digit's binary (digit 0 least significant).
//
// The dyadic blocks: the triple indices 0..n−1 (n a power of two) form a binary tree, split on
// bin(i) MSB-first (prefix=msb: the block of prefix x at level k is I = x·0·*, J = x·1·*, i.e.
// contiguous halves) or LSB-first (prefix=lsb, spec Errata E6: it misses pairs j < i). Every
// internal node is one block: keys of its left child I, queries of its right child J. For each
// block: sort keys (value word as payload) and queries (recording the permutation, Remark H.29);
// find for each sorted query the first key >= it (pbs, Alg. 10, or the merge of spec §7.5); check
// that key for equality; take its value. Answers go back to the queries' positions by the
// recorded permutations run backwards, and are OR-ed over the levels ("each idx entry has at most
// one entry", Prop H.30 proof; needs distinct keys).
//
// Sorting: a node's sorted keys (queries) are the odd-even MERGE of its children's sorted keys
// (queries): Batcher's merge sort, shared across levels (hash-consing would share it anyway), so
// all blocks of all levels cost one merge sort tree, O(n log² n) comparators of depth
// ½·log n·(log n+1) (Batcher), where Zoology's Lemma H.35 cites AKS (O(log n) depth, huge constant).
// Unsorting is shared the same way: one top-down pass reverses each query merge once.
// With sort_queries = false (below), queries are searched one by one and answers go straight home.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "circuits/circuit.h"
#include "constructions/mqar/pbs.h"
#include "tasks/mqar.h"

namespace cz::mqarc {

enum class DyVariant { PbsFixed, PbsPaper, PbsDeadZero, Merge };
enum class DyPrefix { Msb, Lsb };
// Deliberate defects for the mutant tests: a comparator of the largest key merge that puts the
// max first; every block's key range shifted by one (I = x·0·* + 1, which also makes the query's
// own key visible, spec E5); every pbs block's top call searching from key 1 (x = 1 instead of 0:
// a query equal to a block's smallest key is not found), which only the pbs variants have.
enum class DyMutant { None, FlipComparator, BlockOffByOne, PbsTopFromOne };

// The dyadic tree over triple indices 0..n−1 (n a power of two): node 0 is the root; a node's
// children split its members on one bit of bin(i) (MSB-first: level by level from the top bit;
// LSB-first: from bit 0). Every internal node is one block of Alg. 11: keys I = left child's
// members (line 7), queries J = right child's (line 10).
struct DyadicNode {
  std::vector<std::size_t> members;  // ascending
  int left = -1, right = -1;
};
std::vector<DyadicNode> dyadic_tree(std::size_t n, DyPrefix prefix);

struct DyadicConfig {
  std::size_t n = 4;
  mqar::Codec codec;
  DyVariant variant = DyVariant::PbsFixed;
  DyPrefix prefix = DyPrefix::Msb;
  DyMutant mutant = DyMutant::None;
  bool found_output = true;
  // false: every query of a block searches the sorted keys alone (a pbs call with one query, i.e.
  // eq (14)'s bin-search), with no query sort. Sorting queries makes query i's WIRES depend on
  // later queries' tokens (its value does not), which a causal BaseConv cannot realise; without
  // it every output depends only on earlier rows, so the circuit compiles to a causal model.
  bool sort_queries = true;
};

struct DyadicCircuit {
  std::shared_ptr<const circuits::Circuit> circuit;
  std::size_t n = 0, N = 0, d = 0;  // d = encoding width (value columns)
  std::size_t word_bits = 0;        // comparison word width
  std::size_t out_cols = 0;         // outputs per query: d (+1 with found_output)
  bool found_output = false;
  nlohmann::json counts = nlohmann::json::object();  // comparators, blocks, gates per phase
};

// Where build_dyadic's stages put their wires (issue 27: the stage-wise SAT proof of
// constructions/mqar/dyadic_stages.h cuts the circuit there). A hint only: the proof threads
// positions itself and checks every wire it names against the circuit, so a wrong trace can only
// make it fall back, never prove. Words are LSB first; a record is key word ++ load word.
struct DyNodeTrace {
  // The merge of its children's sorted records (empty: not built; a merge has >= 1 comparator).
  std::vector<dy::Step> key_merge, query_merge;
  std::vector<std::vector<circuits::Wire>> res;  // internal node: the block's answers ([found] ++ value)
  std::vector<dy::Step> unroute;            // top-down pass: its query merge run backwards on acc
  std::vector<std::vector<circuits::Wire>> acc_right;  // acc of its right child after the OR with res
  std::vector<PbsCallTrace> pbs_calls;      // variant=pbs*: the block's pbs calls (post-order)
};
struct DyadicTrace {
  std::vector<std::vector<circuits::Wire>> kw, vw, qw;  // per triple: key word, value row, query word
  std::vector<DyNodeTrace> nodes;                        // as dyadic_tree(n, prefix)
};

std::string to_string(DyVariant v);
// Throws InputError (n not a power of two, a mutant that does not apply). trace: filled when given
// (the same gates are built either way).
DyadicCircuit build_dyadic(const DyadicConfig& cfg, DyadicTrace* trace = nullptr);

}  // namespace cz::mqarc
