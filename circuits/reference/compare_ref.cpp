#include "circuits/reference/compare_ref.h"

#include <algorithm>

#include "circuits/gadgets_bits.h"
#include "circuits/reference/parse_cell.h"
#include "util/error.h"

namespace cz::circuits::reference {

namespace g = gadgets;

Checker compare_checker(std::size_t d, const std::vector<std::string>& outs, const std::string& where) {
  Builder b;
  g::Bits x, y;
  for (std::size_t k = 0; k < d; ++k) x.push_back(b.input("x[" + std::to_string(k) + "]", Type::Bit));
  for (std::size_t k = 0; k < d; ++k) y.push_back(b.input("y[" + std::to_string(k) + "]", Type::Bit));
  Checker ch;
  ch.task_inputs = 2 * d;
  std::vector<Wire> got;
  for (const auto& name : outs) got.push_back(b.input("got:" + name, Type::Bit));
  b.output("domain", b.one());
  // lt after bit k: [x[0..k] < y[0..k]]; a higher differing bit decides.
  Wire lt = b.zero();
  std::vector<Wire> same;
  for (std::size_t k = 0; k < d; ++k) {
    const Wire e = g::xnor_(b, x[k], y[k]);
    lt = g::mux(b, e, lt, y[k]);  // bits equal: the lower bits decide; else x < y iff y has the 1
    same.push_back(e);
  }
  const Wire eq = g::and_all(b, same);
  for (std::size_t m = 0; m < outs.size(); ++m) {
    const std::string& name = outs[m];
    std::size_t k = 0;
    Wire want;
    std::string group;
    if (name == "lt") want = lt, group = "lt";
    else if (name == "eq") want = eq, group = "eq";
    else if (parse_bit(name, "min", k) && k < d) want = g::mux(b, lt, x[k], y[k]), group = "min";
    else if (parse_bit(name, "max", k) && k < d) want = g::mux(b, lt, y[k], x[k]), group = "max";
    else throw InputError("output " + name + " is not an output of task compare (lt, eq, min[k], max[k], k < d)", where);
    ch.groups.push_back(name);
    ch.family.push_back(group);
    b.output("ok:" + name, g::xnor_(b, got[m], want));
  }
  // Every port of the task is read (as the enumerating check reads it, src/verify/task_words.cpp):
  // a missing output is an error, as in the sort checker.
  for (const std::string& want : [d] {
         std::vector<std::string> v = {"lt", "eq"};
         for (const char* w : {"min", "max"})
           for (std::size_t k = 0; k < d; ++k) v.push_back(std::string(w) + "[" + std::to_string(k) + "]");
         return v;
       }())
    if (std::find(outs.begin(), outs.end(), want) == outs.end())
      throw InputError("the circuit has no output " + want + " (task compare reads lt, eq, min[k], max[k], k < d)", where);
  ch.circuit = std::move(b).finish();
  return ch;
}

}  // namespace cz::circuits::reference
