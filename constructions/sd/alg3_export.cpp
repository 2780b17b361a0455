// sd/recurrent-jrt as a program file (`export sd/recurrent-jrt --format program`, issue 15):
// JRT Algorithm 3 (Thm G.15) and the store-the-first-set contrast, written in the statement
// language of model/program_json.h line by line after alg3.cpp (same registers, widths, bag and
// branches; the line numbers are the paper's). `verify --program FILE --task sd` runs the file
// through the same recurrent framework and checks it against sd::intersection.
#include <nlohmann/json.hpp>

#include "verify/parts.h"

namespace cz::sdc {
namespace {

using json = nlohmann::json;

json op(const char* o, json a, json b) {
  json e = json::object();
  e[o] = json::array({std::move(a), std::move(b)});
  return e;
}
json reg(const char* r) {
  json e = json::object();
  e["reg"] = r;
  return e;
}

// Statements and lists are built with explicit constructors (a braced json with one element
// could be taken for a copy, a two-element one for a key-value pair).
json stmt_if(json cond, json then_, json else_ = json::array()) {
  json s = json::object();
  s["if"] = std::move(cond);
  s["then"] = std::move(then_);
  s["else"] = std::move(else_);
  return s;
}
json stmt(const char* kind, const char* name, json value) {
  json s = json::object();
  s[kind] = name;
  s["value"] = std::move(value);
  return s;
}
json output(json values) {
  json s = json::object();
  s["output"] = std::move(values);
  return s;
}
json one(json s) { return json::array({std::move(s)}); }
json col(unsigned j) {
  json e = json::object();
  e["col"] = j;
  return e;
}

json alg3_json(unsigned n, bool paper, bool jrt) {
  const json N = op("div", "rows", 2);
  json elem = json::object();
  elem["word"] = json::array({0, n});
  json in_z = json::object();
  in_z["in"] = json::array({"Z", elem});
  json compare = json::array();  // lines 28-29: echo the row, flag = stored
  for (unsigned b = 0; b < n; ++b) compare.push_back(col(b));
  compare.push_back(in_z);
  json p = json::object();
  p["format"] = "circuitzoo.program/1";
  p["task"] = "sd";
  p["n"] = n;
  p["prompt"] = jrt ? "jrt" : "plain";
  p["out_width"] = n + 1;
  json bag = json::object();
  bag["name"] = "Z";
  bag["width"] = n;
  p["bags"] = one(bag);
  auto reg_decl = [](const char* name, json width, json init) {
    json r = json::object();
    r["name"] = name;
    r["width"] = std::move(width);
    r["init"] = std::move(init);
    return r;
  };
  if (!jrt) {
    p["name"] = "store the first set (no repetition)";
    p["registers"] = one(reg_decl("afterSeparator", 1, 0));
    p["step"] = one(stmt_if(reg("afterSeparator"), one(output(compare)),
                            one(stmt_if(op("eq", col(n), 1), one(stmt("set", "afterSeparator", 1)), one(stmt("insert", "Z", elem))))));
    return p;
  }
  p["name"] = paper ? "JRT Alg. 3 (paper threshold)" : "JRT Alg. 3 (fixed threshold)";
  // isep: N means "no separator seen yet" (bits_for(N + 1) bits); smallFirst: 1 bit.
  json bits = json::object();
  bits["bits_for"] = op("add", N, 1);
  p["registers"] = json::array({reg_decl("isep", bits, N), reg_decl("smallFirst", 1, 0)});
  // Line 8 (Errata E8): paper isep <= floor(N/2); fixed 2·isep <= N - 1.
  const json small = paper ? op("le", "i", op("div", N, 2)) : op("le", op("mul", 2, "i"), op("sub", N, 1));
  const json i_lt_N = op("lt", "i", N), i_ge_N = op("ge", "i", N), N_isep = op("add", N, reg("isep"));
  const json first_sep = stmt_if(op("and", i_lt_N, op("eq", col(n), 1)),  // lines 5-9
                                 json::array({stmt("set", "isep", "i"), stmt("set", "smallFirst", small)}));
  const json a_small = stmt_if(op("and", i_ge_N, op("lt", "i", N_isep)), one(stmt("insert", "Z", elem)),  // lines 16-17
                               one(stmt_if(op("gt", "i", N_isep), one(output(compare)))));             // lines 19-20
  const json b_small = stmt_if(op("and", op("gt", "i", reg("isep")), i_lt_N), one(stmt("insert", "Z", elem)),  // 23-24
                               one(stmt_if(op("and", i_ge_N, op("lt", "i", N_isep)), one(output(compare)))));  // 25-27
  p["step"] = one(stmt_if(op("eq", reg("isep"), N), one(first_sep),
                          one(stmt_if(reg("smallFirst"), one(a_small), one(b_small)))));  // line 14
  return p;
}

const bool registered = register_program("sd/recurrent-jrt", [](const Params& p) {
  return alg3_json(static_cast<unsigned>(p.u("n")), p.s("variant") == "paper", p.s("prompt") == "jrt");
});

}  // namespace
}  // namespace cz::sdc
