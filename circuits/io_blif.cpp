// Berkeley BLIF: ".model", ".inputs", ".outputs", one ".names" per AND node with a one-line cover
// whose literals encode the complemented fanins, buffers/inverters for the outputs, ".end".
// Names are made BLIF-safe ([A-Za-z0-9_] and the brackets of u[i][j], unique): the same names as
// the AIGER symbol table, so a circuit reads back (and `verify --circuit F.blif --task` places
// its cells) by name in every format (issue 26; before, k0[0] was written k0_0_). ABC and Yosys
// read them. The reader takes
// any single-output ".names" covers (on-set or off-set cubes over 0/1/-), in any order.
#include <map>
#include <set>
#include <sstream>

#include "circuits/aig.h"
#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"
#include "circuits/io.h"
#include "util/error.h"
#include "util/text.h"

namespace cz::circuits {

namespace {
std::string safe(const std::string& s, std::set<std::string>& used) {
  std::string r;
  for (char ch : s) r += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '[' || ch == ']') ? ch : '_';
  if (r.empty() || std::isdigit(static_cast<unsigned char>(r[0]))) r = "n_" + r;
  std::string base = r;
  for (int k = 1; used.count(r); ++k) r = base + "_" + std::to_string(k);
  used.insert(r);
  return r;
}
}  // namespace

std::string write_blif(const Circuit& c) {
  std::ostringstream os;
  write_blif(c, os);
  return os.str();
}

void write_blif(const Circuit& c, std::ostream& os) {
  Aig a = to_aig(c);
  std::set<std::string> used = {"zero"};
  std::vector<std::string> var(1 + a.num_inputs + a.ands.size());
  var[0] = "zero";
  os << ".model circuitzoo\n.inputs";
  for (std::uint32_t i = 0; i < a.num_inputs; ++i) os << " " << (var[1 + i] = safe(a.input_names[i], used));
  std::vector<std::string> outs;
  for (const auto& n : a.output_names) outs.push_back(safe(n, used));
  os << "\n.outputs";
  for (const auto& n : outs) os << " " << n;
  os << "\n.names zero\n";  // constant 0 (empty cover)
  for (std::size_t k = 0; k < a.ands.size(); ++k) {
    std::string n = safe("a" + std::to_string(k), used);
    var[1 + a.num_inputs + k] = n;
    auto [x, y] = a.ands[k];
    os << ".names " << var[x >> 1] << " " << var[y >> 1] << " " << n << "\n" << ((x & 1) ? '0' : '1') << ((y & 1) ? '0' : '1')
       << " 1\n";
  }
  for (std::size_t o = 0; o < outs.size(); ++o) {
    std::uint32_t l = a.outputs[o];
    os << ".names " << var[l >> 1] << " " << outs[o] << "\n" << ((l & 1) ? "0 1\n" : "1 1\n");
  }
  os << ".end\n";
}

