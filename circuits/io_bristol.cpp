// Arithmetic Bristol (the circom-2-arithc variant of Bristol Fashion): line 1 "ngates nwires",
// line 2 "niv 1 1 ...", line 3 "nov 1 1 ...", a blank line, then one gate per line
//   "2 1 a b c AAdd" | "2 1 a b c AMul" | "1 1 <value> c EQ" (constant) | "1 1 a c EQW" (copy).
// Input wires are 0..niv−1 and the outputs are the last nov wires (copies at the end), as in
// Bristol Fashion. Constants are exact ("p/q" allowed). The format has no names.
#include <algorithm>
#include <new>
#include <sstream>
#include <unordered_map>

#include "circuits/builder.h"
#include "circuits/io.h"
#include "circuits/io_guard.h"
#include "util/error.h"
#include "util/memory_budget.h"
#include "util/text.h"

namespace cz::circuits {

std::string write_bristol(const Circuit& c) {
  std::ostringstream os;
  write_bristol(c, os);
  return os.str();
}

void write_bristol(const Circuit& c, std::ostream& os) {
  ExportOrder ord = export_order(c);
  const std::size_t nin = c.num_inputs(), nout = c.outputs().size(), body = ord.gates.size() - nin;
  os << body + nout << " " << ord.gates.size() + nout << "\n" << nin;
  for (std::size_t k = 0; k < nin; ++k) os << " 1";
  os << "\n" << nout;
  for (std::size_t k = 0; k < nout; ++k) os << " 1";
  os << "\n\n";
  for (std::size_t p = nin; p < ord.gates.size(); ++p) {
    const Gate& g = c.gate(ord.gates[p]);
    if (g.op == Op::Const) os << "1 1 " << c.constant(g.a).str() << " " << p << " EQ\n";
    else os << "2 1 " << ord.index[g.a] << " " << ord.index[g.b] << " " << p << (g.op == Op::Add ? " AAdd\n" : " AMul\n");
  }
  for (std::size_t k = 0; k < nout; ++k) os << "1 1 " << ord.index[c.outputs()[k].gate] << " " << ord.gates.size() + k << " EQW\n";
}

Circuit read_bristol(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line;
  std::size_t ln = 0;
  auto where = [&] { return source + ":" + std::to_string(ln); };
  auto read_line = [&](const char* what) {
    if (!std::getline(in, line)) throw InputError(std::string("unexpected end of file: expected ") + what, source + ":" + std::to_string(ln + 1));
    ++ln;
    return std::istringstream(line);
  };
  long long ngates, nwires, niv, nov;
  {
    auto s = read_line("'ngates nwires'");
    if (!(s >> ngates >> nwires) || ngates < 0 || nwires < 0 || nwires > (1LL << 31)) throw InputError("expected 'ngates nwires'", where());
  }
  auto widths = [&](long long& n, const char* what) {
    auto s = read_line(what);
    if (!(s >> n) || n < 0 || n > nwires) throw InputError(std::string("expected ") + what, where());
    for (long long k = 0; k < n; ++k) {
      long long wdt;
      if (!(s >> wdt) || wdt != 1) throw InputError("every value must have width 1 in arithmetic Bristol", where());
    }
  };
  widths(niv, "the input line");
  widths(nov, "the output line");
  // Nothing is sized from the header's nwires (issue 9: "1 2147483648" took 10.5 GB): wires live
  // in a map that grows with the gates actually read, and a header that promises more gate lines
  // than the file has is refused up front.
  {
    const std::size_t at = static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg()));
    const auto lines_left = static_cast<long long>(std::count(text.begin() + static_cast<std::ptrdiff_t>(std::min(at, text.size())), text.end(), '\n')) + 1;
    if (ngates > lines_left)
      throw InputError("header says " + std::to_string(ngates) + " gates, but only " + std::to_string(lines_left) +
                           " lines follow (a gate per line; truncated file?)",
                       source + ":1");
  }
  Builder b;
  ConstGuard guard;
  std::unordered_map<long long, Wire> w;  // assigned wires
  for (long long k = 0; k < niv; ++k) w[k] = b.input("x" + std::to_string(k));
  long long done = 0;
  auto wire = [&](long long k, bool define) -> long long {
    if (k < 0 || k >= nwires) throw InputError("wire " + std::to_string(k) + " out of range", where());
    if (define && w.count(k)) throw InputError("wire " + std::to_string(k) + " assigned twice", where());
    if (!define && !w.count(k)) throw InputError("wire " + std::to_string(k) + " used before it is assigned", where());
    return k;
  };
  auto number = [&](const std::string& t) -> long long {
    if (t.empty() || t.size() > 18 || t.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("bad wire number '" + printable(t) + "'", where());
    return std::stoll(t);
  };
  while (done < ngates && std::getline(in, line)) {
    ++ln;
    std::istringstream s(line);
    long long nin, nout;
    if (!(s >> nin)) continue;  // blank line
    if (!(s >> nout) || nout != 1 || nin < 1 || nin > 2) throw InputError("expected '2 1 a b c OP' or '1 1 a c OP'", where());
    std::vector<std::string> tok;
    for (std::string t; s >> t;) tok.push_back(t);
    if (tok.size() != static_cast<std::size_t>(nin) + 2) throw InputError("wrong number of fields", where());
    const std::string& op = tok.back();
    const long long o = wire(number(tok[tok.size() - 2]), true);
    auto in_wire = [&](const std::string& t) { return w.at(wire(number(t), false)); };
    if (nin == 2 && (op == "AAdd" || op == "AMul" || op == "ASub")) {
      Wire x = in_wire(tok[0]), y = in_wire(tok[1]);
      const std::size_t before = b.size();
      w[o] = op == "AAdd" ? b.add(x, y) : op == "AMul" ? b.mul(x, y) : b.sub(x, y);
      guard.after_gate(b, before, w[o], where());
    } else if (nin == 1 && op == "EQ") {
      auto q = Rat::parse(tok[0]);
      if (!q) throw InputError("bad constant '" + printable(tok[0]) + "'", where());
      w[o] = b.constant(*q);
    } else if (nin == 1 && op == "EQW") {
      w[o] = in_wire(tok[0]);
    } else {
      throw InputError("unsupported gate '" + printable(op) + "' (AAdd, AMul, ASub, EQ, EQW)", where());
    }
    ++done;
  }
  if (done != ngates) throw InputError("file has " + std::to_string(done) + " gates, header says " + std::to_string(ngates), source);
  for (long long k = nwires - nov; k < nwires; ++k) {
    auto it = w.find(k);
    if (it == w.end()) throw InputError("output wire " + std::to_string(k) + " is never assigned", source);
    b.output("y" + std::to_string(k - (nwires - nov)), it->second);
  }
  return std::move(b).finish();
}

