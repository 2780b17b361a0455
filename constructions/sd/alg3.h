// JRT Algorithm 3 (Thm G.15) as a recurrent program (model/recurrent.h), reconstructed from the
// prose (spec §10.1; the listing itself is an image), and the contrast without repetition.
//
// On the JRT prompt [u; u] (2N rows) the program finds the first separator (lines 5-9), decides
// whether the smaller set comes first (line 8), collects the smaller set into the state
// (lines 16-17 or 23-24) and flags each row of the other set that is in it (lines 19-20, 25-29).
// Output row i: for a compared row, [r[0:n] :: 1 iff r[0:n] is stored]; otherwise all zero.
#pragma once
#include <functional>
#include <vector>

#include "model/recurrent.h"
#include "tensor/matrix.h"

namespace cz::sdc {

// Errata E8: the published test `isep <= floor(N/2)` (Paper) stores the larger set when
// |A| = |B| + 1; `2·isep <= N - 1`, i.e. |A| <= |B| (Fixed), stores exactly min(|A|,|B|).
enum class Alg3Threshold { Paper, Fixed };

// Which rows count as the separator. The right test reads the flag column n.
using SeparatorTest = std::function<bool(const std::vector<std::int64_t>& row, unsigned n)>;
bool flag_separator(const std::vector<std::int64_t>& row, unsigned n);

// The step's decisions (line 8 and the windows of lines 16-27) as plain functions of the row
// index i, the half length N of the prompt and the register isep: shared by alg3_program and its
// unrolled circuit (alg3_circuit.h), so both take the same steps; a test swaps one for a mutant.
using Alg3Window = bool (*)(std::size_t i, std::size_t N, std::size_t isep);
struct Alg3Rules {
  Alg3Threshold threshold = Alg3Threshold::Fixed;
  Alg3Window store_a, compare_b;  // smallFirst: lines 16-17 (A from copy 2), 19-20 (B from copy 2)
  Alg3Window store_b, compare_a;  // otherwise:  lines 23-24 (B from copy 1), 25-27 (A from copy 2)
};
Alg3Rules alg3_rules(Alg3Threshold t);
// Line 8: smallFirst when the separator is row i of the first copy (Errata E8: Paper / Fixed).
bool alg3_small_first(Alg3Threshold t, std::size_t i, std::size_t N);

// Registers: isep (ceil(log2(N+1)) bits, N = not seen yet), smallFirst (1 bit); bag Z of n-bit words.
RecurrentProgram alg3_program(unsigned n, Alg3Threshold t, SeparatorTest is_sep = flag_separator);
RecurrentProgram alg3_program(unsigned n, const Alg3Rules& r, SeparatorTest is_sep = flag_separator);

// Without repetition (prompt u only): store every element of the first set, flag the second
// set's rows that are stored. Register: after-separator (1 bit); bag Z of n-bit words.
RecurrentProgram store_first_program(unsigned n, SeparatorTest is_sep = flag_separator);

// The answer read off the outputs: some flag set, and the flagged elements.
struct FlagAnswer {
  bool intersects = false;
  std::vector<std::uint32_t> common;  // increasing, distinct
};
FlagAnswer decode_flags(const Matrix<std::int64_t>& out, unsigned n);

}  // namespace cz::sdc