Circuit read_blif(const std::string& text, const std::string& source) {
  // Join continuation lines, drop comments.
  std::vector<std::pair<std::size_t, std::vector<std::string>>> lines;
  {
    std::istringstream in(text);
    std::string line, acc;
    std::size_t ln = 0, start = 0;
    while (std::getline(in, line)) {
      ++ln;
      if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
      if (acc.empty()) start = ln;
      if (!line.empty() && line.back() == '\\') { acc += line.substr(0, line.size() - 1) + " "; continue; }
      acc += line;
      std::istringstream ws(acc);
      std::vector<std::string> toks;
      for (std::string t; ws >> t;) toks.push_back(t);
      if (!toks.empty()) lines.emplace_back(start, toks);
      acc.clear();
    }
  }
  struct Cover { std::vector<std::string> ins; std::vector<std::pair<std::string, char>> cubes; std::size_t line; };
  std::vector<std::string> inputs, outputs;
  std::map<std::string, Cover> defs;
  Cover* cur = nullptr;
  bool model = false, ended = false;
  for (const auto& [ln, t] : lines) {
    const std::string where = source + ":" + std::to_string(ln);
    if (ended) break;
    if (t[0] == ".model") { model = true; cur = nullptr; }
    else if (t[0] == ".inputs") { inputs.insert(inputs.end(), t.begin() + 1, t.end()); cur = nullptr; }
    else if (t[0] == ".outputs") { outputs.insert(outputs.end(), t.begin() + 1, t.end()); cur = nullptr; }
    else if (t[0] == ".names") {
      if (t.size() < 2) throw InputError(".names needs an output", where);
      if (defs.count(t.back())) throw InputError("signal '" + printable(t.back()) + "' defined twice", where);
      cur = &defs[t.back()];
      cur->ins.assign(t.begin() + 1, t.end() - 1);
      cur->line = ln;
    } else if (t[0] == ".end") { ended = true; }
    else if (t[0][0] == '.') throw InputError("unsupported BLIF construct " + printable(t[0]) + " (combinational .names only)", where);
    else {
      if (!cur) throw InputError("cover line outside .names", where);
      std::string cube = cur->ins.empty() ? "" : t[0];
      std::string val = cur->ins.empty() ? t[0] : (t.size() > 1 ? t[1] : "");
      if (cube.size() != cur->ins.size() || cube.find_first_not_of("01-") != std::string::npos || (val != "0" && val != "1"))
        throw InputError("bad cover line", where);
      if (!cur->cubes.empty() && cur->cubes[0].second != val[0]) throw InputError("mixed on-set and off-set cubes", where);
      cur->cubes.emplace_back(cube, val[0]);
    }
  }
  if (!model) throw InputError("not a BLIF model (no .model)", source);
  Builder b;
  std::map<std::string, Wire> sig;
  for (const auto& n : inputs) {
    if (sig.count(n)) throw InputError("input '" + printable(n) + "' listed twice", source);
    sig[n] = b.input(n, Type::Bit);
  }
  // Resolve each output's cone depth-first with an explicit stack (a 60,000-deep buffer chain
  // must not overflow the call stack). A frame waits on its fanins in order; `active` marks the
  // signals on the stack, so meeting one again is a combinational loop.
  struct Frame { const std::string* name; const Cover* cv; std::size_t next; };
  std::set<std::string> active;
  std::vector<Frame> stack;
  auto build = [&](const Cover& cv) {
    std::vector<Wire> terms;
    for (const auto& [cube, v] : cv.cubes) {
      std::vector<Wire> lits;
      for (std::size_t i = 0; i < cube.size(); ++i) {
        if (cube[i] == '-') continue;
        Wire x = sig.at(cv.ins[i]);
        lits.push_back(cube[i] == '1' ? x : gadgets::not_(b, x));
      }
      terms.push_back(gadgets::and_all(b, lits));
    }
    Wire r = gadgets::or_all(b, terms);  // no cubes: constant 0
    if (!cv.cubes.empty() && cv.cubes[0].second == '0') r = gadgets::not_(b, r);
    return r;
  };
  // Pushes signal n (used at `where`) unless it is already known.
  auto push = [&](const std::string& n, const std::string& where) {
    if (sig.count(n)) return;
    auto d = defs.find(n);
    if (d == defs.end()) throw InputError("signal '" + printable(n) + "' is used but never defined", where);
    if (!active.insert(n).second) throw InputError("combinational loop through '" + printable(n) + "'", where);
    stack.push_back({&d->first, &d->second, 0});
  };
  auto needed = [](const Cover& cv, std::size_t i) {
    for (const auto& cube : cv.cubes)
      if (cube.first[i] != '-') return true;
    return false;
  };
  auto get = [&](const std::string& n, const std::string& where) -> Wire {
    push(n, where);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const Cover& cv = *f.cv;
      while (f.next < cv.ins.size() && (sig.count(cv.ins[f.next]) || !needed(cv, f.next))) ++f.next;
      if (f.next < cv.ins.size()) {
        push(cv.ins[f.next], source + ":" + std::to_string(cv.line));  // may invalidate f
        continue;
      }
      sig[*f.name] = build(cv);
      active.erase(*f.name);
      stack.pop_back();
    }
    return sig.at(n);
  };
  for (const auto& n : outputs) b.output(n, get(n, source));
  return std::move(b).finish();
}

}  // namespace cz::circuits
