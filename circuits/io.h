// Circuit writers and readers (contract.md `export --format`). Every writer has a reader of
// ours, and tests check write → read → evaluate-equal on all small inputs.
//   circuit-json  "circuitzoo.circuit/1" (contract.md): inputs first, then gates, operands by
//                 index; optional "input_types" and per-gate "bit" claims, which the reader
//                 re-certifies (Builder::certify_bit), so a file cannot smuggle in a false Bit
//   dot           Graphviz digraph of the live gates (node attributes carry the gate, so our
//                 reader rebuilds the circuit from them; edges are for display). Strings escape
//                 \" \\ \n \r \t and write control bytes and bytes that are not UTF-8 as \xHH,
//                 so any name reads back byte for byte. The reader takes our dialect only: one
//                 statement per line, and a line it does not know or a missing '}' is an error
//   aiger         AIGER 1.9 ASCII ("aag M I 0 O A" + symbol table), all-Bit circuits only
//   aiger-binary  the binary AIGER form ("aig ..."; what ABC's read_aiger accepts)
//   blif          Berkeley BLIF (.names covers), all-Bit circuits only
//   bristol       arithmetic Bristol (circom-2-arithc style): "2 1 a b c AAdd|AMul",
//                 constants "1 1 <value> c EQ" (Bristol Fashion's constant assignment), outputs
//                 copied to the last wires with "1 1 a c EQW"; no names (the format has none)
// Only the live part of a circuit is written. Readers throw InputError(what, where) with
// where = "<source>:<line>" (or the JSON path) and never return a partial circuit; they walk
// iteratively (any depth), size nothing from a header before checking that the file can hold it
// and that the memory budget allows it (util/memory_budget.h), refuse constants that folding
// would blow up (io_guard.h), and quote file bytes in messages through printable() (util/text.h).
// circuit-json names must be UTF-8 (JSON strings): writing a circuit whose names are not is an
// InputError naming the input or output (require_utf8_names); DOT escapes them instead.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "circuits/circuit.h"

namespace cz::circuits {

const std::vector<std::string>& circuit_formats();  // circuit-json, dot, aiger, aiger-binary, blif, bristol

nlohmann::json circuit_to_json(const Circuit& c, bool with_stats = true);
Circuit circuit_from_json(const nlohmann::json& j, const std::string& where);

std::string write_circuit_json(const Circuit& c);
std::string write_dot(const Circuit& c);
std::string write_aiger(const Circuit& c);  // std::invalid_argument unless all outputs are Bit
std::string write_aiger_binary(const Circuit& c);
std::string write_blif(const Circuit& c);   // std::invalid_argument unless all outputs are Bit
std::string write_bristol(const Circuit& c);
// The same writers into a stream (export writes through a buffered file stream, so that a large
// circuit's text is never held in memory; the string forms above produce the same bytes).
void write_circuit_json(const Circuit& c, std::ostream& os);
void write_dot(const Circuit& c, std::ostream& os);
void write_aiger(const Circuit& c, std::ostream& os);
void write_aiger_binary(const Circuit& c, std::ostream& os);
void write_blif(const Circuit& c, std::ostream& os);
void write_bristol(const Circuit& c, std::ostream& os);

Circuit read_circuit_json(const std::string& text, const std::string& source);
Circuit read_dot(const std::string& text, const std::string& source);
Circuit read_aiger(const std::string& text, const std::string& source);  // ASCII or binary
Circuit read_blif(const std::string& text, const std::string& source);
Circuit read_bristol(const std::string& text, const std::string& source);

// circuit-json keeps names as JSON strings, which must be UTF-8: a circuit read from AIGER, BLIF
// or DOT may carry other bytes. InputError("input 3 is named '..\xff..', which is not valid
// UTF-8; ...", "format <format>") names the first offending input or output. write_circuit calls it.
void require_utf8_names(const Circuit& c, const std::string& format);

// Dispatch by format name; InputError for an unknown format (where = "--format").
std::string write_circuit(const Circuit& c, const std::string& format);
void write_circuit(const Circuit& c, const std::string& format, std::ostream& os);
// The checks write_circuit makes before writing anything: a known format, and Bit outputs for
// aiger/aiger-binary/blif (InputError, where = "--format").
void check_circuit_format(const Circuit& c, const std::string& format);
// Bytes of memory that writing `c` in `format` needs beyond the circuit itself (export order,
// stats, the AIG of aiger/blif), for require_memory before an export.
std::uint64_t circuit_write_memory(const Circuit& c, const std::string& format);
Circuit read_circuit(const std::string& text, const std::string& format, const std::string& source);

// Export order shared by the writers: inputs first (index = input index), then the live
// non-input gates in gate order. index[g] = position, or kNoGate for dead gates.
struct ExportOrder {
  std::vector<GateId> gates;   // position -> gate id
  std::vector<GateId> index;   // gate id -> position
};
ExportOrder export_order(const Circuit& c);

}  // namespace cz::circuits
