// `circuit A --equiv B` beyond enumeration (issue 47 item 4): are two circuit files the same
// Boolean function, output by output, on every 0/1 input? Any two all-Bit circuits, ports matched
// by name (or by position, circuits/port_match.h): one strashed AIG of both (aig_match.h) proves
// outputs that are the same node; SAT sweeping (circuits/sat/sweep.h: simulation pairs nodes,
// speculative reduction, miters answered by CaDiCaL, SAT answers refine) proves the rest, or finds
// an input on which an output differs. A difference is reported only after both files are
// simulated on that input and disagree (otherwise an internal error, never a verdict); --certify
// checks each UNSAT answer's DRAT proof as it arrives (sat_certificates.h).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

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
// (where) when a circuit is not all-Bit after bit inference, or names repeat.
SatEquiv sat_equivalent(std::shared_ptr<const circuits::Circuit> a, std::shared_ptr<const circuits::Circuit> b, const SatOptions& o,
                        const std::string& where);

}  // namespace cz
