#include <sstream>

#include <nlohmann/json.hpp>

#include "circuits/builder.h"
#include "circuits/io.h"
#include "circuits/io_guard.h"
#include "circuits/stats.h"
#include "model/model_json.h"
#include "exact/rings.h"
#include "util/error.h"
#include "util/text.h"

namespace cz::circuits {
using json = nlohmann::json;

const std::vector<std::string>& circuit_formats() {
  static const std::vector<std::string> f = {"circuit-json", "dot", "aiger", "aiger-binary", "blif", "bristol"};
  return f;
}

ExportOrder export_order(const Circuit& c) {
  std::vector<std::uint8_t> live = live_gates(c);
  ExportOrder o;
  o.index.assign(c.size(), kNoGate);
  for (std::size_t k = 0; k < c.num_inputs(); ++k) {
    o.index[c.input_gate(k)] = static_cast<GateId>(o.gates.size());
    o.gates.push_back(c.input_gate(k));
  }
  for (GateId i = 0; i < c.size(); ++i)
    if (live[i] && c.gate(i).op != Op::Input) {
      o.index[i] = static_cast<GateId>(o.gates.size());
      o.gates.push_back(i);
    }
  return o;
}

json circuit_to_json(const Circuit& c, bool with_stats) {
  ExportOrder ord = export_order(c);
  json inputs = json::array(), types = json::array(), gates = json::array(), outputs = json::array();
  bool any_bit_input = false;
  for (std::size_t k = 0; k < c.num_inputs(); ++k) {
    inputs.push_back(c.input_name(k));
    types.push_back(c.is_bit(c.input_gate(k)) ? "bit" : "field");
    any_bit_input = any_bit_input || c.is_bit(c.input_gate(k));
  }
  for (std::size_t p = c.num_inputs(); p < ord.gates.size(); ++p) {
    GateId id = ord.gates[p];
    const Gate& g = c.gate(id);
    json jg;
    if (g.op == Op::Const) jg = {{"op", "const"}, {"value", rat_to_json(c.constant(g.a))}};
    else jg = {{"op", g.op == Op::Add ? "add" : "mul"}, {"a", ord.index[g.a]}, {"b", ord.index[g.b]}};
    if (g.type == Type::Bit && g.op != Op::Const) {
      const BitDef& d = c.bit_def(id);
      json bj = {{"op", bool_op_name(d.op)}};
      const char* names[3] = {"x", "y", "z"};
      GateId ops[3] = {d.x, d.y, d.z};
      for (int i = 0; i < bool_arity(d.op); ++i) bj[names[i]] = ord.index[ops[i]];
      jg["bit"] = bj;
    }
    gates.push_back(std::move(jg));
  }
  for (const auto& o : c.outputs()) outputs.push_back({{"name", o.name}, {"gate", ord.index[o.gate]}});
  json j = {{"format", "circuitzoo.circuit/1"}, {"ring", c.ring()}, {"inputs", inputs}};
  if (any_bit_input) j["input_types"] = types;
  j["gates"] = gates;
  j["outputs"] = outputs;
  if (with_stats) j["stats"] = to_json(compute_stats(c));
  return j;
}

namespace {

const json& field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object()) throw InputError("expected a JSON object", where);
  auto it = j.find(key);
  if (it == j.end()) throw InputError(std::string("missing field '") + key + "'", where);
  return *it;
}

std::size_t index_field(const json& j, const char* key, std::size_t limit, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_number_unsigned()) throw InputError("expected a gate index", where + "." + key);
  std::size_t k = v.get<std::size_t>();
  if (k >= limit) throw InputError("gate index " + std::to_string(k) + " does not precede this gate", where + "." + key);
  return k;
}

BoolOp parse_bool_op(const std::string& s, const std::string& where) {
  for (BoolOp op : {BoolOp::Not, BoolOp::And, BoolOp::Or, BoolOp::Xor, BoolOp::Xnor, BoolOp::Mux})
    if (s == bool_op_name(op)) return op;
  throw InputError("unknown Boolean op '" + printable(s) + "'", where);
}

}  // namespace

