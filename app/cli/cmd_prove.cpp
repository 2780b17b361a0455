// `circuitzoo prove NAME | --all [--fast] [--json [PATH|-]]`: runs the proofs-checks (the lemmas
// the constructions and lower bounds rest on) and prints each verdict. Exit 0 when every check
// holds, 1 when one fails, 2 on bad input (contract.md).
#include <chrono>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "proofs-checks/proof.h"
#include "app/report/human_format.h"
#include "app/report/report_json.h"
#include "util/error.h"
#include "util/progress.h"

namespace cz::cli {

nlohmann::json proof_json(const proofs::ProofCheck& c, const proofs::ProofResult& r) {
  return {{"name", c.name}, {"summary", c.summary}, {"statement_domain", c.domain}, {"rows", c.rows},
          {"holds", r.holds}, {"verdict", r.holds ? "holds" : "FAILED"}, {"finding", r.verdict},
          {"domain", r.domain}, {"details", r.details}};
}

int cmd_prove(const ProveOptions& o) {
  if (o.all && !o.name.empty()) throw InputError("give one check NAME or --all", "prove");
  if (!o.all && o.name.empty()) throw_missing_name("give one check NAME or --all", "prove", o.json_path);
  check_outputs({{"--json", o.json_path}});
  std::vector<const proofs::ProofCheck*> todo;
  if (o.all) {
    for (const auto& c : proofs::proof_registry()) todo.push_back(&c);
  } else {
    todo.push_back(&proofs::find_proof(o.name));
  }
  proofs::ProofOptions po;
  po.fast = o.fast;
  po.seed = o.seed;
  std::ostream& human = human_stream(o.json_path, o.capture);
  nlohmann::json arr = nlohmann::json::array();
  int rc = 0;
  // A status line on a terminal's stderr while a check runs (issue 49 item 7; util/progress.h).
  StatusLine status("prove");
  std::size_t done = 0;
  for (const auto* c : todo) {
    status.step(c->name + (todo.size() > 1 ? " (" + std::to_string(done + 1) + " of " + std::to_string(todo.size()) + ")" : ""));
    const auto t0 = std::chrono::steady_clock::now();
    proofs::ProofResult r = proofs::run_proof(*c, po);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++done;
    // The verdict as people read it: numbers rounded, wrapped to the terminal (issue 49 items 5, 6).
    std::ostringstream line;
    print_wrapped(line, std::string(r.holds ? "holds   " : "FAILED  ") + c->name + ": ", r.verdict, 8);
    std::string text = line.str();
    text.pop_back();
    status.print(human, text);
    nlohmann::json j = proof_json(*c, r);
    if (timing_enabled()) j["timing"] = timing_json(secs, nlohmann::json::object());
    arr.push_back(j);
    if (!r.holds) rc = 1;
  }
  if (json_wanted(o.json_path, o.capture)) {
    nlohmann::json out = {{"tool", "circuitzoo"}, {"version", kVersion}, {"fast", o.fast}, {"seed", o.seed}, {"checks", arr}};
    deliver_json(out, o.json_path, o.capture);
  }
  return rc;
}

}  // namespace cz::cli
