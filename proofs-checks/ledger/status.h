// A ledger row's status as a pure function of its evidence (issue 24: a status is computed from
// data and changes when the data does). Every row records what it measured as evidence items;
// decide() is the only place a status is made, so a test can call it on perturbed evidence.
//
// Evidence items (JSON objects, "kind" says which):
//   verified         {"ok": bool, "what": command}         ok false -> not established
//   proof            {"holds": bool, "what": check}        holds false -> refuted
//   counterexamples  {"count": k, "what": ...}             k > 0 -> refuted (an erratum's statement)
//   claim            {"quantity", "achieved", "claimed", "bound": "exact" | "upper_bound", "binding"}
//                    achieved, claimed: numbers or exact rationals "p/q" (compared exactly);
//                    fails -> refuted when binding (our own claim), else missed; beaten -> better bound
//   fit              {"points": [{"x", "y"}, ...], "shape": "upper" | "lower" | "theta" | "constant",
//                    "tolerance": t}: the log-log slope of y against x (against the size for
//                    "constant") over the points with x, y > 0; fewer than kMinSizes such points ->
//                    not checkable here ("not enough sizes"), else consistent / inconsistent
//   label            {"status": "not checkable here", "why": ...}  a row with nothing to measure
// Precedence: not established, label, refuted, missed, inconsistent, not enough sizes, holds with
// a better bound, consistent, holds.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/report/fit.h"

namespace cz::ledger {

constexpr std::size_t kMinSizes = kMinFitPoints;  // the ledger's rule for a fit (ledger.h): 5 sizes

struct Decision {
  std::string status, why;
};
Decision decide(const nlohmann::json& evidence);

// A fit item's slope, r2, points used and rule, for display (null slope with < kMinSizes points).
struct FitResult {
  std::optional<double> slope, r2;
  std::size_t points_used = 0;
  std::string rule, status;  // status: consistent | inconsistent | "" (not enough sizes)
};
FitResult fit_result(const nlohmann::json& item);

// Builders for the items above.
nlohmann::json verified_item(bool ok, const std::string& what);
nlohmann::json proof_item(bool holds, const std::string& what);
nlohmann::json counterexamples_item(std::uint64_t count, const std::string& what);
nlohmann::json claim_item(const std::string& quantity, nlohmann::json achieved, nlohmann::json claimed, const std::string& bound,
                          bool binding = false);
nlohmann::json label_item(const std::string& status, const std::string& why);

}  // namespace cz::ledger
