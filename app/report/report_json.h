// Reports as JSON (contract.md "verify report") and as terminal tables.
#pragma once
#include <optional>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/engine.h"

namespace cz {

inline constexpr const char* kVersion = "0.1.0";

// Timings are the only thing that differs between two runs of the same command and seed, so they
// live under one key, `timing` (contract.md); `--no-timing` turns them off process-wide.
void set_timing_enabled(bool on);
bool timing_enabled();
// {"seconds": s (rounded to ms), ...extra}; for reports, stats and sweep rows.
nlohmann::json timing_json(std::optional<double> seconds, const nlohmann::json& extra);

// A claim's JSON within a report: a claim on an artifact that failed verification is never "met"
// (its measured costs are those of a wrong artifact), it shows status "unverified".
nlohmann::json claim_json(const Claim& c, bool artifact_failed);

nlohmann::json to_json(const Report& r);
nlohmann::json to_json(const Failure& f);

// One shape for every verify report, whatever the method (issue 49 item 3; contract.md "Reports
// of every method"): adds what a method's own report lacks, never changes a key it has.
//   method           "enumerate" unless the report names its method (sat, algebra)
//   instances_log10  log10 of `instances` when it is a count (an integer, or a decimal string
//                    beyond 2^64); null for an infinite domain (algebra: all of Q^(N×d))
//   failed, passed   a proof stops at its first counterexample: failed = 0 when proved, 1 (at
//                    least one; the counterexample) when refuted, null when undecided; passed =
//                    instances when proved and the domain is finite, else null
void complete_report(nlohmann::json& report);
// One row per report: name, params, domain, instances, verdict, achieved vs claimed. By default
// rows fit human_columns() (the terminal, $COLUMNS, else 80; issue 49 item 6: cells cut, the
// parameters that tell rows of one construction apart kept, then columns left out and said so;
// human_format.h: the parameters the construction uses, counts as 6.4e85,
// claims counted; one report: its claims listed below); wide: every parameter, exact counts and
// each claim on the row (the table before issue 39).
void print_table(std::ostream& os, const std::vector<Report>& reports, bool wide = false);
// "  note (NAME): ..." (named) or "  note: ..." per note, wrapped to human_columns() unless wide.
void print_notes(std::ostream& os, const Report& r, bool wide, bool named);
// The counterexample in a few readable lines (stderr on failure).
void print_counterexample(std::ostream& os, const Report& r);

}  // namespace cz
