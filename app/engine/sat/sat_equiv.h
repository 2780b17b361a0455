// `circuit A --equiv B` beyond enumeration (issue 47 item 4): are two circuit files the same
// Boolean function, output by output, on every 0/1 input? Any two all-Bit circuits, ports matched
// by name (or by position, circuits/port_match.h): one strashed AIG of both (aig_match.h) proves
// outputs that are the same node; SAT sweeping (circuits/sat/sweep.h: simulation pairs nodes,
// speculative reduction, miters answered by CaDiCaL, SAT answers refine) proves the rest, or finds
// an input on which an output differs. A difference is reported only after both files are
// simulated on that input and disagree (otherwise an internal error, never a verdict); --certify
// checks each UNSAT answer's DRAT proof as it arrives (sat_certificates.h). --proof DIR (2026-12-07,
// issue 47): every answer kept as for a construction's run, the index's "run" naming the two files
// by path, format and SHA-256 (sat_equiv_identity); check-proof reads them again and redoes the run
// with every answer from DIR (sat_equivalent_again). A refuted run keeps no directory: its
// certificate is the counterexample, checked on both files by exact evaluation.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_path.h"
#include "circuits/circuit.h"
#include "circuits/equiv.h"

namespace cz {

struct SatEquiv {
  std::string verdict;                                 // proved | refuted | undecided
  nlohmann::json report;                               // method, instances, sat {...}, why
  std::optional<circuits::Counterexample> counterexample;  // refuted: checked by simulating both files
};

// a, b: b's ports already ordered and named as a's (match_ports + rename_ports). Throws InputError
// (where) when a circuit is not all-Bit after bit inference, or names repeat. identity: what
// --proof DIR's index says of the run (sat_equiv_identity); null: --proof DIR is refused.
SatEquiv sat_equivalent(std::shared_ptr<const circuits::Circuit> a, std::shared_ptr<const circuits::Circuit> b, const SatOptions& o,
                        const std::string& where, const nlohmann::json& identity = nullptr);

// One circuit file of an equivalence run as --proof DIR's index records it: the path as given,
// its format, and the size and SHA-256 of the bytes the run read.
struct EquivFile {
  std::string path, format, sha256;
  std::uint64_t bytes = 0;
};
// The file at path read whole (a regular file: check-proof must be able to read it again; InputError
// naming it otherwise), its EquivFile and its text.
std::pair<EquivFile, std::string> read_equiv_file(const std::string& path, const std::string& format);
// The index's "run": {"what": "circuit equivalence of files A and B", "equivalence": {"first":
// {"path", "format", "bytes", "sha256"}, "second": {...}}}.
nlohmann::json sat_equiv_identity(const EquivFile& first, const EquivFile& second);

// check-proof of such a run: each file read again from first_at / second_at (the recorded path, or
// where the caller was told it is now), which must hold the bytes the index records (InputError
// naming the file, exit 2, when it is missing or changed), its ports matched as `circuit --equiv`
// matches them, and the run done again under the caller's solve hook (no recorder of its own).
SatEquiv sat_equivalent_again(const EquivFile& first, const std::string& first_at, const EquivFile& second, const std::string& second_at,
                              const SatOptions& o);

}  // namespace cz
