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
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/recurrent.h"

namespace cz {

struct ProgramFile {
  RecurrentProgram program;
  std::string task, prompt;  // "sd"; "jrt" | "plain"
  unsigned n = 0;            // element width (SD)
};

// Validates the whole file up front: InputError(what, where = "<source>: <json path>").
ProgramFile program_from_json(const nlohmann::json& j, const std::string& source);
ProgramFile read_program_file(const std::string& path);

}  // namespace cz
