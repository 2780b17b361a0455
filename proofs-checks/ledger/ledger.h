// The claims ledger (`circuitzoo claims`): every row of spec §12 and every claim a construction
// declares, each with a computed status, the domain it was checked on, the command that
// reproduces it, and the counterexample when refuted. Statuses (kStatuses):
//   holds                      verified on the stated domain
//   holds with a better bound  ours beats the claimed number (`ours` says by how much)
//   missed                     ours is worse than claimed (`ours`)
//   refuted                    a counterexample (the smallest found) and its command
//   consistent / inconsistent  asymptotic: log-log exponent over >= 5 sizes against the claimed
//                              shape, with the tolerance and the data (fits are data: never a
//                              verdict on an exact claim)
//   not established            the construction it rests on failed verification
//   not checkable here         why (`why`); also a fit with fewer than 5 sizes ("not enough sizes")
// Every status is decide(evidence) (status.h): a row records what it measured (verifications,
// prove checks, claims with achieved and claimed values, fits with their points) and nothing else
// makes its status, so it changes when the data does (tests/proofs/test_ledger.cpp perturbs it).
#pragma once
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cz::ledger {

inline const std::vector<std::string> kStatuses = {"holds", "holds with a better bound", "missed", "refuted", "consistent",
                                                   "inconsistent", "not established", "not checkable here"};

struct Entry {
  std::optional<int> row;  // spec §12 row
  std::string id;          // "row 5", "E1", "primitive/shift_down: layers <= 3"
  std::string source, statement, status;
  std::string ours;        // what we achieved (better bound / missed / the finding)
  std::string why;         // not checkable here / not established: why
  std::string domain, command;
  nlohmann::json counterexample = nullptr;
  nlohmann::json data = nullptr;  // fits, per-size numbers, ...
  nlohmann::json evidence = nlohmann::json::array();  // what the status is decided from (status.h)
  std::string note;
  // What a status is about (issue 35): "our construction" (the row measures a construction of
  // ours against the paper's bound or existence claim: "missed" or "inconsistent" is about our
  // construction, not evidence against the paper) or "the paper" (the row checks the paper's own
  // statement: a definition, a lemma, a lower bound, an explicit formula; "refuted" refutes it).
  std::string subject;
};
inline const std::vector<std::string> kSubjects = {"our construction", "the paper"};
// The subject of spec §12 row n (rows not listed measure our constructions).
std::string row_subject(int n);

struct Options {
  bool fast = false;
  std::ostream* progress = nullptr;  // one line per row while computing (stderr), or nullptr
  // When set, each row's line ("  row 4: holds", no newline) goes here instead of *progress (the
  // CLI prints it beside its status line, issue 49 item 7), with the count of entries so far.
  std::function<void(const std::string& line, std::size_t entries)> on_row;
};

// Rows 1..38 of spec §12, then the errata entries (E-items with a computed verdict), then every
// claim the registered constructions declare at their defaults.
std::vector<Entry> build_ledger(const Options& o);

// One E-item of spec §11 (and the tool's own findings): its statement, the smallest
// counterexample found, the command, and the fix that holds (with its command).
struct Erratum {
  std::string id, statement, status, counterexample_text, command, fix, fix_command;
  nlohmann::json counterexample = nullptr;
};
std::vector<Erratum> errata(const std::vector<Entry>& ledger);

nlohmann::json to_json(const Entry& e);
nlohmann::json ledger_json(const std::vector<Entry>& ledger, bool fast);
std::string ledger_markdown(const std::vector<Entry>& ledger);
std::string ledger_latex(const std::vector<Entry>& ledger);
std::string errata_markdown(const std::vector<Erratum>& list);

}  // namespace cz::ledger
