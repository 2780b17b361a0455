// The flat bytecode that a recurrent program file (model/program_json.h) compiles to for the
// device (issue 12): a stack machine over int64 with jumps for if/else, one instruction list with
// two segments: init (register and bag declarations, evaluated once per instance with rows and d)
// and step (out_width, then the statements, run at every row i). Light on purpose: the .cu file
// includes it. gpu/program_code.h compiles; gpu/program_kernel.h interprets.
#pragma once
#include <cstdint>

namespace cz::gpu {

// Fixed per-thread state: programs needing more have no device path (program_code.cpp refuses).
inline constexpr int kProgMaxRegs = 16;
inline constexpr int kProgMaxBags = 4;
inline constexpr int kProgMaxStack = 32;
inline constexpr int kProgMaxBagBits = 12;  // a bag is a bitset of 2^width bits
inline constexpr int kProgBagWords = (1 << kProgMaxBagBits) / 64;
inline constexpr int kProgMaxD = 32;        // prompt columns n + 1 (n <= 20)

enum ProgOp : std::int32_t {
  kConst, kI, kRows, kD,
  kReg,     // a = register
  kCol,     // a = column
  kWord,    // a = lo, imm = len
  kIn,      // a = bag; pops the word
  kBitsFor, kNot,
  kAdd, kSub, kMul, kDiv, kEq, kNe, kLt, kLe, kGt, kGe, kAnd, kOr,  // pop b, pop a, push a OP b
  kJz,      // pop; jump to a when zero
  kJmp,     // jump to a
  kSet,     // a = register; pops the value
  kInsert,  // a = bag; pops the word
  kOutWidth,   // pops out_width (start of every step)
  kOutCount,   // imm = number of values of an output statement (must equal out_width)
  kOutValue,   // a = column; pops the value
  kRegDecl,    // a = register; pops init, then width
  kBagDecl,    // a = bag; pops width
  kEnd,
};

struct ProgInsn {
  std::int32_t op = kEnd;
  std::int32_t a = 0;
  std::int64_t imm = 0;
};

struct ProgInfo {
  std::int32_t init_begin = 0, step_begin = 0;  // each segment runs to its kEnd
  std::int32_t n_regs = 0, n_bags = 0;
  unsigned n = 0;       // element width (SD): the flag is output column n
  unsigned copies = 2;  // 2: JRT prompt [u; u] (Def G.4); 1: plain prompt u
};

}  // namespace cz::gpu
