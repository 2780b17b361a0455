// Graphviz DOT: one node per live gate, labelled for viewing; the attributes op/a/b/value/name/
// type/bit carry the gate exactly so that read_dot (ours) can rebuild the circuit.
#include <cctype>
#include <map>
#include <sstream>

#include "circuits/builder.h"
#include "circuits/io.h"
#include "circuits/io_guard.h"
#include "exact/rings.h"
#include "util/error.h"
#include "util/text.h"

namespace cz::circuits {

namespace {
// A DOT string literal our reader turns back into the same bytes: \" \\ \n \r \t, and \xHH for
// other control bytes and for bytes that are not valid UTF-8 (so the file is always UTF-8 text
// and a name never breaks a line).
std::string quote(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string r = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char ch = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_sequence_length(s, i);
    if (n > 1) { r.append(s, i, n); i += n; continue; }
    ++i;
    if (ch == '"' || ch == '\\') { r += '\\'; r += static_cast<char>(ch); }
    else if (ch == '\n') r += "\\n";
    else if (ch == '\r') r += "\\r";
    else if (ch == '\t') r += "\\t";
    else if (n == 0 || ch < 0x20 || ch == 0x7f) { r += "\\x"; r += hex[ch >> 4]; r += hex[ch & 15]; }
    else r += static_cast<char>(ch);
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
      if (g.type == Type::Bit) lbl += std::string("\n") + bool_op_name(c.bit_def(id).op);  // a line break in the label
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

namespace {

// One line of our DOT dialect, parsed by hand (std::regex recurses per character and overflows the
// stack on long lines). Throws InputError(what, where).
struct DotLine {
  const std::string& s;
  const std::string& where;
  std::size_t i = 0;

  void skip_ws() { while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i; }
  bool eat(char c) {
    skip_ws();
    if (i < s.size() && s[i] == c) { ++i; return true; }
    return false;
  }
  void expect(char c, const char* what) {
    if (!eat(c)) throw InputError(std::string("expected ") + what + " at column " + std::to_string(i + 1), where);
  }
  bool at_end() { skip_ws(); return i == s.size(); }
  static bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
  std::string ident() {
    skip_ws();
    std::size_t b = i;
    while (i < s.size() && ident_char(s[i])) ++i;
    return s.substr(b, i - b);
  }
  // A quoted string (escapes as written by quote()) or a bare token up to , ] ; or blank.
  std::string value() {
    skip_ws();
    std::string r;
    if (i < s.size() && s[i] == '"') {
      for (++i;; ++i) {
        if (i >= s.size()) throw InputError("unterminated string (a string must end on its line)", where);
        char c = s[i];
        if (c == '"') { ++i; return r; }
        if (c != '\\') { r += c; continue; }
        if (++i >= s.size()) throw InputError("unterminated string (a string must end on its line)", where);
        c = s[i];
        if (c == 'n') r += '\n';
        else if (c == 'r') r += '\r';
        else if (c == 't') r += '\t';
        else if (c == 'x') {
          auto hexv = [&](std::size_t k) -> int {
            if (k >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[k])))
              throw InputError("bad \\x escape (want two hex digits)", where);
            const char h = static_cast<char>(std::tolower(static_cast<unsigned char>(s[k])));
            return h <= '9' ? h - '0' : h - 'a' + 10;
          };
          r += static_cast<char>(hexv(i + 1) * 16 + hexv(i + 2));
          i += 2;
        } else {
          r += c;
        }
      }
    }
    std::size_t b = i;
    while (i < s.size() && s[i] != ',' && s[i] != ']' && s[i] != ';' && s[i] != ' ' && s[i] != '\t') ++i;
    if (b == i) throw InputError("expected a value at column " + std::to_string(i + 1), where);
    return s.substr(b, i - b);
  }
};

// A node or graph name made of letters, digits and '_'.
bool is_ident(const std::string& t) {
  if (t.empty()) return false;
  for (char c : t)
    if (!DotLine::ident_char(c)) return false;
  return true;
}

}  // namespace

Circuit read_dot(const std::string& text, const std::string& source) {
  Builder b;
  ConstGuard guard;
  std::vector<Wire> w;
  std::size_t ln = 0, pos = 0;
  bool header = false, closed = false;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++ln;
    const std::string where = source + ":" + std::to_string(ln);
    DotLine p{line, where};
    if (p.at_end()) continue;  // blank line
    if (line.compare(p.i, 2, "//") == 0 || line[p.i] == '#') continue;  // comment
    if (closed) throw InputError("text after the closing '}'", where);
    if (!header) {
      // "digraph NAME {" (NAME optional)
      if (p.ident() != "digraph") throw InputError("not a DOT digraph (expected 'digraph NAME {' first)", where);
      p.skip_ws();
      if (p.i < line.size() && line[p.i] != '{') {
        std::string name = p.ident();
        if (name.empty()) throw InputError("not a DOT digraph (expected 'digraph NAME {' first)", where);
      }
      p.expect('{', "'{'");
      if (!p.at_end()) throw InputError("unexpected text after 'digraph NAME {'", where);
      header = true;
      continue;
    }
    if (p.eat('}')) {
      if (!p.at_end()) throw InputError("unexpected text after '}'", where);
      closed = true;
      continue;
    }
    const std::string id = p.ident();
    if (id.empty()) throw InputError("unrecognised line '" + printable(line) + "'", where);
    p.skip_ws();
    if (p.i < line.size() && line[p.i] == '=') {  // graph attribute: rankdir=BT; ring="Fp:7";
      ++p.i;
      std::string v = p.value();
      p.expect(';', "';'");
      if (!p.at_end()) throw InputError("unexpected text after ';'", where);
      if (id == "ring") {
        check_ring_name(v, where);
        b.set_ring(v);
      }
      continue;
    }
    if (p.i + 1 < line.size() && line[p.i] == '-' && line[p.i + 1] == '>') {  // an edge: display only
      p.i += 2;
      if (!is_ident(p.ident())) throw InputError("bad edge target", where);
      p.expect(';', "';'");
      if (!p.at_end()) throw InputError("unexpected text after ';'", where);
      continue;
    }
    // A node: g<k> [attrs]; or out<k> [attrs];
    const bool gate = id.size() > 1 && id[0] == 'g' && id.find_first_not_of("0123456789", 1) == std::string::npos;
    const bool out = id.size() > 3 && id.rfind("out", 0) == 0 && id.find_first_not_of("0123456789", 3) == std::string::npos;
    if (!gate && !out) throw InputError("unrecognised line '" + printable(line) + "' (want a node g<k> or out<k>)", where);
    p.expect('[', "'['");
    std::map<std::string, std::string> a;
    if (!p.eat(']')) {
      for (;;) {
        std::string key = p.ident();
        if (key.empty()) throw InputError("expected an attribute name at column " + std::to_string(p.i + 1), where);
        p.expect('=', "'='");
        std::string v = p.value();
        if (!a.emplace(key, std::move(v)).second) throw InputError("attribute '" + key + "' given twice", where);
        if (p.eat(']')) break;
        p.expect(',', "',' or ']'");
      }
    }
    p.expect(';', "';'");
    if (!p.at_end()) throw InputError("unexpected text after ';'", where);
    auto need = [&](const char* k) -> const std::string& {
      auto f = a.find(k);
      if (f == a.end()) throw InputError(std::string("node lacks attribute '") + k + "'", where);
      return f->second;
    };
    auto number = [&](const std::string& s) -> std::size_t {
      if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
        throw InputError("bad index '" + printable(s) + "'", where);
      return static_cast<std::size_t>(std::stoul(s));
    };
    auto idx = [&](const std::string& s, std::size_t limit) -> Wire {
      std::size_t k = number(s);
      if (k >= limit) throw InputError("index " + s + " does not precede this node", where);
      return w[k];
    };
    const std::string& op = need("op");
    if (gate && (id.size() > 10 || number(id.substr(1)) != w.size()))
      throw InputError("nodes out of order (" + id + ", want g" + std::to_string(w.size()) + ")", where);
    if (gate == (op == "output")) throw InputError("op=" + printable(op) + " on node " + id, where);
    if (op == "input") {
      const std::string& type = need("type");
      if (type != "bit" && type != "field") throw InputError("bad type '" + printable(type) + "' (want bit or field)", where);
      w.push_back(b.input(need("name"), type == "bit" ? Type::Bit : Type::Field));
    } else if (op == "const") {
      auto q = Rat::parse(need("value"));
      if (!q) throw InputError("bad constant '" + printable(need("value")) + "'", where);
      w.push_back(b.constant(*q));
    } else if (op == "add" || op == "mul") {
      Wire x = idx(need("a"), w.size()), y = idx(need("b"), w.size());
      const std::size_t before = b.size();
      w.push_back(op == "add" ? b.add(x, y) : b.mul(x, y));
      guard.after_gate(b, before, w.back(), where);
      if (a.count("bit")) {
        std::istringstream bs(a["bit"]);
        std::string name, sx, sy, sz;
        bs >> name >> sx >> sy >> sz;
        BitDef d;
        bool found = false;
        for (BoolOp o : {BoolOp::Not, BoolOp::And, BoolOp::Or, BoolOp::Xor, BoolOp::Xnor, BoolOp::Mux})
          if (name == bool_op_name(o)) { d.op = o; found = true; }
        if (!found) throw InputError("unknown Boolean op '" + printable(name) + "'", where);
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
      throw InputError("unknown op '" + printable(op) + "'", where);
    }
  }
  if (!header) throw InputError("not a DOT digraph (empty file)", source);
  if (!closed) throw InputError("unexpected end of file: no closing '}' (truncated file?)", source + ":" + std::to_string(ln + 1));
  return std::move(b).finish();
}

}  // namespace cz::circuits
