// JRT Alg. 3 (and the plain store-the-first-set program) unrolled over a prompt of fixed length
// into an all-Bit circuit, for `verify sd/recurrent-jrt --method sat` (app/engine/sat/sat_sd.cpp).
// The circuit takes the program's own steps row by row over its own state: the register isep
// (bits_for(N+1) bits, N = "no separator yet"), the register smallFirst (1 bit), and the bag Z as
// one slot per row that may insert (a valid bit and an n-bit word; a row inserts its element
// when the step says so and Z does not hold it yet, as RecurrentState::insert keeps a set).
// The step's decisions are alg3.h's Alg3Rules, the same functions alg3_program calls: line 8's
// threshold (alg3_small_first) is a constant per row, and each window of lines 16-27 is
// evaluated on every value v of isep (an equality decoder isep == v selects it). A compare row
// outputs [element :: Z contains it], other rows 0, as alg3.cpp's compare().
// Names (prefix P): inputs P"u[r][j]" (the instance's rows as sd::encode writes them, r < N,
// j <= n), outputs P"y[p][j]" (p < 2N rows of the JRT prompt, N of the plain one) and
// P"held[s]" (slot s holds a word at the end; the bag never shrinks, so the largest it grows).
#pragma once
#include <string>

#include "circuits/builder.h"
#include "circuits/circuit.h"
#include "constructions/sd/alg3.h"

namespace cz::sdc {

struct UnrollSpec {
  unsigned n = 2;
  std::size_t N = 1;       // rows of u (|A| + |B| + 1)
  bool jrt = true;         // JRT prompt [u; u] (Alg. 3), else the plain prompt (store_first_program)
  Alg3Rules rules = alg3_rules(Alg3Threshold::Fixed);
  std::string prefix;
};

// The steps on given row wires (row-major, n + 1 per row; constants allowed: a reduction's
// prompt), without outputs: the output rows' wires and the slots' valid bits.
struct UnrolledWires {
  std::vector<std::vector<circuits::Wire>> y;
  std::vector<circuits::Wire> held;
};
UnrolledWires unroll_alg3_wires(circuits::Builder& b, const UnrollSpec& s, const std::vector<circuits::Wire>& u);

// One block: its inputs (row-major, n + 1 per row), then its steps on them; returns the number
// of bag slots (the held[s] outputs).
std::vector<circuits::Wire> unroll_inputs(circuits::Builder& b, const UnrollSpec& s);
std::size_t unroll_alg3(circuits::Builder& b, const UnrollSpec& s, const std::vector<circuits::Wire>& u);
// Several blocks (one per prompt length) in one circuit; slots per block through `slots`.
circuits::Circuit unrolled_alg3(const std::vector<UnrollSpec>& blocks, std::vector<std::size_t>* slots = nullptr);

}  // namespace cz::sdc
