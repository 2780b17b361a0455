// The parsed form of a program file (model/program_json.h), shared by its interpreter and by
// --method sat's unroller (app/engine/sat_program.cpp), which bit-blasts the same tree.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cz::prog {

struct Expr {
  enum Kind { Const, I, Rows, D, Reg, Col, Word, In, BitsFor, Bin, Not } kind = Const;
  std::string op;  // Bin: add sub mul div eq ne lt le gt ge and or
  std::int64_t value = 0;
  std::size_t index = 0, lo = 0, len = 0;  // Reg/In: register/bag index; Col: column; Word: [lo, lo + len)
  std::vector<Expr> args;
};
struct Stmt {
  enum Kind { If, Set, Insert, Output } kind = Set;
  Expr cond;
  std::vector<Stmt> then_, else_;
  std::size_t index = 0;  // Set: register; Insert: bag
  std::vector<Expr> values;
};
struct Decl {
  std::string name;
  Expr width, init;  // over rows and d
};
struct Ast {
  std::vector<Decl> registers, bags;
  Expr out_width;
  std::vector<Stmt> step;
};

}  // namespace cz::prog
