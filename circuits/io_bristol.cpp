// Arithmetic Bristol (the circom-2-arithc variant of Bristol Fashion): line 1 "ngates nwires",
// line 2 "niv 1 1 ...", line 3 "nov 1 1 ...", a blank line, then one gate per line
//   "2 1 a b c AAdd" | "2 1 a b c AMul" | "1 1 <value> c EQ" (constant) | "1 1 a c EQW" (copy).
// Input wires are 0..niv−1 and the outputs are the last nov wires (copies at the end), as in
// Bristol Fashion. Constants are exact ("p/q" allowed). The format has no names.
#include <algorithm>
#include <sstream>

#include "circuits/builder.h"
#include "circuits/io.h"
#include "util/error.h"
#include "util/memory_budget.h"

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
  Builder b;
  std::vector<Wire> w(static_cast<std::size_t>(nwires));
  std::vector<std::uint8_t> set(static_cast<std::size_t>(nwires), 0);
  for (long long k = 0; k < niv; ++k) {
    w[static_cast<std::size_t>(k)] = b.input("x" + std::to_string(k));
    set[static_cast<std::size_t>(k)] = 1;
  }
  long long done = 0;
  auto wire = [&](long long k, bool define) -> std::size_t {
    if (k < 0 || k >= nwires) throw InputError("wire " + std::to_string(k) + " out of range", where());
    std::size_t u = static_cast<std::size_t>(k);
    if (define && set[u]) throw InputError("wire " + std::to_string(k) + " assigned twice", where());
    if (!define && !set[u]) throw InputError("wire " + std::to_string(k) + " used before it is assigned", where());
    return u;
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
    long long out;
    try { out = std::stoll(tok[tok.size() - 2]); } catch (const std::exception&) { throw InputError("bad wire number", where()); }
    std::size_t o = wire(out, true);
    auto in_wire = [&](const std::string& t) {
      long long v;
      try { v = std::stoll(t); } catch (const std::exception&) { throw InputError("bad wire number '" + t + "'", where()); }
      return w[wire(v, false)];
    };
    if (nin == 2 && (op == "AAdd" || op == "AMul" || op == "ASub")) {
      Wire x = in_wire(tok[0]), y = in_wire(tok[1]);
      w[o] = op == "AAdd" ? b.add(x, y) : op == "AMul" ? b.mul(x, y) : b.sub(x, y);
    } else if (nin == 1 && op == "EQ") {
      auto q = Rat::parse(tok[0]);
      if (!q) throw InputError("bad constant '" + tok[0] + "'", where());
      w[o] = b.constant(*q);
    } else if (nin == 1 && op == "EQW") {
      w[o] = in_wire(tok[0]);
    } else {
      throw InputError("unsupported gate '" + op + "' (AAdd, AMul, ASub, EQ, EQW)", where());
    }
    set[o] = 1;
    ++done;
  }
  if (done != ngates) throw InputError("file has " + std::to_string(done) + " gates, header says " + std::to_string(ngates), source);
  for (long long k = nwires - nov; k < nwires; ++k) {
    if (!set[static_cast<std::size_t>(k)]) throw InputError("output wire " + std::to_string(k) + " is never assigned", source);
    b.output("y" + std::to_string(k - (nwires - nov)), w[static_cast<std::size_t>(k)]);
  }
  return std::move(b).finish();
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
  if (format == "circuit-json") return read_circuit_json(text, source);
  if (format == "dot") return read_dot(text, source);
  if (format == "aiger" || format == "aiger-binary") return read_aiger(text, source);
  if (format == "blif") return read_blif(text, source);
  if (format == "bristol") return read_bristol(text, source);
  throw InputError("unknown circuit format '" + format + "'", "--format");
}

}  // namespace cz::circuits
