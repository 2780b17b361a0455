// SatProof (ledger_rules.h): one `verify --method sat` run for a ledger row.
#include "app/engine/sat/sat_path.h"
#include "app/report/report_json.h"
#include "proofs-checks/ledger/ledger_rules.h"
#include "util/error.h"

namespace cz::ledger::detail {

namespace {
// "9572354919938842589292134400" -> "9,572,354,919,938,842,589,292,134,400 (≈ 9.6e27)".
std::string grouped(const std::string& digits) {
  std::string g;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k && (digits.size() - k) % 3 == 0) g += ',';
    g += digits[k];
  }
  if (digits.size() > 7) {
    const double lead = std::stod(digits.substr(0, 3)) / 100.0;
    char b[48];
    std::snprintf(b, sizeof b, " (≈ %.1fe%zu)", lead, digits.size() - 1);
    g += b;
  }
  return g;
}
}  // namespace

SatProof sat_proof(const std::string& name, const PMap& p, const std::string& command) {
  SatProof sp;
  std::string at;
  if (p.count("n")) at = "n=" + p.at("n");  // the size first, as the papers state it
  for (const auto& [k, v] : p)
    if (k != "n") at += (at.empty() ? "" : ", ") + k + "=" + v;
  try {
    SatOptions o;
    o.timeout_s = 300;
    const SatOutcome r = run_verify_sat(find_construction(name), p, o);
    const json& inst = r.report["instances"];
    const std::string count = inst.is_string() ? inst.get<std::string>() : inst.dump();
    sp.proved = r.verdict == "proved";
    sp.domain = r.report.value("domain_description", std::string());
    if (sp.proved)
      sp.text = "proved on all " + grouped(count) + " instances at " + at + " (" + command + ")";
    else
      sp.text = r.verdict + " at " + at + " (" + command + ")";
    if (r.counterexample) sp.counterexample = to_json(*r.counterexample);
  } catch (const InputError& e) {  // e.g. no cadical on PATH: no proof, and the row says why
    sp.text = std::string("not proved at ") + at + ": " + e.what();
    sp.domain = "no SAT proof";
  }
  return sp;
}

void add_sat_proof(Entry& e, const std::string& name, const PMap& satp) {
  const std::string cmd = "circuitzoo verify " + name + params_cmd(satp) + " --method sat";
  const SatProof sp = sat_proof(name, satp, cmd);
  e.evidence.push_back(verified_item(sp.proved, cmd));
  finish(e);
  if (e.counterexample.is_null() && sp.counterexample.is_object()) e.counterexample = sp.counterexample;
  e.ours += (e.ours.empty() ? "" : "; ") + name + " " + sp.text;
  e.command += "; " + cmd;
  e.domain += "; " + name + params_cmd(satp) + " by --method sat: " + sp.domain;
}

}  // namespace cz::ledger::detail
