// proofs-checks/: mechanical checks of the lemmas the constructions and lower bounds rest on
// (architecture.md). Each file registers one check, like constructions do: a name, a one-line
// summary, the domain it covers, the spec §12 rows it bears on, and a run() that returns a
// verdict with its details. Verdicts are exact (integers, polynomials, ranks); nothing here is a
// float. `circuitzoo prove NAME|--all` runs them; the claims ledger reads them.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cz::proofs {

struct ProofOptions {
  bool fast = false;        // the ledger's --fast: the smallest domains
  std::uint64_t seed = 1;   // random models are drawn from this seed
};

struct ProofResult {
  bool holds = false;
  std::string verdict;       // one line: what was found
  std::string domain;        // what was covered in this run (sizes, counts)
  nlohmann::json details = nlohmann::json::object();  // the data behind the verdict
};

struct ProofCheck {
  std::string name;     // e.g. "degree/lemma-5.1"
  std::string summary;  // one line of help
  std::string domain;   // the statement's domain, in words
  std::vector<int> rows;  // spec §12 rows it checks
  std::function<ProofResult(const ProofOptions&)> run;
};

bool register_proof(ProofCheck c);
const std::vector<ProofCheck>& proof_registry();
// Throws InputError (where = the name) for an unknown check.
const ProofCheck& find_proof(const std::string& name);
// Runs one check; an exception inside it becomes a failed result naming it.
ProofResult run_proof(const ProofCheck& c, const ProofOptions& o);

}  // namespace cz::proofs
