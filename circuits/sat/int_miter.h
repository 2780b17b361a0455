// Integer artifacts under --method sat (issue 27): an exact map of integer matrices (a model) and
// its task's reference, both bit-blasted (bitvec.h) into the pair that build_miter joins:
//   the artifact circuit: the task's input bits in, the output words' bits out ("y[i][j]#k",
//                         two's complement, each word as wide as its certified interval);
//   the checker circuit:  the same input bits and one got:NAME input per artifact output bit;
//                         "domain" = the input box (and the task's own conditions), "ok:" per
//                         output cell = the got word equals the reference's value exactly.
// IntInputs says how the input bits form the N×d input matrix: each entry a box word (bits
// "u[i][j]#k", domain lo <= value <= hi), a single 0/1 bit (named u[i][j] as the MQAR checker
// names them), or the constant 0.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "circuits/reference/checker.h"
#include "circuits/reference/mqar_ref.h"
#include "circuits/sat/bitvec.h"
#include "tensor/matrix.h"

namespace cz::circuits::sat {

struct IntInputs {
  enum class Kind { Zero, Bit, Box };
  struct Entry {
    Kind kind = Kind::Zero;
    std::size_t first = 0, width = 0;  // the entry's bits are names[first, first + width)
    Int lo, hi;                        // Box: the domain's bounds
  };
  std::size_t N = 0, d = 0;
  Matrix<Entry> entries;
  std::vector<std::string> names;  // the task input bits, in order

  // Every entry a word with lo <= value <= hi (the smallest two's-complement width that holds both).
  static IntInputs box(std::size_t N, std::size_t d, const Int& lo, const Int& hi);
  // Every entry (i, j) with bit(i, j) a 0/1 input named u[i][j]; the others 0.
  static IntInputs bits(std::size_t N, std::size_t d, const std::function<bool(std::size_t, std::size_t)>& bit);

  Matrix<Word> words(WordBuilder& wb, const std::vector<Wire>& task_bits) const;
  Wire domain(WordBuilder& wb, const std::vector<Wire>& task_bits) const;  // every box entry in its box
  Matrix<std::int64_t> decode(const std::vector<int>& bits) const;         // a SAT model's input matrix
};

using WordMap = std::function<Matrix<Word>(WordBuilder&, const Matrix<Word>&)>;

struct IntArtifact {
  Circuit circuit;
  Matrix<std::size_t> width;  // bits of each output word (row-major outputs, LSB first)
  std::size_t widest = 0;     // the widest word anywhere in the bit-blast
};

// f: the artifact's output words from its input words. TooWide past max_width.
IntArtifact artifact_circuit(const IntInputs& in, const WordMap& f, std::size_t max_width);

// The reference as words: ok:row i col j = [got word == ref(u)(i, j)] on the cells (i, j) asked for
// (all when empty); groups "row i col j" in families "row i".
reference::Checker words_checker(const IntInputs& in, const IntArtifact& a, const WordMap& ref,
                                 const std::vector<std::pair<std::size_t, std::size_t>>& cells, std::size_t max_width);

// MQAR (triples, rows u[r][j] of 0/1 bits): the reference checker of mqar_ref.h, each cell's bit
// read as [got word == 1] and the cell right only when its word is 0 or 1 (the enumerating check
// compares the whole integer output with the 0/1 expected matrix).
reference::Checker mqar_words_checker(const IntInputs& in, const IntArtifact& a, const reference::MqarSpec& spec);

}  // namespace cz::circuits::sat
