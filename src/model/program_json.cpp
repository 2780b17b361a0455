#include "model/program_json.h"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/text.h"

namespace cz {
namespace {

using json = nlohmann::json;

// Parsed once into a tree; evaluation walks it (no JSON at run time).
using prog::Expr;
using prog::Stmt;
struct Env {
  std::int64_t i = 0, rows = 0, d = 0;
  const RecurrentState* z = nullptr;
  const std::vector<std::int64_t>* row = nullptr;
};

// A non-negative integer at most `max` (JSON built in code holds signed numbers, parsed text unsigned).
bool whole(const json& j, std::int64_t max) {
  return j.is_number_integer() && j.get<std::int64_t>() >= 0 && j.get<std::int64_t>() <= max;
}

const std::vector<std::string> kOps = {"add", "sub", "mul", "div", "eq", "ne", "lt", "le", "gt", "ge", "and", "or"};

constexpr std::size_t kMaxDepth = kProgramMaxDepth;
constexpr std::size_t kMaxNodes = kProgramMaxNodes;
constexpr std::int64_t kMaxOutWidth = kProgramMaxOutWidth;

// A path for a message: a deep one keeps its start and end (the middle is "...").
std::string short_path(const std::string& p) { return p.size() <= 160 ? p : p.substr(0, 60) + "..." + p.substr(p.size() - 90); }

// The member of object `j` named `key`, or `fallback` (never a copy: a copy per level of nesting
// made the parser quadratic in the depth).
const json& member(const json& j, const char* key, const json& fallback) {
  const auto it = j.find(key);
  return it == j.end() ? fallback : *it;
}

struct Parser {
  std::string source;
  std::map<std::string, std::size_t> regs, bags;
  bool state_known = true;  // false in init expressions (no registers, no row)
  std::size_t depth = 0, nodes = 0;

  [[noreturn]] void fail(const std::string& what, const std::string& path) const { throw InputError(what, source + ": " + short_path(path)); }

  // Counts a node one level deeper than its parent; the guard restores the depth on return.
  struct Level {
    Parser& p;
    Level(Parser& p_, const std::string& path) : p(p_) {
      if (++p.depth > kMaxDepth)
        p.fail("the program nests deeper than " + std::to_string(kMaxDepth) + " levels (statements and expressions)", path);
      if (++p.nodes > kMaxNodes) p.fail("the program has more than " + std::to_string(kMaxNodes) + " statements and expressions", path);
    }
    ~Level() { --p.depth; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;
  };

  Expr expr(const json& j, const std::string& path) {
    const Level level(*this, path);
    Expr e;
    if (j.is_number_integer()) {
      e.value = j.get<std::int64_t>();
      return e;
    }
    if (j.is_string()) {
      const std::string s = j.get<std::string>();
      if (s == "rows") e.kind = Expr::Rows;
      else if (s == "d") e.kind = Expr::D;
      else if (s == "i" && state_known) e.kind = Expr::I;
      else fail("unknown variable '" + printable(s, 40) + "' (want i, rows or d" + std::string(state_known ? ")" : "; i only in step)"), path);
      return e;
    }
    if (!j.is_object() || j.size() != 1) fail("an expression is an integer, a variable name or an object with one key", path);
    const std::string& key = j.begin().key();
    const json& a = j.begin().value();
    const std::string sub = path + "." + printable(key, 40);
    if (key == "reg" || key == "col" || key == "word" || key == "in") {
      if (!state_known) fail("'" + key + "' reads the state or the row: only in step", sub);
    }
    if (key == "reg") {
      if (!a.is_string() || !regs.count(a.get<std::string>())) fail("unknown register", sub);
      e.kind = Expr::Reg;
      e.index = regs.at(a.get<std::string>());
    } else if (key == "col") {
      if (!whole(a, 1 << 20)) fail("want a column index", sub);
      e.kind = Expr::Col;
      e.index = a.get<std::size_t>();
    } else if (key == "word") {
      if (!a.is_array() || a.size() != 2 || !whole(a[0], 1 << 20) || !whole(a[1], 62)) fail("want [LO, LEN] with LEN <= 62", sub);
      e.kind = Expr::Word;
      e.lo = a[0].get<std::size_t>();
      e.len = a[1].get<std::size_t>();
    } else if (key == "in") {
      if (!a.is_array() || a.size() != 2 || !a[0].is_string() || !bags.count(a[0].get<std::string>()))
        fail("want [BAG, EXPR] with a declared bag", sub);
      e.kind = Expr::In;
      e.index = bags.at(a[0].get<std::string>());
      e.args.push_back(expr(a[1], sub + "[1]"));
    } else if (key == "bits_for") {
      e.kind = Expr::BitsFor;
      e.args.push_back(expr(a, sub));
    } else if (key == "not") {
      e.kind = Expr::Not;
      e.args.push_back(expr(a, sub));
    } else if (std::find(kOps.begin(), kOps.end(), key) != kOps.end()) {
      if (!a.is_array() || a.size() != 2) fail("'" + key + "' takes [EXPR, EXPR]", sub);
      e.kind = Expr::Bin;
      e.op = key;
      e.args.push_back(expr(a[0], sub + "[0]"));
      e.args.push_back(expr(a[1], sub + "[1]"));
    } else {
      fail("unknown operator '" + printable(key, 40) + "'", path);
    }
    return e;
  }