Circuit circuit_from_json(const json& j, const std::string& where) {
  const json& fmt = field(j, "format", where);
  if (!fmt.is_string() || fmt.get<std::string>() != "circuitzoo.circuit/1")
    throw InputError("unknown format " + json_brief(fmt) + " (want \"circuitzoo.circuit/1\")", where + ".format");
  Builder b;
  ConstGuard guard;
  if (j.contains("ring")) {
    if (!j["ring"].is_string()) throw InputError("expected a string", where + ".ring");
    check_ring_name(j["ring"].get<std::string>(), where + ".ring");
    b.set_ring(j["ring"].get<std::string>());
  }
  const json& ins = field(j, "inputs", where);
  if (!ins.is_array()) throw InputError("expected an array of input names", where + ".inputs");
  const json* types = j.contains("input_types") ? &j["input_types"] : nullptr;
  if (types && (!types->is_array() || types->size() != ins.size()))
    throw InputError("expected one type per input", where + ".input_types");
  std::vector<Wire> w;
  for (std::size_t k = 0; k < ins.size(); ++k) {
    const std::string wk = where + ".inputs[" + std::to_string(k) + "]";
    if (!ins[k].is_string()) throw InputError("expected a name", wk);
    Type t = Type::Field;
    if (types) {
      const json& tj = (*types)[k];
      if (tj == "bit") t = Type::Bit;
      else if (tj != "field") throw InputError("expected \"bit\" or \"field\"", where + ".input_types[" + std::to_string(k) + "]");
    }
    w.push_back(b.input(ins[k].get<std::string>(), t));
  }
  const json& gates = field(j, "gates", where);
  if (!gates.is_array()) throw InputError("expected an array of gates", where + ".gates");
  for (std::size_t k = 0; k < gates.size(); ++k) {
    const std::string wk = where + ".gates[" + std::to_string(k) + "]";
    const json& g = gates[k];
    const json& op = field(g, "op", wk);
    const std::size_t limit = w.size();
    if (op == "const") {
      w.push_back(b.constant(rat_from_json(field(g, "value", wk), wk + ".value")));
    } else if (op == "add" || op == "mul") {
      Wire a = w[index_field(g, "a", limit, wk)], c = w[index_field(g, "b", limit, wk)];
      const std::size_t before = b.size();
      w.push_back(op == "add" ? b.add(a, c) : b.mul(a, c));
      guard.after_gate(b, before, w.back(), wk);
    } else {
      throw InputError("unknown op " + json_brief(op) + " (want add, mul or const)", wk + ".op");
    }
    if (g.contains("bit")) {
      const json& bj = g["bit"];
      BitDef d;
      d.op = parse_bool_op(field(bj, "op", wk + ".bit").is_string() ? bj["op"].get<std::string>() : "", wk + ".bit.op");
      const char* names[3] = {"x", "y", "z"};
      GateId* ops[3] = {&d.x, &d.y, &d.z};
      for (int i = 0; i < bool_arity(d.op); ++i) *ops[i] = w[index_field(bj, names[i], limit, wk + ".bit")].id;
      try {
        w.back() = b.certify_bit(w.back(), d);
      } catch (const std::logic_error& e) {
        throw InputError(std::string("false Bit claim: ") + e.what(), wk + ".bit");
      }
    }
  }
  const json& outs = field(j, "outputs", where);
  if (!outs.is_array()) throw InputError("expected an array of outputs", where + ".outputs");
  for (std::size_t k = 0; k < outs.size(); ++k) {
    const std::string wk = where + ".outputs[" + std::to_string(k) + "]";
    const json& name = field(outs[k], "name", wk);
    if (!name.is_string()) throw InputError("expected a name", wk + ".name");
    b.output(name.get<std::string>(), w[index_field(outs[k], "gate", w.size(), wk)]);
  }
  return std::move(b).finish();
}

