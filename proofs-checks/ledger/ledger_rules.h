// How a ledger row turns its evidence into a status (ledger.cpp holds the rows themselves): the
// cached verification and prove context, the asymptotic fits over sizes, and the rules from a
// construction's claims or a prove check to a row's status. Internal to the ledger.
#pragma once
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <tuple>

#include "proofs-checks/checks.h"
#include "proofs-checks/ledger/ledger.h"
#include "proofs-checks/ledger/status.h"
#include "proofs-checks/proof.h"
#include "app/report/fit.h"
#include "app/report/report_json.h"
#include "app/engine/engine.h"

namespace cz::ledger::detail {
using json = nlohmann::json;
using PMap = std::map<std::string, std::string>;

// A construction proved on every instance of one size by `verify --method sat` (issue 27): whether
// it was proved, the row's words ("proved on all 9,572,...,400 (≈ 9.6e27) instances at n=8, c=16"
// or why not), the domain proved, and a refutation's counterexample (engine-confirmed).
struct SatProof {
  bool proved = false;
  std::string text, domain;
  json counterexample = nullptr;
};
SatProof sat_proof(const std::string& name, const PMap& p, const std::string& command);

constexpr double kTol = 0.25;  // stated tolerance on fitted log-log exponents

inline std::string params_cmd(const PMap& p) {
  std::string s;
  for (const auto& [k, v] : p) s += " -p " + k + "=" + v;
  return s;
}

inline std::string domain_of(const Report& r) {
  return r.domain + ": " + r.description + " (" + std::to_string(r.instances) + " instances)";
}

inline json failure_json(const Report& r, const std::string& command) {
  json j = r.counterexample ? cz::to_json(*r.counterexample) : json::object();
  j["failed"] = std::to_string(r.failed) + " of " + std::to_string(r.instances);
  j["command"] = command;
  return j;
}

inline const Claim* find_claim(const Report& r, const std::string& quantity, const std::string& claimed_part) {
  for (const auto& c : r.claims)
    if (c.quantity == quantity && c.claimed.find(claimed_part) != std::string::npos && !c.binding) return &c;
  return nullptr;
}

inline std::string ach(const json& a) { return a.is_string() ? a.get<std::string>() : a.dump(); }

// Sets a row's status and why from its evidence: decide() is the
// only rule (status.h), so a status is a function of the row's data.
inline void finish(Entry& e) {
  const Decision d = decide(e.evidence);
  e.status = d.status;
  e.why = d.why;  // labels carry their reason as evidence too
}

// Beyond enumeration (issue 37): the row's construction PROVED by --method sat on every instance
// of a larger domain (sat_proof), added to the row's evidence, words, command and domain (stated
// exactly); a refutation's counterexample is kept when the row has none. Re-finishes the row.
void add_sat_proof(Entry& e, const std::string& name, const PMap& satp);

// A claim of a report as an evidence item: the claimed value, or (for claims without an integer
// value, e.g. eps) the exact bound the construction reports as metrics[quantity + "_bound"].
inline json claim_evidence(const Report& r, const Claim& c) {
  json claimed = c.claimed_value ? json(*c.claimed_value) : r.metrics.value(c.quantity + "_bound", json(nullptr));
  return claim_item(c.quantity, c.achieved, claimed, c.kind, c.binding);
}

// A row resting on a construction's non-asymptotic claims: its verification and each named claim
// as evidence (a claim the report lacks is recorded as unmeasured: not checkable).
inline void from_claims(Entry& e, const Report& r, const std::string& command, const std::vector<std::pair<std::string, std::string>>& which) {
  e.command = command;
  e.domain = domain_of(r);
  e.evidence.push_back(verified_item(r.exit_code() == 0, command));
  if (r.exit_code() != 0) e.counterexample = failure_json(r, command);
  std::string ours;
  for (const auto& [q, part] : which) {
    const Claim* c = find_claim(r, q, part);
    if (!c) {
      e.evidence.push_back(claim_item(q, nullptr, nullptr, "exact"));
      ours += (ours.empty() ? "" : "; ") + q + " not reported";
      continue;
    }
    e.evidence.push_back(claim_evidence(r, *c));
    ours += (ours.empty() ? "" : "; ") + q + " " + ach(c->achieved) + " (claimed " + c->claimed + ")";
  }
  e.ours = ours;
  finish(e);
}

// Asymptotic: fit log(achieved) against log(shape) (or against the varied size for O(1)).
struct FitSpec {
  std::string construction;
  PMap fixed;
  std::string vary;
  std::vector<std::string> values;
  std::string quantity, claimed_part;
  enum Kind { Upper, Lower, Theta, Constant } kind = Upper;
  std::string metric;  // when set: fit metrics[metric] (against the varied value) instead of a claim
  // when set: x = this metric of the built construction (e.g. c*c), instead of the claim's shape
  std::string x_metric;
};

inline std::string shape_name(FitSpec::Kind k) {
  return k == FitSpec::Lower ? "lower" : k == FitSpec::Theta ? "theta" : k == FitSpec::Constant ? "constant" : "upper";
}

struct FitOut {
  std::string status;  // consistent / inconsistent / "" (not enough sizes)
  json data;           // the evidence item (kind fit) with its slope and rule for display
};

// A fit item's display fields (slope, r2, points used, rule) from fit_result, beside its points.
inline FitOut summarise_fit(json item) {
  const FitResult fr = fit_result(item);
  item["rule"] = fr.rule;
  item["points_used"] = fr.points_used;
  if (fr.slope) item["slope"] = *fr.slope, item["r2"] = *fr.r2;
  else item["note"] = "fewer than " + std::to_string(kMinSizes) + " sizes with positive values";
  return {fr.status, item};
}

// Every size of f.values is built: the ledger's statuses never depend on the machine's speed (a
// wall-clock budget here once dropped sizes on a slow, sanitized CI run and turned a fit into "not
// checkable here"). The value lists are chosen so that the whole ledger stays within a minute.
inline FitOut fit_sizes(const FitSpec& f) {
  json rows = json::array();
  for (const auto& v : f.values) {
    PMap p = f.fixed;
    p[f.vary] = v;
    Built b = proofs::build_construction(f.construction, p);
    std::optional<double> x, y;
    if (!f.metric.empty()) {
      if (b.metrics.contains(f.metric) && b.metrics[f.metric].is_number()) x = std::stod(v), y = b.metrics[f.metric].get<double>();
    } else {
      for (const auto& c : b.claims)
        if (c.quantity == f.quantity && c.claimed.find(f.claimed_part) != std::string::npos && c.achieved.is_number()) {
          y = c.achieved.get<double>();
          x = f.kind == FitSpec::Constant ? std::stod(v) : c.shape_value.value_or(0);
          break;
        }
    }
    if (!f.x_metric.empty()) x = b.metrics.contains(f.x_metric) && b.metrics[f.x_metric].is_number() ? std::optional(b.metrics[f.x_metric].get<double>()) : std::nullopt;
    if (x && y) rows.push_back({{f.vary, v}, {"x", *x}, {"y", *y}});
  }
  json item = {{"kind", "fit"}, {"shape", shape_name(f.kind)}, {"tolerance", kTol}, {"construction", f.construction}, {"fixed", f.fixed},
               {"vary", f.vary}, {"quantity", f.metric.empty() ? f.quantity : f.metric}, {"points", rows},
               {"x_is", !f.x_metric.empty() ? f.x_metric : f.kind == FitSpec::Constant || !f.metric.empty() ? f.vary : "claimed shape at these parameters"}};
  return summarise_fit(std::move(item));
}

inline std::string sweep_cmd(const FitSpec& f) {
  std::string vals;
  for (const auto& v : f.values) vals += (vals.empty() ? "" : ",") + v;
  return "circuitzoo sweep " + f.construction + " --vary " + f.vary + "=" + vals + params_cmd(f.fixed);
}

// Fit over data points we computed ourselves (prove details).
inline FitOut fit_points(const std::vector<std::pair<double, double>>& pts, FitSpec::Kind kind, const std::string& x, const std::string& y) {
  json rows = json::array();
  for (auto [a, b] : pts) rows.push_back({{"x", a}, {"y", b}});
  return summarise_fit({{"kind", "fit"}, {"shape", shape_name(kind)}, {"tolerance", kTol}, {"points", rows}, {"x_is", x}, {"y_is", y}});
}

inline std::string slope_of(const FitOut& fo) { return fo.data.value("slope", json(nullptr)).dump(); }

struct Ctx {
  Options opt;
  std::map<std::string, Report> reports;
  std::map<std::string, proofs::ProofResult> proofs;
  std::map<std::string, FitOut> fits;