  std::vector<Stmt> stmts(const json& j, const std::string& path) {
    if (!j.is_array()) fail("want a list of statements", path);
    static const json kNone = json::array();
    std::vector<Stmt> out;
    out.reserve(std::min<std::size_t>(j.size(), kMaxNodes));
    for (std::size_t k = 0; k < j.size(); ++k) {
      const json& s = j[k];
      const std::string p = path + "[" + std::to_string(k) + "]";
      const Level level(*this, p);
      if (!s.is_object()) fail("a statement is an object", p);
      Stmt st;
      if (s.contains("if")) {
        st.kind = Stmt::If;
        st.cond = expr(s["if"], p + ".if");
        st.then_ = stmts(member(s, "then", kNone), p + ".then");
        st.else_ = stmts(member(s, "else", kNone), p + ".else");
      } else if (s.contains("set") || s.contains("insert")) {
        const bool set = s.contains("set");
        const json& name = s[set ? "set" : "insert"];
        const auto& table = set ? regs : bags;
        if (!name.is_string() || !table.count(name.get<std::string>())) fail(std::string("unknown ") + (set ? "register" : "bag"), p);
        if (!s.contains("value")) fail("missing 'value'", p);
        st.kind = set ? Stmt::Set : Stmt::Insert;
        st.index = table.at(name.get<std::string>());
        st.values.push_back(expr(s["value"], p + ".value"));
      } else if (s.contains("output")) {
        const json& vs = s["output"];
        if (!vs.is_array()) fail("'output' takes a list of expressions", p);
        if (vs.size() > static_cast<std::size_t>(kMaxOutWidth))
          fail("'output' lists more than " + std::to_string(kMaxOutWidth) + " values (the most columns a row may have)", p + ".output");
        st.kind = Stmt::Output;
        for (std::size_t q = 0; q < vs.size(); ++q) st.values.push_back(expr(vs[q], p + ".output[" + std::to_string(q) + "]"));
      } else {
        fail("unknown statement (want if, set, insert or output)", p);
      }
      out.push_back(std::move(st));
    }
    return out;
  }
};

void check_overflow(bool overflow) {
  if (overflow) throw std::overflow_error("program arithmetic overflows int64");
}

std::int64_t eval(const Expr& e, const Env& env) {
  switch (e.kind) {
    case Expr::Const: return e.value;
    case Expr::I: return env.i;
    case Expr::Rows: return env.rows;
    case Expr::D: return env.d;
    case Expr::Reg: return static_cast<std::int64_t>(env.z->get(e.index));
    case Expr::Col:
      if (e.index >= env.row->size()) throw std::out_of_range("column " + std::to_string(e.index) + " beyond the row");
      return (*env.row)[e.index];
    case Expr::Word: {
      std::int64_t w = 0;
      for (std::size_t b = 0; b < e.len; ++b) {
        if (e.lo + b >= env.row->size()) throw std::out_of_range("word beyond the row");
        if ((*env.row)[e.lo + b] != 0) w |= std::int64_t{1} << b;
      }
      return w;
    }
    case Expr::In: {
      const std::int64_t w = eval(e.args[0], env);
      return w >= 0 && env.z->contains(e.index, static_cast<std::uint64_t>(w)) ? 1 : 0;
    }
    case Expr::BitsFor: {
      const std::int64_t v = eval(e.args[0], env);
      return v <= 1 ? 0 : static_cast<std::int64_t>(bits_for(static_cast<std::uint64_t>(v)));
    }
    case Expr::Not: return eval(e.args[0], env) == 0 ? 1 : 0;
    case Expr::Bin: {
      const std::int64_t a = eval(e.args[0], env), b = eval(e.args[1], env);
      std::int64_t r = 0;
      const std::string& op = e.op;
      if (op == "add") {
        check_overflow(__builtin_add_overflow(a, b, &r));  // before r is read (argument order is unspecified)
        return r;
      }
      if (op == "sub") {
        check_overflow(__builtin_sub_overflow(a, b, &r));  // before r is read (argument order is unspecified)
        return r;
      }
      if (op == "mul") {
        check_overflow(__builtin_mul_overflow(a, b, &r));  // before r is read (argument order is unspecified)
        return r;
      }
      if (op == "div") {
        if (b == 0 || (a == INT64_MIN && b == -1)) throw std::domain_error("program divides by zero");
        r = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? r - 1 : r;  // floor
      }
      if (op == "eq") return a == b;
      if (op == "ne") return a != b;
      if (op == "lt") return a < b;
      if (op == "le") return a <= b;
      if (op == "gt") return a > b;
      if (op == "ge") return a >= b;
      if (op == "and") return a != 0 && b != 0;
      return a != 0 || b != 0;  // or
    }
  }
  return 0;
}

void run(const std::vector<Stmt>& ss, const Env& env, RecurrentState& z, std::vector<std::int64_t>& out) {
  for (const Stmt& s : ss) {
    switch (s.kind) {
      case Stmt::If: run(eval(s.cond, env) != 0 ? s.then_ : s.else_, env, z, out); break;
      case Stmt::Set: {
        const std::int64_t v = eval(s.values[0], env);
        if (v < 0) throw std::logic_error("a register holds a non-negative value");
        z.set(s.index, static_cast<std::uint64_t>(v));
        break;
      }
      case Stmt::Insert: {
        const std::int64_t v = eval(s.values[0], env);
        if (v < 0) throw std::logic_error("a bag holds non-negative words");
        z.insert(s.index, static_cast<std::uint64_t>(v));
        break;
      }
      case Stmt::Output:
        if (s.values.size() != out.size()) throw std::logic_error("output row of the wrong width");
        for (std::size_t k = 0; k < out.size(); ++k) out[k] = eval(s.values[k], env);
        break;
    }
  }
}

using prog::Decl;

// A string member, or `fallback` when absent; anything else is refused.
std::string string_member(const Parser& P, const json& j, const char* key, const std::string& fallback) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_string()) P.fail(std::string("'") + key + "' must be a string", key);
  return it->get<std::string>();
}

}  // namespace

