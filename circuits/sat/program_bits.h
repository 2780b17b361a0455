// A program file's step (model/program_ast.h, the tree model/program_json.cpp interprets)
// unrolled over a prompt of fixed length into words of Bit wires (issue 37 item 2: --method sat on
// `verify --program FILE --task sd`). Faithful to the interpreter, statement by statement:
//   - registers: words of their declared width (init and widths are constants of the length);
//     `set` writes under its path condition (the conjunction of the enclosing ifs' conditions);
//   - bags: one slot (valid bit, word) per `insert` reached per row; `in` = some valid slot equals
//     the word (a set: duplicates change no answer);
//   - expressions: exact integers as WordBuilder words (certified intervals), comparisons from the
//     sign of a difference, bits_for as a sum of comparisons, floor division by constants;
//   - every error the interpreter throws (a value that does not fit its register or bag, a negative
//     one, a column beyond the row, division by zero, an output row of the wrong width, a bad init)
//     raises `fails` under its path condition: a program that stops gives no answer.
// Refused (ProgramNotBlastable, with why): division by a value that depends on the input (or by a
// constant that is not a power of two, of a value that may be negative), an out_width that depends
// on the input, any value whose certified interval leaves int64 (the interpreter's overflow check
// then cannot be decided by intervals).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "circuits/sat/bitvec.h"
#include "model/program_ast.h"

namespace cz::circuits::sat {

struct ProgramNotBlastable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct UnrolledProgram {
  std::vector<std::vector<Wire>> nonzero;  // per prompt row, per output column: [the cell != 0]
  Wire fails;                              // the interpreter throws on this input
  std::size_t out_width = 0;
  std::size_t slots = 0;                   // bag slots built
};

// cells: the prompt, rows × d Bit wires (or constants), row-major.
UnrolledProgram unroll_program(WordBuilder& wb, const prog::Ast& ast, std::size_t rows, std::size_t d, const std::vector<Wire>& cells);

}  // namespace cz::circuits::sat
