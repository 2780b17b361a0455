// Graphviz DOT: one node per live gate, labelled for viewing; the attributes op/a/b/value/name/
// type/bit carry the gate exactly so that read_dot (ours) can rebuild the circuit.
#include <map>
#include <regex>
#include <sstream>

#include "circuits/builder.h"
#include "circuits/io.h"
#include "util/error.h"

namespace cz::circuits {

namespace {
std::string quote(const std::string& s) {
  std::string r = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') r += '\\';
    r += ch;
  }
  return r + "\"";
}
}  // namespace

std::string write_dot(const Circuit& c) {
  std::ostringstream os;
  write_dot(c, os);
  return os.str();
}

void write_dot(const Circuit& c, std::ostream& os) {
  ExportOrder ord = export_order(c);
  os << "digraph circuit {\n  rankdir=BT;\n  ring=" << quote(c.ring()) << ";\n";
  for (std::size_t p = 0; p < ord.gates.size(); ++p) {
    GateId id = ord.gates[p];
    const Gate& g = c.gate(id);
    os << "  g" << p << " [";
    if (g.op == Op::Input) {
      os << "shape=box, label=" << quote(c.input_name(g.a)) << ", op=input, name=" << quote(c.input_name(g.a))
         << ", type=" << (g.type == Type::Bit ? "bit" : "field");
    } else if (g.op == Op::Const) {
      os << "shape=plaintext, label=" << quote(c.constant(g.a).str()) << ", op=const, value=" << quote(c.constant(g.a).str());
    } else {
      const char* sym = g.op == Op::Add ? "+" : "×";
      std::string lbl = sym;
      if (g.type == Type::Bit) lbl += std::string("\\n") + bool_op_name(c.bit_def(id).op);
      os << "shape=circle, label=" << quote(lbl) << ", op=" << (g.op == Op::Add ? "add" : "mul") << ", a=" << ord.index[g.a]
         << ", b=" << ord.index[g.b];
      if (g.type == Type::Bit) {
        const BitDef& d = c.bit_def(id);
        os << ", bit=" << quote(std::string(bool_op_name(d.op)) + " " + std::to_string(d.x == kNoGate ? 0 : ord.index[d.x]) +
                                " " + std::to_string(d.y == kNoGate ? 0 : ord.index[d.y]) + " " +
                                std::to_string(d.z == kNoGate ? 0 : ord.index[d.z]));
      }
    }
    os << "];\n";
    if (g.op == Op::Add || g.op == Op::Mul) {
      os << "  g" << ord.index[g.a] << " -> g" << p << ";\n";
      if (g.b != g.a) os << "  g" << ord.index[g.b] << " -> g" << p << ";\n";
    }
  }
  for (std::size_t k = 0; k < c.outputs().size(); ++k) {
    const auto& o = c.outputs()[k];
    os << "  out" << k << " [shape=doublecircle, label=" << quote(o.name) << ", op=output, name=" << quote(o.name)
       << ", gate=" << ord.index[o.gate] << "];\n  g" << ord.index[o.gate] << " -> out" << k << ";\n";
  }
  os << "}\n";
}

Circuit read_dot(const std::string& text, const std::string& source) {
  Builder b;
  std::vector<Wire> w;
  std::istringstream in(text);
  std::string line;
  std::size_t ln = 0;
  static const std::regex node(R"(^\s*(g|out)(\d+)\s*\[(.*)\];\s*$)");
  static const std::regex attr(R"re((\w+)=("((?:[^"\\]|\\.)*)"|[^,\s\]]+))re");
  static const std::regex ring(R"re(^\s*ring="([^"]*)";\s*$)re");
  bool header = false;
  while (std::getline(in, line)) {
    ++ln;
    const std::string where = source + ":" + std::to_string(ln);
    std::smatch m;
    if (line.rfind("digraph", 0) == 0) { header = true; continue; }
    if (std::regex_match(line, m, ring)) { b.set_ring(m[1]); continue; }
    if (!std::regex_match(line, m, node)) continue;  // edges, layout lines, the closing brace
    std::map<std::string, std::string> a;
    const std::string body = m[3];
    for (auto it = std::sregex_iterator(body.begin(), body.end(), attr); it != std::sregex_iterator(); ++it) {
      std::string v = (*it)[3].matched ? (*it)[3].str() : (*it)[2].str();
      std::string un;
      for (std::size_t i = 0; i < v.size(); ++i) un += (v[i] == '\\' && i + 1 < v.size() && (*it)[3].matched) ? v[++i] : v[i];
      a[(*it)[1]] = un;
    }
    auto need = [&](const char* k) -> const std::string& {
      auto f = a.find(k);
      if (f == a.end()) throw InputError(std::string("node lacks attribute '") + k + "'", where);
      return f->second;
    };
    auto idx = [&](const std::string& s, std::size_t limit) -> Wire {
      std::size_t k = 0;
      try { k = s.size() > 9 ? SIZE_MAX : std::stoul(s); } catch (const std::exception&) { throw InputError("bad index '" + s + "'", where); }
      if (k >= limit) throw InputError("index " + s + " does not precede this node", where);
      return w[k];
    };
    const std::string& op = need("op");
    if (m[1] == "g" && (m[2].length() > 9 || std::stoul(m[2]) != w.size())) throw InputError("nodes out of order (g" + m[2].str() + ")", where);
    if (op == "input") {
      w.push_back(b.input(need("name"), need("type") == "bit" ? Type::Bit : Type::Field));
    } else if (op == "const") {
      auto q = Rat::parse(need("value"));
      if (!q) throw InputError("bad constant '" + need("value") + "'", where);
      w.push_back(b.constant(*q));
    } else if (op == "add" || op == "mul") {
      Wire x = idx(need("a"), w.size()), y = idx(need("b"), w.size());
      w.push_back(op == "add" ? b.add(x, y) : b.mul(x, y));
      if (a.count("bit")) {
        std::istringstream bs(a["bit"]);
        std::string name, sx, sy, sz;
        bs >> name >> sx >> sy >> sz;
        BitDef d;
        bool found = false;
        for (BoolOp o : {BoolOp::Not, BoolOp::And, BoolOp::Or, BoolOp::Xor, BoolOp::Xnor, BoolOp::Mux})
          if (name == bool_op_name(o)) { d.op = o; found = true; }
        if (!found) throw InputError("unknown Boolean op '" + name + "'", where);
        const std::size_t lim = w.size() - 1;
        const int ar = bool_arity(d.op);
        d.x = idx(sx, lim).id;
        if (ar > 1) d.y = idx(sy, lim).id;
        if (ar > 2) d.z = idx(sz, lim).id;
        try {
          w.back() = b.certify_bit(w.back(), d);
        } catch (const std::logic_error& e) {
          throw InputError(std::string("false Bit claim: ") + e.what(), where);
        }
      }
    } else if (op == "output") {
      b.output(need("name"), idx(need("gate"), w.size()));
    } else {
      throw InputError("unknown op '" + op + "'", where);
    }
  }
  if (!header) throw InputError("not a DOT digraph", source);
  return std::move(b).finish();
}

}  // namespace cz::circuits