  // A fit over sizes (cached: rows and declared claims share sweeps).
  const FitOut& fit(const FitSpec& f) {
    const std::string key = sweep_cmd(f) + " #" + f.quantity + "/" + f.claimed_part + "/" + f.metric + "/" + f.x_metric + "/" + shape_name(f.kind);
    auto it = fits.find(key);
    if (it != fits.end()) return it->second;
    return fits.emplace(key, fit_sizes(f)).first->second;
  }

  // Verifies a construction (cached); samples: a sampled domain of that size (fast mode only).
  const Report& verify(const std::string& name, const PMap& p, std::optional<std::uint64_t> samples = std::nullopt) {
    const std::string key = cmd(name, p, samples);
    auto it = reports.find(key);
    if (it != reports.end()) return it->second;
    DomainOptions dom;
    dom.threads = 2;
    if (samples) dom.samples = samples;
    return reports.emplace(key, run_verify(find_construction(name), p, dom)).first->second;
  }
  static std::string cmd(const std::string& name, const PMap& p, std::optional<std::uint64_t> samples = std::nullopt) {
    return "circuitzoo verify " + name + params_cmd(p) + (samples ? " --samples " + std::to_string(*samples) : "");
  }
  const proofs::ProofResult& prove(const std::string& name) {
    auto it = proofs.find(name);
    if (it != proofs.end()) return it->second;
    proofs::ProofOptions po;
    po.fast = opt.fast;
    return proofs.emplace(name, proofs::run_proof(proofs::find_proof(name), po)).first->second;
  }
  std::string prove_cmd(const std::string& name) const { return "circuitzoo prove " + name + (opt.fast ? " --fast" : ""); }
};


inline void from_proof(Entry& e, Ctx& cx, const std::string& check) {
  const auto& r = cx.prove(check);
  e.command = cx.prove_cmd(check);
  e.domain = r.domain;
  e.ours = r.verdict;
  e.evidence.push_back(proof_item(r.holds, check));
  if (!r.holds) e.counterexample = r.details.value("counterexample", json(r.verdict));
  finish(e);
}

// mqar/attention's O(c^2) params (Zoology H.7.2; row 17 and its declared claims): n and c vary
// apart, so neither fit is c = n's exact 87c^2 (issue 24).
inline const std::string attention_fixed_c = "16", attention_fixed_n = "4";
inline FitSpec attention_spec_n(const std::string& q) {  // n at fixed c: O(c^2) says flat
  return {"mqar/attention", {{"c", attention_fixed_c}}, "n", {"4", "6", "8", "10", "12", "16"}, q, "O(", FitSpec::Constant, "", ""};
}
inline FitSpec attention_spec_c(const std::string& q) {  // c at fixed n: against the shape c^2
  return {"mqar/attention", {{"n", attention_fixed_n}}, "c", {"4", "8", "12", "16", "24", "32"}, q, "O(c^2)", FitSpec::Upper, "", ""};
}
// (params vs n at fixed c, params vs c^2 at fixed n, layers vs n)
inline std::tuple<FitOut, FitOut, FitOut> attention_fits(Ctx& cx, const std::string& q = "params_dense") {
  return {cx.fit(attention_spec_n(q)), cx.fit(attention_spec_c(q)), cx.fit(attention_spec_n("layers"))};
}

// state_bits O(n·min(|A|,|B|)) of sd/recurrent-jrt and sd/based-jrt (JRT Thm G.15, G.22): min
// varies at fixed n (|A| = 1..6 ≤ |B| = 6, n = 3), and n at fixed |A| = |B| = 1 (n = 1..6).
inline FitSpec sd_state_spec_min(const std::string& name) {
  return {name, {{"domain", "sized"}, {"n", "3"}, {"b", "6"}}, "a", {"1", "2", "3", "4", "5", "6"}, "state_bits", "O(", FitSpec::Upper, "", ""};
}
inline FitSpec sd_state_spec_n(const std::string& name) {
  return {name, {{"domain", "sized"}, {"a", "1"}, {"b", "1"}}, "n", {"1", "2", "3", "4", "5", "6"}, "state_bits", "O(", FitSpec::Upper, "", ""};
}

// Zoology Alg. 9 (Prop H.28) with its comparisons counted: an ordered map of d-bit keys, look up
// then insert; answers checked against a brute-force scan; work = comparisons × d bit steps.
inline json alg9_run(std::size_t n, unsigned d, std::uint64_t seed, bool& correct) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> keys(n), vals(n), qs(n);
  const std::uint64_t c = 1ULL << d;
  std::vector<std::uint64_t> pool(c);
  for (std::uint64_t t = 0; t < c; ++t) pool[t] = t;
  std::shuffle(pool.begin(), pool.end(), rng);
  for (std::size_t i = 0; i < n; ++i) keys[i] = pool[i], vals[i] = rng() % c, qs[i] = rng() % c;
  std::uint64_t comparisons = 0;
  auto cmp = [&comparisons](std::uint64_t a, std::uint64_t b) { ++comparisons; return a < b; };
  std::map<std::uint64_t, std::size_t, decltype(cmp)> D(cmp);
  correct = true;
  for (std::size_t i = 0; i < n; ++i) {
    std::optional<std::uint64_t> got, want;
    if (i >= 1) {
      auto it = D.find(qs[i]);
      if (it != D.end()) got = vals[it->second];
    }
    for (std::size_t j = 0; j < i; ++j)
      if (keys[j] == qs[i]) want = vals[j];
    if (got != want) correct = false;
    D.emplace(keys[i], i);
  }
  const double N = 3.0 * n;
  return {{"N", 3 * n}, {"d", d}, {"comparisons", comparisons}, {"work", comparisons * d}, {"shape_dNlogN", d * N * std::log2(N)}};
}

}  // namespace cz::ledger::detail
