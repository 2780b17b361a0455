#include "app/engine/sat/sat_equiv.h"

#include <memory>
#include <stdexcept>

#include "app/engine/sat/sat_certificates.h"
#include "app/engine/sat/sat_problem.h"
#include "app/engine/sat/sat_stages.h"
#include "circuits/aig_match.h"
#include "circuits/eval.h"
#include "util/error.h"

namespace cz {

namespace {

// The input on which the sweep saw an output differ (one value per input of a: the joint AIG's
// inputs are a's, in order), checked on both files by exact evaluation.
std::optional<circuits::Counterexample> confirmed(const circuits::Circuit& a, const circuits::Circuit& b,
                                                  const std::vector<std::uint32_t>& witness) {
  std::vector<std::int64_t> in(a.num_inputs(), 0);
  for (std::size_t k = 0; k < in.size() && k < witness.size(); ++k) in[k] = witness[k] & 1;
  const std::vector<Int> ya = circuits::eval_integer(a, in), yb = circuits::eval_integer(b, in);
  for (std::size_t k = 0; k < ya.size() && k < yb.size(); ++k)
    if (ya[k] != yb[k]) {
      circuits::Counterexample cx;
      cx.inputs.assign(in.begin(), in.end());
      cx.output = a.outputs()[k].name;
      cx.want = ya[k].str();
      cx.got = yb[k].str();
      return cx;
    }
  return std::nullopt;
}

}  // namespace

SatEquiv sat_equivalent(std::shared_ptr<const circuits::Circuit> a, std::shared_ptr<const circuits::Circuit> b, const SatOptions& o,
                        const std::string& where) {
  if (!o.proof_dir.empty())
    throw InputError("check-proof re-derives each CNF from a construction's run, and two circuit files are no such run; use --certify "
                     "(each UNSAT answer's DRAT proof checked as it arrives)",
                     "--proof");
  a = sat_bit_circuit(std::move(a), "the first circuit");
  b = sat_bit_circuit(std::move(b), where);
  const circuits::JointAig j = circuits::joint_aig(*a, *b);
  if (!j.why.empty()) throw InputError("the ports do not correspond: " + j.why, where);
  const circuits::AigMatch m = circuits::aig_match(j);
  std::vector<std::uint32_t> witness;
  const SatOutcome out = run_sat_with_certificates(o, nullptr, [&] {
    SatOutcome so;
    so.report = {{"instances", sat_power(Int(2), a->num_inputs()).str()},
                 {"instances_log10", static_cast<double>(a->num_inputs()) * 0.30102999566398120}};
    nlohmann::json sat = {{"outputs", m.outputs}, {"same_node", m.same}, {"ands_first", m.ands_a}, {"ands_second", m.ands_b},
                          {"ands_joint", m.ands_joint}};
    if (m.equal()) {  // every output the same node of one strashed AIG: equal by hash-consing alone
      so.verdict = "proved";
      so.report["method"] = "strash";
      so.report["sat"] = sat;
      return so;
    }
    const std::optional<SatSweep> sw = sat_reference_sweep(j, o);
    if (!sw) throw InputError("SAT sweeping needs the cadical solver on PATH (Debian package cadical)", where);
    sat["sweep"] = sw->report;
    so.report["method"] = "sat-sweep";
    so.report["sat"] = sat;
    so.seconds = sw->seconds;
    if (sw->equal) {
      so.verdict = "proved";
    } else if (sw->report.contains("differ")) {
      so.verdict = "refuted";
      so.exit_code = 1;
      witness = sw->witness;
    } else {
      so.verdict = "undecided";
      so.exit_code = 4;
      so.report["why"] = sw->why;
    }
    return so;
  });
  SatEquiv res{out.verdict, out.report, std::nullopt};
  if (res.verdict == "refuted") {
    res.counterexample = confirmed(*a, *b, witness);
    if (!res.counterexample)
      throw std::runtime_error("SAT sweeping reported a differing output on an input where both circuits agree (a bug of the sweep)");
  }
  return res;
}

}  // namespace cz
