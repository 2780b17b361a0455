// How a ledger row turns its evidence into a status (ledger.cpp holds the rows themselves): the
// cached verification and prove context, the asymptotic fits over sizes, and the rules from a
// construction's claims or a prove check to a row's status. Internal to the ledger.
#pragma once
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <random>

#include "proofs-checks/checks.h"
#include "proofs-checks/ledger/ledger.h"
#include "proofs-checks/proof.h"
#include "app/report/fit.h"
#include "app/report/report_json.h"
#include "app/engine/engine.h"

namespace cz::ledger::detail {
using json = nlohmann::json;
using PMap = std::map<std::string, std::string>;

constexpr double kTol = 0.25;  // stated tolerance on fitted log-log exponents

inline std::string params_cmd(const PMap& p) {
  std::string s;
  for (const auto& [k, v] : p) s += " -p " + k + "=" + v;
  return s;
}

struct Ctx {
  Options opt;
  std::map<std::string, Report> reports;
  std::map<std::string, proofs::ProofResult> proofs;

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

// A row resting on a construction's non-asymptotic paper claims: not established when the
// construction failed; missed when one is missed; better when one is beaten; else holds.
inline void from_claims(Entry& e, const Report& r, const std::string& command, const std::vector<std::pair<std::string, std::string>>& which) {
  e.command = command;
  e.domain = domain_of(r);
  if (r.exit_code() != 0) {
    e.status = "not established";
    e.why = "the construction failed verification (" + std::to_string(r.failed) + " of " + std::to_string(r.instances) + ")";
    e.counterexample = failure_json(r, command);
    return;
  }
  bool missed = false, better = false;
  std::string ours;
  for (const auto& [q, part] : which) {
    const Claim* c = find_claim(r, q, part);
    if (!c) continue;
    std::string piece = q + " " + ach(c->achieved) + " (claimed " + c->claimed + ")";
    if (c->holds && !*c->holds) missed = true, piece += " worse";
    else if (c->holds && c->claimed_value && c->achieved.is_number() && c->achieved.get<double>() < static_cast<double>(*c->claimed_value))
      better = true;
    ours += (ours.empty() ? "" : "; ") + piece;
  }
  e.ours = ours;
  e.status = missed ? "missed" : better ? "holds with a better bound" : "holds";
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
};

struct FitOut {
  std::string status;  // consistent / inconsistent / "" (not enough sizes)
  json data;
};

inline FitOut fit_sizes(const FitSpec& f, double budget_s) {
  std::vector<std::pair<double, double>> pts;
  json rows = json::array();
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& v : f.values) {
    PMap p = f.fixed;
    p[f.vary] = v;
    Built b = proofs::build_construction(f.construction, p);
    double x = 0, y = 0;
    bool ok = false;
    if (!f.metric.empty()) {
      if (b.metrics.contains(f.metric) && b.metrics[f.metric].is_number()) {
        x = std::stod(v), y = b.metrics[f.metric].get<double>(), ok = true;
      }
    } else {
      for (const auto& c : b.claims)
        if (c.quantity == f.quantity && c.claimed.find(f.claimed_part) != std::string::npos && c.achieved.is_number()) {
          y = c.achieved.get<double>();
          x = f.kind == FitSpec::Constant ? std::stod(v) : c.shape_value.value_or(0);
          ok = true;
          break;
        }
    }
    if (ok) {
      pts.emplace_back(x, y);
      rows.push_back({{f.vary, v}, {"x", x}, {"achieved", y}});
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > budget_s) break;
  }
  FitOut out;
  out.data = {{"construction", f.construction}, {"fixed", f.fixed}, {"vary", f.vary}, {"points", rows}, {"tolerance", kTol},
              {"x", f.kind == FitSpec::Constant || !f.metric.empty() ? f.vary : "claimed shape at these parameters"}};
  auto fit = fit_loglog(pts);
  if (pts.size() < 5 || !fit) {
    out.data["note"] = "fewer than 5 sizes with positive values within the time budget";
    return out;
  }
  const double s = fit->slope;
  out.data["slope"] = std::round(s * 1e4) / 1e4;
  out.data["r2"] = std::round(fit->r2 * 1e4) / 1e4;
  out.data["points_used"] = fit->points.size();
  bool ok;
  switch (f.kind) {
    case FitSpec::Upper: ok = s <= 1 + kTol, out.data["rule"] = "O(shape): slope <= 1 + tol"; break;
    case FitSpec::Lower: ok = s >= 1 - kTol, out.data["rule"] = "Omega(shape): slope >= 1 - tol"; break;
    case FitSpec::Theta: ok = std::fabs(s - 1) <= kTol, out.data["rule"] = "Theta(shape): |slope - 1| <= tol"; break;
    default: ok = s <= kTol, out.data["rule"] = "O(1): slope against the size <= tol"; break;
  }
  out.status = ok ? "consistent" : "inconsistent";
  return out;
}

inline std::string sweep_cmd(const FitSpec& f) {
  std::string vals;
  for (const auto& v : f.values) vals += (vals.empty() ? "" : ",") + v;
  return "circuitzoo sweep " + f.construction + " --vary " + f.vary + "=" + vals + params_cmd(f.fixed);
}

// Fit over data points we computed ourselves (prove details).
inline FitOut fit_points(const std::vector<std::pair<double, double>>& pts, FitSpec::Kind kind, const std::string& x, const std::string& y) {
  FitOut out;
  json rows = json::array();
  for (auto [a, b] : pts) rows.push_back({{x, a}, {y, b}});
  out.data = {{"points", rows}, {"tolerance", kTol}, {"x", x}, {"y", y}};
  auto fit = fit_loglog(pts);
  if (pts.size() < 5 || !fit) return out;
  out.data["slope"] = std::round(fit->slope * 1e4) / 1e4;
  out.data["r2"] = std::round(fit->r2 * 1e4) / 1e4;
  const bool ok = kind == FitSpec::Lower ? fit->slope >= 1 - kTol : fit->slope <= 1 + kTol;
  out.data["rule"] = kind == FitSpec::Lower ? "Omega(shape): slope >= 1 - tol" : "O(shape): slope <= 1 + tol";
  out.status = ok ? "consistent" : "inconsistent";
  return out;
}

inline void from_proof(Entry& e, Ctx& cx, const std::string& check) {
  const auto& r = cx.prove(check);
  e.command = cx.prove_cmd(check);
  e.domain = r.domain;
  e.ours = r.verdict;
  e.status = r.holds ? "holds" : "refuted";
  if (!r.holds) e.counterexample = r.details.value("counterexample", json(r.verdict));
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
