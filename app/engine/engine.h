// The verification engine: domain × artifact × reference → report (architecture.md).
// Runs every instance of the domain on a pool of threads (chunks taken from an atomic counter),
// counts passes and failures, and keeps the failure with the smallest index, so the report is
// identical for any thread count. The counterexample is then shrunk where the construction says
// how.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "util/threads.h"
#include "verify/construction.h"

namespace cz {

struct Report {
  std::string construction;
  nlohmann::json params;
  std::string domain, description;
  std::vector<std::string> preconditions, notes;
  std::uint64_t seed = 1, instances = 0, passed = 0, failed = 0;
  std::optional<Failure> counterexample;
  std::optional<nlohmann::json> model;  // {N, L, d, inner_N, inner_d, conv, params_dense, params_nonzero}
  nlohmann::json circuit = nullptr;
  nlohmann::json metrics = nlohmann::json::object();
  std::vector<Claim> claims;
  double seconds = 0;                                    // wall clock, build included
  nlohmann::json timing = nlohmann::json::object();      // the artifact's own timings (Built::timing)
  nlohmann::json engine = nullptr;                       // {"path": "block"|"scalar", "kind": how blocks evaluate}

  bool binding_claim_failed() const;
  int exit_code() const { return (failed > 0 || binding_claim_failed()) ? 1 : 0; }
};

// Runs a construction's check. `given` are the -p values (validated here).
Report run_verify(const Construction& c, const std::map<std::string, std::string>& given, const DomainOptions& opts);

// Runs an already-built check and assembles its report (run_verify = parse + build + check + this).
Report run_check(const Construction& c, const Params& params, const Built& built, const Check& check,
                 const DomainOptions& opts);

// The model summary of the report (also used by `stats`).
nlohmann::json model_summary(const Model& m);

// Runs check.run over [0, instances) on `threads` threads; returns (failed count, first failure).
struct RunResult {
  std::uint64_t failed = 0;
  std::optional<std::pair<std::uint64_t, Failure>> first;
};
// With check.block set (and plan.scalar false) threads take blocks of plan.block (0: the check's
// block_size) instances from an atomic counter and run them on per-thread BlockWorkers; the first
// failure is then rebuilt through check.run, so the result is identical to the scalar path's.
struct RunPlan {
  bool scalar = false;
  std::uint64_t block = 0;
};
RunResult run_domain(const Check& check, unsigned threads, const std::string& label, const RunPlan& plan = {});


}  // namespace cz
