#include "gpu/program_code.h"

#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "gpu/program_kernel.h"
#include "model/program_json.h"

namespace cz::gpu {
namespace {

using json = nlohmann::json;

// The member `key` of object j, or an empty list; a reference (a copy per level of nesting would
// make compiling quadratic in the depth).
const json& list_member(const json& j, const char* key) {
  static const json kNone = json::array();
  const auto it = j.find(key);
  return it == j.end() ? kNone : *it;
}

// Emits code for a file that program_from_json has already accepted (so every lookup succeeds,
// and the recursion is bounded by its nesting limit, kProgramMaxDepth), tracking the stack depth.
struct Emitter {
  std::vector<ProgInsn> code;
  std::map<std::string, std::int32_t> regs, bags;
  int depth = 0, max_depth = 0;

  std::int32_t emit(std::int32_t op, std::int32_t a = 0, std::int64_t imm = 0, int push = 0) {
    code.push_back({op, a, imm});
    depth += push;
    if (depth > max_depth) max_depth = depth;
    return static_cast<std::int32_t>(code.size() - 1);
  }

  void expr(const json& j) {
    if (j.is_number_integer()) {
      emit(kConst, 0, j.get<std::int64_t>(), 1);
      return;
    }
    if (j.is_string()) {
      const std::string s = j.get<std::string>();
      emit(s == "rows" ? kRows : s == "d" ? kD : kI, 0, 0, 1);
      return;
    }
    const std::string key = j.begin().key();
    const json& a = j.begin().value();
    static const std::map<std::string, std::int32_t> bin = {{"add", kAdd}, {"sub", kSub}, {"mul", kMul}, {"div", kDiv},
                                                            {"eq", kEq},   {"ne", kNe},   {"lt", kLt},   {"le", kLe},
                                                            {"gt", kGt},   {"ge", kGe},   {"and", kAnd}, {"or", kOr}};
    if (key == "reg") {
      emit(kReg, regs.at(a.get<std::string>()), 0, 1);
    } else if (key == "col") {
      emit(kCol, a.get<std::int32_t>(), 0, 1);
    } else if (key == "word") {
      emit(kWord, a[0].get<std::int32_t>(), a[1].get<std::int64_t>(), 1);
    } else if (key == "in") {
      expr(a[1]);
      emit(kIn, bags.at(a[0].get<std::string>()));
    } else if (key == "bits_for") {
      expr(a);
      emit(kBitsFor);
    } else if (key == "not") {
      expr(a);
      emit(kNot);
    } else {
      expr(a[0]);
      expr(a[1]);
      emit(bin.at(key), 0, 0, -1);
    }
  }

  // if: cond; JZ else; then; JMP end; else: ...; end:
  void stmts(const json& list) {
    for (const json& s : list) {
      if (s.contains("if")) {
        expr(s["if"]);
        const std::int32_t jz = emit(kJz, 0, 0, -1);
        stmts(list_member(s, "then"));
        const std::int32_t jmp = emit(kJmp);
        code[jz].a = static_cast<std::int32_t>(code.size());
        stmts(list_member(s, "else"));
        code[jmp].a = static_cast<std::int32_t>(code.size());
      } else if (s.contains("set") || s.contains("insert")) {
        const bool set = s.contains("set");
        expr(s["value"]);
        emit(set ? kSet : kInsert, (set ? regs : bags).at(s[set ? "set" : "insert"].get<std::string>()), 0, -1);
      } else {  // output: the count is checked against out_width first (program_json.cpp run())
        const json& vs = s["output"];
        emit(kOutCount, 0, static_cast<std::int64_t>(vs.size()));
        for (std::size_t q = 0; q < vs.size(); ++q) {
          expr(vs[q]);
          emit(kOutValue, static_cast<std::int32_t>(q), 0, -1);
        }
      }
    }
  }
};

std::optional<ProgramCode> refuse(std::string* why, const std::string& what) {
  if (why) *why = what;
  return std::nullopt;
}

}  // namespace

std::optional<ProgramCode> compile_program(const json& j, const std::string& source, std::string* why) {
  const ProgramFile pf = program_from_json(j, source);  // the CPU's validation, its errors
  Emitter E;
  const json &regs = list_member(j, "registers"), &bags = list_member(j, "bags");
  if (regs.size() > static_cast<std::size_t>(kProgMaxRegs))
    return refuse(why, "more than " + std::to_string(kProgMaxRegs) + " registers");
  if (bags.size() > static_cast<std::size_t>(kProgMaxBags)) return refuse(why, "more than " + std::to_string(kProgMaxBags) + " bags");
  for (std::size_t k = 0; k < regs.size(); ++k) E.regs[regs[k]["name"].get<std::string>()] = static_cast<std::int32_t>(k);
  for (std::size_t k = 0; k < bags.size(); ++k) E.bags[bags[k]["name"].get<std::string>()] = static_cast<std::int32_t>(k);

  ProgramCode pc;
  pc.name = pf.program.name;
  pc.info.n = pf.n;
  pc.info.copies = pf.prompt == "jrt" ? 2 : 1;
  pc.info.n_regs = static_cast<std::int32_t>(regs.size());
  pc.info.n_bags = static_cast<std::int32_t>(bags.size());
  pc.info.init_begin = 0;  // registers (width, init) in order, then bags (width)
  for (std::size_t k = 0; k < regs.size(); ++k) {
    E.expr(regs[k]["width"]);
    if (const auto init = regs[k].find("init"); init != regs[k].end()) E.expr(*init);
    else E.emit(kConst, 0, 0, 1);  // init defaults to 0
    E.emit(kRegDecl, static_cast<std::int32_t>(k), 0, -2);
  }
  for (std::size_t k = 0; k < bags.size(); ++k) {
    E.expr(bags[k]["width"]);
    E.emit(kBagDecl, static_cast<std::int32_t>(k), 0, -1);
  }
  E.emit(kEnd);
  pc.info.step_begin = static_cast<std::int32_t>(E.code.size());
  E.expr(j["out_width"]);
  E.emit(kOutWidth, 0, 0, -1);
  E.stmts(j["step"]);
  E.emit(kEnd);
  if (E.max_depth > kProgMaxStack) return refuse(why, "expressions nest deeper than the device stack (" + std::to_string(kProgMaxStack) + ")");
  pc.code = std::move(E.code);

  // Bags are bitsets of 2^width bits: every prompt the device generates (|A|, |B| <= kSdMaxSet)
  // must declare its bags at most kProgMaxBagBits wide (an init that fails is a failure, not a refusal).
  auto s = std::make_unique<ProgramScratch>();
  for (std::int64_t m = 1; m <= 2 * kSdMaxSet + 1; ++m) {
    const std::int64_t rows = m * pc.info.copies, d = static_cast<std::int64_t>(pc.info.n) + 1;
    for (std::size_t k = 0; k < bags.size(); ++k) {
      // the bag's width expression alone (the registers' may fail first; that is not a refusal)
      Emitter W;
      W.regs = E.regs;
      W.bags = E.bags;
      W.expr(bags[k]["width"]);
      W.emit(kEnd);
      if (!prog_exec(W.code.data(), 0, 0, rows, d, pc.info.n, *s)) continue;  // an error: fails on both sides
      if (s->stack[0] > kProgMaxBagBits && s->stack[0] <= 64)
        return refuse(why, "bag '" + bags[k]["name"].get<std::string>() + "' holds " + std::to_string(s->stack[0]) +
                               "-bit words (the device keeps a bag as a bitset of at most 2^" +
                               std::to_string(kProgMaxBagBits) + " bits)");
    }
  }
  return pc;
}

}  // namespace cz::gpu