namespace {

// A string as nlohmann::json dumps it; text that is not valid UTF-8 is an input error (names come
// from user files), not an internal one.
std::string json_string(const std::string& s, const char* what) {
  try {
    return json(s).dump();
  } catch (const json::type_error&) {
    throw InputError(std::string(what) + " is not valid UTF-8, which circuit-json cannot hold", "--format circuit-json");
  }
}

// `j` dumped with one-space indentation as if it were nested `depth` levels deep.
void dump_nested(std::ostream& os, const json& j, int depth) {
  const std::string text = j.dump(1);
  const std::string pad = "\n" + std::string(static_cast<std::size_t>(depth), ' ');
  for (char ch : text) {
    if (ch == '\n') os << pad;  // strings are escaped by dump, so every newline is formatting
    else os << ch;
  }
}

}  // namespace

// Writes the bytes of circuit_to_json(c).dump(1) + "\n" one gate at a time (keys in the sorted
// order nlohmann::json uses), so exporting a large circuit never holds its JSON tree or text.
void write_circuit_json(const Circuit& c, std::ostream& os) {
  const CircuitStats st = compute_stats(c);  // before anything is written (it may throw)
  ExportOrder ord = export_order(c);
  bool any_bit_input = false;
  for (std::size_t k = 0; k < c.num_inputs(); ++k) any_bit_input = any_bit_input || c.is_bit(c.input_gate(k));
  os << "{\n \"format\": \"circuitzoo.circuit/1\",\n \"gates\": [";
  for (std::size_t p = c.num_inputs(); p < ord.gates.size(); ++p) {
    const GateId id = ord.gates[p];
    const Gate& g = c.gate(id);
    os << (p == c.num_inputs() ? "\n  {\n" : ",\n  {\n");
    if (g.op == Op::Const) {
      os << "   \"op\": \"const\",\n   \"value\": " << rat_to_json(c.constant(g.a)).dump() << "\n  }";
      continue;
    }
    os << "   \"a\": " << ord.index[g.a] << ",\n   \"b\": " << ord.index[g.b] << ",\n";
    if (g.type == Type::Bit) {
      const BitDef& d = c.bit_def(id);
      os << "   \"bit\": {\n    \"op\": \"" << bool_op_name(d.op) << "\"";
      const char* names[3] = {"x", "y", "z"};
      const GateId ops[3] = {d.x, d.y, d.z};
      for (int i = 0; i < bool_arity(d.op); ++i) os << ",\n    \"" << names[i] << "\": " << ord.index[ops[i]];
      os << "\n   },\n";
    }
    os << "   \"op\": \"" << (g.op == Op::Add ? "add" : "mul") << "\"\n  }";
  }
  os << (ord.gates.size() > c.num_inputs() ? "\n ],\n" : "],\n");
  if (any_bit_input) {
    os << " \"input_types\": [";
    for (std::size_t k = 0; k < c.num_inputs(); ++k)
      os << (k ? ",\n  \"" : "\n  \"") << (c.is_bit(c.input_gate(k)) ? "bit" : "field") << "\"";
    os << "\n ],\n";
  }
  os << " \"inputs\": [";
  for (std::size_t k = 0; k < c.num_inputs(); ++k) os << (k ? ",\n  " : "\n  ") << json_string(c.input_name(k), "an input name");
  os << (c.num_inputs() ? "\n ],\n" : "],\n");
  os << " \"outputs\": [";
  for (std::size_t k = 0; k < c.outputs().size(); ++k) {
    const Output& o = c.outputs()[k];
    os << (k ? ",\n  {\n" : "\n  {\n") << "   \"gate\": " << ord.index[o.gate]
       << ",\n   \"name\": " << json_string(o.name, "an output name") << "\n  }";
  }
  os << (c.outputs().empty() ? "],\n" : "\n ],\n");
  os << " \"ring\": " << json_string(c.ring(), "the ring") << ",\n \"stats\": ";
  dump_nested(os, to_json(st), 1);
  os << "\n}\n";
}

std::string write_circuit_json(const Circuit& c) {
  std::ostringstream os;
  write_circuit_json(c, os);
  return os.str();
}

Circuit read_circuit_json(const std::string& text, const std::string& source) {
  const json j = parse_json_input(text, source);
  try {
    return circuit_from_json(j, source);
  } catch (const json::exception& e) {  // a value of an unexpected JSON type that slipped past a check
    throw InputError("malformed circuit-json: " + printable(e.what(), 200), source);
  }
}

}  // namespace cz::circuits
