// decide(): the ledger's status rules (status.h), over evidence only.
#include "proofs-checks/ledger/status.h"

#include <cmath>

#include "app/report/fit.h"
#include "exact/rational.h"

namespace cz::ledger {
using json = nlohmann::json;

namespace {

std::optional<Rat> rat_of(const json& v) {
  if (v.is_number_integer()) return Rat(v.get<std::int64_t>());
  if (v.is_number_unsigned()) return Rat(static_cast<std::int64_t>(v.get<std::uint64_t>()));
  if (v.is_string()) return Rat::parse(v.get<std::string>());
  return std::nullopt;  // floating point never enters a claim's verdict
}

enum class ClaimOutcome { Holds, Better, Fails, Unknown };

ClaimOutcome claim_outcome(const json& c) {
  const auto a = rat_of(c.value("achieved", json(nullptr))), v = rat_of(c.value("claimed", json(nullptr)));
  if (!a || !v) return ClaimOutcome::Unknown;
  if (c.value("bound", std::string("exact")) == "exact") return *a == *v ? ClaimOutcome::Holds : ClaimOutcome::Fails;
  if (*v < *a) return ClaimOutcome::Fails;
  return *a < *v ? ClaimOutcome::Better : ClaimOutcome::Holds;
}

}  // namespace

FitResult fit_result(const json& item) {
  FitResult r;
  const std::string shape = item.value("shape", std::string("upper"));
  const double tol = item.value("tolerance", 0.25);
  std::vector<std::pair<double, double>> pts;
  for (const auto& p : item.value("points", json::array()))
    if (p.contains("x") && p.contains("y") && p["x"].is_number() && p["y"].is_number())
      pts.emplace_back(p["x"].get<double>(), p["y"].get<double>());
  auto fit = fit_loglog(pts);
  r.points_used = fit ? fit->points.size() : 0;
  r.rule = shape == "lower"    ? "Omega(shape): slope >= 1 - tol"
           : shape == "theta"  ? "Theta(shape): |slope - 1| <= tol"
           : shape == "constant" ? "O(1): slope against the size <= tol"
                               : "O(shape): slope <= 1 + tol";
  r.rule += ", over >= " + std::to_string(kMinSizes) + " sizes";
  if (!fit || fit->points.size() < kMinSizes) return r;
  const double s = fit->slope;
  r.slope = std::round(s * 1e4) / 1e4;
  r.r2 = std::round(fit->r2 * 1e4) / 1e4;
  const bool ok = shape == "lower" ? s >= 1 - tol : shape == "theta" ? std::fabs(s - 1) <= tol : shape == "constant" ? s <= tol : s <= 1 + tol;
  r.status = ok ? "consistent" : "inconsistent";
  return r;
}

Decision decide(const json& evidence) {
  if (!evidence.is_array() || evidence.empty()) return {"not checkable here", "no evidence recorded"};
  bool refuted = false, missed = false, better = false, inconsistent = false, consistent = false;
  std::string thin;
  for (const auto& it : evidence) {
    const std::string k = it.value("kind", std::string());
    if (k == "verified" && !it.value("ok", false))
      return {"not established", "the construction failed verification (" + it.value("what", std::string()) + ")"};
  }
  for (const auto& it : evidence)
    if (it.value("kind", std::string()) == "label") return {it.value("status", std::string()), it.value("why", std::string())};
  for (const auto& it : evidence) {
    const std::string k = it.value("kind", std::string());
    if (k == "proof" && !it.value("holds", false)) refuted = true;
    else if (k == "counterexamples" && it.value("count", std::uint64_t{0}) > 0) refuted = true;
    else if (k == "claim") {
      const ClaimOutcome o = claim_outcome(it);
      if (o == ClaimOutcome::Unknown) return {"not checkable here", "no exact value for " + it.value("quantity", std::string("a claim"))};
      if (o == ClaimOutcome::Fails) (it.value("binding", false) ? refuted : missed) = true;
      if (o == ClaimOutcome::Better) better = true;
    } else if (k == "fit") {
      const FitResult f = fit_result(it);
      if (f.status.empty()) thin = "not enough sizes: " + std::to_string(f.points_used) + " usable points, the rule needs " + std::to_string(kMinSizes);
      else (f.status == "consistent" ? consistent : inconsistent) = true;
    }
  }
  if (refuted) return {"refuted", ""};
  if (missed) return {"missed", ""};
  if (inconsistent) return {"inconsistent", ""};
  if (!thin.empty()) return {"not checkable here", thin};
  if (better) return {"holds with a better bound", ""};
  if (consistent) return {"consistent", ""};
  return {"holds", ""};
}

json verified_item(bool ok, const std::string& what) { return {{"kind", "verified"}, {"ok", ok}, {"what", what}}; }
json proof_item(bool holds, const std::string& what) { return {{"kind", "proof"}, {"holds", holds}, {"what", what}}; }
json counterexamples_item(std::uint64_t count, const std::string& what) {
  return {{"kind", "counterexamples"}, {"count", count}, {"what", what}};
}
json claim_item(const std::string& quantity, json achieved, json claimed, const std::string& bound, bool binding) {
  return {{"kind", "claim"}, {"quantity", quantity}, {"achieved", std::move(achieved)}, {"claimed", std::move(claimed)},
          {"bound", bound}, {"binding", binding}};
}
json label_item(const std::string& status, const std::string& why) { return {{"kind", "label"}, {"status", status}, {"why", why}}; }

}  // namespace cz::ledger
