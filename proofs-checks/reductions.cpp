// The reductions (rows 34, 38) as lemmas with their domains, checked through the constructions'
// own verification (domain × artifact × independent reference):
//   JRT Prop G.8 / Cor G.9: EQ through MQAR on the 4-triple JRT prompt, read at query 1;
//   JRT Prop G.25: SD through GAR; JRT Prop G.26: GAR by ceil(log2(c+1)) SD calls.
// The literal decoding of Prop G.8 ("some query matches") is run as well and must fail (E10).
#include "proofs-checks/checks.h"
#include "proofs-checks/proof.h"
#include "app/engine/engine.h"

namespace cz::proofs {
namespace {

ProofResult run(const ProofOptions& o) {
  ProofResult r;
  r.holds = true;
  DomainOptions dom;
  dom.threads = 2;
  struct Item {
    std::string lemma, name;
    std::map<std::string, std::string> params;
    bool expect_pass;
  };
  std::vector<Item> items = {
      {"JRT Prop G.8 (decode at query 1)", "eq/via-mqar", {{"c", o.fast ? "4" : "8"}}, true},
      {"JRT Prop G.8 literal (some query matches)", "eq/via-mqar", {{"c", "4"}, {"decode", "any"}}, false},
      {"JRT Prop G.25 (SD -> GAR, GAR by reference)", "sd/via-gar", {{"n", "2"}}, true},
      {"JRT Props G.25 + G.26 (SD -> GAR -> SD calls)", "sd/via-gar", {{"n", "2"}, {"solver", "via-sd"}}, true},
      {"JRT Prop G.26 (GAR by SD calls, Alg. 3 oracle)", "gar/via-sd", {{"c", "4"}}, true},
  };
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& it : items) {
    Report rep = run_verify(find_construction(it.name), it.params, dom);
    std::string cmd = "circuitzoo verify " + it.name;
    for (const auto& [k, v] : it.params) cmd += " -p " + k + "=" + v;
    nlohmann::json row = {{"lemma", it.lemma}, {"command", cmd}, {"domain", rep.description}, {"instances", rep.instances},
                          {"failed", rep.failed}, {"expected", it.expect_pass ? "holds" : "fails (erratum E10)"}};
    if (rep.counterexample) row["counterexample"] = rep.counterexample->message;
    rows.push_back(row);
    if ((rep.exit_code() == 0) != it.expect_pass) r.holds = false;
  }
  r.details["reductions"] = rows;
  r.verdict = std::string(r.holds ? "" : "NOT ") + "as expected: G.8 (query 1), G.25, G.26 hold on their domains; G.8 literal fails " +
              rows[1]["failed"].dump() + "/" + rows[1]["instances"].dump();
  r.domain = "the constructions' exhaustive default domains";
  return r;
}

const bool registered = register_proof({"reductions/g8-g25-g26", "JRT Props G.8, G.25, G.26: the reductions, checked through the constructions",
                                        "EQ on c tokens; SD on subsets of {0,1}^2; GAR with c = 4", {34, 38}, run});
}  // namespace
}  // namespace cz::proofs