ProgramFile program_from_json(const json& j, const std::string& source) {
  Parser P{source, {}, {}, false};
  if (!j.is_object() || !j.contains("format") || j["format"] != "circuitzoo.program/1")
    P.fail("not a program file (want \"format\": \"circuitzoo.program/1\")", "format");
  ProgramFile f;
  f.task = string_member(P, j, "task", "");
  f.prompt = string_member(P, j, "prompt", "jrt");
  if (f.prompt != "jrt" && f.prompt != "plain") P.fail("prompt must be jrt or plain", "prompt");
  if (!j.contains("n") || !whole(j["n"], 20) || j["n"].get<std::int64_t>() < 1)
    P.fail("want the element width n in [1, 20]", "n");
  f.n = j["n"].get<unsigned>();
  auto decls = std::make_shared<std::vector<Decl>>(), bag_decls = std::make_shared<std::vector<Decl>>();
  static const json kNone = json::array(), kZero = 0;
  for (const char* key : {"registers", "bags"}) {
    const bool reg = std::string(key) == "registers";
    const json& list = member(j, key, kNone);
    if (!list.is_array()) P.fail("want a list", key);
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::string p = std::string(key) + "[" + std::to_string(k) + "]";
      const json& d = list[k];
      if (!d.is_object() || !d.contains("name") || !d["name"].is_string() || !d.contains("width")) P.fail("want {name, width}", p);
      const std::string name = d["name"].get<std::string>();
      auto& table = reg ? P.regs : P.bags;
      if (table.count(name)) P.fail("duplicate name '" + printable(name, 40) + "'", p);
      Decl decl{name, P.expr(d["width"], p + ".width"), reg ? P.expr(member(d, "init", kZero), p + ".init") : Expr{}};
      const std::size_t idx = table.size();  // registers and bags are numbered in declaration order
      table[name] = idx;
      (reg ? decls : bag_decls)->push_back(std::move(decl));
    }
  }
  if (!j.contains("out_width")) P.fail("missing out_width", "out_width");
  if (const json& w = j["out_width"]; w.is_number_integer() && !whole(w, kMaxOutWidth))
    P.fail("out_width must be from 0 to " + std::to_string(kMaxOutWidth) + " (the most columns a row may have)", "out_width");
  auto out_width = std::make_shared<Expr>(P.expr(j["out_width"], "out_width"));
  P.state_known = true;
  if (!j.contains("step")) P.fail("missing step", "step");
  auto step = std::make_shared<std::vector<Stmt>>(P.stmts(j["step"], "step"));
  f.program.name = string_member(P, j, "name", "program from " + source);
  f.ast = std::make_shared<const prog::Ast>(prog::Ast{*decls, *bag_decls, *out_width, *step});
  f.program.init = [decls, bag_decls](std::size_t rows, std::size_t d) {
    Env env;
    env.rows = static_cast<std::int64_t>(rows);
    env.d = static_cast<std::int64_t>(d);
    RecurrentState z;
    for (const Decl& r : *decls) {
      const std::int64_t w = eval(r.width, env), v = eval(r.init, env);
      if (w < 0 || w > 64 || v < 0) throw std::logic_error("register '" + r.name + "': width in [0, 64] and a non-negative init");
      z.add_register(r.name, static_cast<unsigned>(w), static_cast<std::uint64_t>(v));
    }
    for (const Decl& b : *bag_decls) {
      const std::int64_t w = eval(b.width, env);
      if (w < 0 || w > 64) throw std::logic_error("bag '" + b.name + "': width in [0, 64]");
      z.add_bag(b.name, static_cast<unsigned>(w));
    }
    return z;
  };
  f.program.step = [step, out_width](RecurrentState& z, std::size_t i, std::size_t rows, const std::vector<std::int64_t>& row) {
    Env env;
    env.i = static_cast<std::int64_t>(i);
    env.rows = static_cast<std::int64_t>(rows);
    env.d = static_cast<std::int64_t>(row.size());
    env.z = &z;
    env.row = &row;
    const std::int64_t w = eval(*out_width, env);
    if (w < 0 || w > kMaxOutWidth) throw std::logic_error("out_width " + std::to_string(w) + " is not in [0, " + std::to_string(kMaxOutWidth) + "]");
    std::vector<std::int64_t> out(static_cast<std::size_t>(w), 0);
    run(*step, env, z, out);
    return out;
  };
  return f;
}

ProgramFile read_program_file(const std::string& path) { return program_from_json(read_json_file(path, kModelMaxBytes, "a program file", JsonLimits{kJsonMaxDepth, 0, {}, kModelMaxValues}), path); }

}  // namespace cz
