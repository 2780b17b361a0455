// A recurrent program as a file (issue 15, item 4; `export --format program`, `verify --program`):
// the state of JRT Def G.12 as named registers (widths in bits) and bags of fixed-width words, and
// the per-row transition as a small statement language, interpreted by the recurrent framework
// (model/recurrent.h), so that the state is measured, never estimated.
//
// { "format": "circuitzoo.program/1", "name": "...", "task": "sd", "n": 2, "prompt": "jrt"|"plain",
//   "registers": [{"name": "isep", "width": EXPR, "init": EXPR}],   // EXPR over rows, d
//   "bags":      [{"name": "Z", "width": EXPR}],
//   "out_width": EXPR,                                              // output row width
//   "step": [STMT, ...] }                                           // run at every row i
// STMT: {"if": EXPR, "then": [STMT...], "else": [STMT...]} | {"set": REG, "value": EXPR}
//     | {"insert": BAG, "value": EXPR} | {"output": [EXPR, ...]}   (the row's output; default zeros)
// EXPR: an integer | "i" | "rows" | "d" | {"reg": NAME} | {"col": J} (column J of the row)
//     | {"word": [LO, LEN]} (columns LO..LO+LEN-1 as bits, LO least significant)
//     | {"in": [BAG, EXPR]} (1 if the word is in the bag) | {"bits_for": EXPR} (ceil log2)
//     | {OP: [EXPR, EXPR]} with OP in add sub mul div (floor) eq ne lt le gt ge and or
//     | {"not": EXPR}
// All arithmetic is int64, checked (overflow is an error, never a wrap).
//
// Limits (issue 25, items 4-7), each refused with an InputError that states it: the parser, the
// interpreter and the device compiler (gpu/program_code.cpp) all recurse over the tree, so its
// nesting is bounded before any of them runs; the node count and the output width bound the work
// of every row. The exported programs (sd/recurrent-jrt) nest 9 deep, hold 100-200 nodes and
// write n + 1 <= 21 columns, so the bounds leave two orders of magnitude.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include <memory>

#include "model/program_ast.h"
#include "model/recurrent.h"

namespace cz {

// Nested statements and expressions, together. Each level is two JSON levels ({"add": [ ...), so
// 100 stays inside the JSON reader's own 256 (kJsonMaxDepth) and this limit is the one a deep
// program meets, with its own message; exported programs nest 9 deep.
inline constexpr std::size_t kProgramMaxDepth = 100;
inline constexpr std::size_t kProgramMaxNodes = 1 << 16;     // statements and expressions in the file
inline constexpr std::int64_t kProgramMaxOutWidth = 1 << 10; // out_width and the length of an output list

struct ProgramFile {
  RecurrentProgram program;
  std::string task, prompt;  // "sd"; "jrt" | "plain"
  unsigned n = 0;            // element width (SD)
  std::shared_ptr<const prog::Ast> ast;  // the parsed tree the program runs (--method sat unrolls it)
};

// Validates the whole file up front: InputError(what, where = "<source>: <json path>").
ProgramFile program_from_json(const nlohmann::json& j, const std::string& source);
ProgramFile read_program_file(const std::string& path);

}  // namespace cz
