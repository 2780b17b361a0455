// The verification engine: domain × artifact × reference → report (architecture.md).
// Runs every instance of the domain on a pool of threads (chunks taken from an atomic counter),
// counts passes and failures, and keeps the failure with the smallest index, so the report is
// identical for any thread count. The counterexample is then shrunk where the construction says
// how.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "app/engine/run/shard.h"
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
  nlohmann::json shard = nullptr;    // a shard's part report: {index, count, begin, end, ...} (app/engine/run/shard.h)
  std::string device = "cpu";        // what ran it: "cpu", "cpu-twin", "cuda:0 (NAME, sm_90)" (issue 12)
  unsigned ranks = 0;                // MPI ranks that ran it (0: not under mpirun)
  unsigned shards = 0;               // shards merged into it (0: not a merge)

  bool binding_claim_failed() const;
  int exit_code() const { return (failed > 0 || binding_claim_failed()) ? 1 : 0; }
};

// How this process takes part in a run (issue 13): one shard of the domain, a checkpoint file,
// and (implicitly, app/engine/run/cluster.h) the ranks of an mpirun.
struct RunControl {
  std::optional<ShardSpec> shard;   // --shard I/K: check part I of K and write a part report
  std::string checkpoint;           // --checkpoint FILE ("" none)
  bool resume = false;              // --resume: continue from FILE when it exists
  double checkpoint_seconds = 30;   // how often FILE is rewritten
};

// Runs a construction's check. `given` are the -p values (validated here).
Report run_verify(const Construction& c, const std::map<std::string, std::string>& given, const DomainOptions& opts,
                  const RunControl& ctl = {});

// Runs an already-built check and assembles its report (run_verify = parse + build + check + this).
Report run_check(const Construction& c, const Params& params, const Built& built, const Check& check,
                 const DomainOptions& opts, const RunControl& ctl = {});

// The model summary of the report (also used by `stats`).
nlohmann::json model_summary(const Model& m);

// Where threads take their next block of instances: a local atomic counter over a range, or (under
// mpirun) a counter shared by every rank (app/engine/run/cluster.h). Thread-safe; hands out blocks in
// increasing order, each [lo, lo + n) with n >= 1, and false once the range is used up.
class BlockSource {
 public:
  virtual ~BlockSource() = default;
  virtual bool next(std::uint64_t& lo, std::uint64_t& n) = 0;
  virtual void stop() = 0;  // hand out nothing more (an error in one thread stops the others)
};

// Told about every finished block (checkpoints, app/engine/run/checkpoint.h). Thread-safe.
class BlockLedger {
 public:
  virtual ~BlockLedger() = default;
  virtual void done(std::uint64_t lo, std::uint64_t n, const BlockResult& r) = 0;
};

// Runs check over [begin, end) of [0, instances) on `threads` threads and returns the number that
// failed and the smallest failing index. With check.block set (and plan.scalar false) threads run
// blocks on per-thread BlockWorkers; otherwise check.run one instance at a time. Blocks hold
// plan.block instances (0: the check's block_size; the scalar path picks its own chunk).
struct RunPlan {
  bool scalar = false;
  std::uint64_t block = 0;
  std::uint64_t begin = 0, end = UINT64_MAX;  // clamped to instances (shards, resumed checkpoints)
  BlockSource* source = nullptr;               // null: a local counter over [begin, end)
  BlockLedger* ledger = nullptr;               // null: nobody is told
};
BlockResult run_range(const Check& check, unsigned threads, const std::string& label, const RunPlan& plan = {});

// The same over the whole domain, with the failure of the smallest failing index rebuilt through
// check.run (so the counterexample is the same bytes for every thread count, block size, shard
// split and rank count).
struct RunResult {
  std::uint64_t failed = 0;
  std::optional<std::pair<std::uint64_t, Failure>> first;
};
RunResult run_domain(const Check& check, unsigned threads, const std::string& label, const RunPlan& plan = {});
// recorded_in: the file r.first was read from (a merge part, a checkpoint), "" when this process
// found it. A first failure that the scalar path passes is an InputError of that file, or (found
// here) a std::logic_error naming both verdicts: an internal error (exit 3), never a report.
RunResult with_counterexample(const Check& check, const BlockResult& r, const std::string& recorded_in = "");

// The report of a check from its run's counts (run_check = run_domain + this); merge and MPI
// rank 0 call it with counts gathered from elsewhere.
Report report_from_run(const Construction& c, const Params& params, const Built& built, const Check& check,
                       const DomainOptions& opts, const RunResult& rr);

}  // namespace cz