void require_utf8_names(const Circuit& c, const std::string& format) {
  auto check = [&](const std::string& name, const char* kind, std::size_t k) {
    if (!is_utf8(name))
      throw InputError(std::string(kind) + " " + std::to_string(k) + " is named '" + printable(name) +
                           "', which is not valid UTF-8; " + format + " stores names as JSON strings (UTF-8 only)",
                       "format " + format);
  };
  for (std::size_t k = 0; k < c.num_inputs(); ++k) check(c.input_name(k), "input", k);
  for (std::size_t k = 0; k < c.outputs().size(); ++k) check(c.outputs()[k].name, "output", k);
}

void check_circuit_format(const Circuit& c, const std::string& format) {
  if (std::find(circuit_formats().begin(), circuit_formats().end(), format) == circuit_formats().end())
    throw InputError("unknown circuit format '" + format + "'", "--format");
  if ((format == "aiger" || format == "aiger-binary" || format == "blif") && !c.all_outputs_bit())
    throw InputError("format '" + format + "' needs a circuit whose outputs are all Bit wires (this one has Field outputs)",
                     "--format");
}

void write_circuit(const Circuit& c, const std::string& format, std::ostream& os) {
  check_circuit_format(c, format);
  if (format == "circuit-json") require_utf8_names(c, format);
  if (format == "circuit-json") write_circuit_json(c, os);
  else if (format == "dot") write_dot(c, os);
  else if (format == "aiger") write_aiger(c, os);
  else if (format == "aiger-binary") write_aiger_binary(c, os);
  else if (format == "blif") write_blif(c, os);
  else write_bristol(c, os);
}

std::uint64_t circuit_write_memory(const Circuit& c, const std::string& format) {
  // Per gate of the circuit: export order (live flags, index, order: 9-13 bytes) or the stats
  // arrays (live, level, mul level, last use, degree: 21 bytes); aiger/blif build the AIG
  // (strash table, ANDs, levels) and blif a name per AIG node in a std::set.
  std::uint64_t per_gate = 40;
  if (format == "aiger" || format == "aiger-binary") per_gate = 80;
  if (format == "blif") per_gate = 240;
  return sat_mul(c.size(), per_gate);
}

std::string write_circuit(const Circuit& c, const std::string& format) {
  std::ostringstream os;
  write_circuit(c, format, os);
  return os.str();
}

Circuit read_circuit(const std::string& text, const std::string& format, const std::string& source) {
  try {
    if (format == "circuit-json") return read_circuit_json(text, source);
    if (format == "dot") return read_dot(text, source);
    if (format == "aiger" || format == "aiger-binary") return read_aiger(text, source);
    if (format == "blif") return read_blif(text, source);
    if (format == "bristol") return read_bristol(text, source);
  } catch (const std::bad_alloc&) {
    // The readers price what a header promises before allocating; this is the last resort.
    throw InputError("out of memory while reading this " + format + " file", source);
  }
  throw InputError("unknown circuit format '" + printable(format) + "'", "--format");
}

}  // namespace cz::circuits
