// The set-disjointness reference (task sd, JRT App. G; src/tasks/sd.h), written from the task's
// definition only: a block is one prompt length. Its inputs are the bits of u ∈ {0,1}^{N×(n+1)}
// as sd::encode writes an instance (Remark G.14): "u[r][j]", column j < n bit j of row r's element
// (LSB first), column n the separator flag; A = the rows above the single separator row
// [0^n :: 1], B = the rows below it.
//   domain     : exactly one flag, on an allowed row (|A| = that row), the separator's element bits
//                0, and within each set the elements strictly increasing (domains subsets and
//                sized) or pairwise distinct (domain orders): exactly the instances of that length
//                the enumerating domain walks.
//   common[r]  : row r (not the separator) holds an element of A ∩ B.
//   disjoint   : A ∩ B = ∅.
// The checker (checker.h) reads an answer in the recurrent programs' form (constructions/sd/
// alg3.h): output rows "y[p][j]" (p < out_rows; columns < n the row's element, column n its flag),
// whose flagged rows' elements must be exactly A ∩ B (decode_flags), and, when asked, "held[s]"
// (s < slots: the words the answer's stored set holds at the end), whose number must be
// min(|A|,|B|) (JRT prompt) or |A| (plain prompt). Only Boolean gadgets (no comparator gadget).
#pragma once
#include <string>
#include <vector>

#include "circuits/builder.h"
#include "circuits/reference/checker.h"

namespace cz::circuits::reference {

struct SdBlockSpec {
  unsigned n = 2;                 // element width
  std::size_t N = 1;              // rows of u: |A| + |B| + 1
  std::vector<std::size_t> seps;  // the allowed separator rows (= |A|), increasing
  bool increasing = true;         // strictly increasing within a set (else pairwise distinct)
  std::string prefix;             // every name of the block starts with it ("N7.")
  std::size_t out_rows = 0;       // rows of the answer y (checker only)
  std::size_t slots = 0;          // held[s] answer bits (checker only; read when state != None)
  enum State { None, MinAB, SizeA } state = None;
  // When set (checker only): the answer carries "fails" (a program that stops with an error on
  // this input gives no answer: --method sat on program files); group "runs" wants it 0.
  bool fails = false;
};

// The reference alone: inputs prefix+"u[r][j]", outputs prefix+"domain", prefix+"disjoint",
// prefix+"common[r]" (r < N; 0 on the separator row).
Circuit sd_reference_circuit(const SdBlockSpec& s);

// One checker for several blocks (one per prompt length; each block's names carry its prefix).
// Its "domain" output is 1; each block's groups are "domain_N ⇒ right" (a family per block,
// named prefix without the dot), so a miter of a family is SAT exactly when some instance of that
// block's domain gets a wrong answer. Groups per block: "sound y[p]" (a flagged row's element is
// in A ∩ B), "complete u[r]" (row r's element, when in A ∩ B, is flagged in some row), "state".
// Cases "case:FAMILY:sep=a" (the separator on row a) split a family per |A|.
Checker sd_checker(const std::vector<SdBlockSpec>& blocks);

}  // namespace cz::circuits::reference
