// Where --method sat miters are solved (issue 38): spread over the ranks of an mpirun job, split
// by cube-and-conquer when one runs past a threshold, shared out among the shards of a job array
// (`--shard I/K`) and read back from their part files by `circuitzoo merge`. Used by the miter
// driver (sat_solve.cpp) and, through circuits::sat::BatchOptions::runner, by the stage-wise
// proofs (mqar/dyadic, circuit/sort). A run that asks for none of this keeps the one-process
// solver loops of those files, unchanged.
//
// Every rank builds the same miters (the build is deterministic) and calls schedule_sat at the
// same point; rank 0 holds the queue of tasks (a miter, or one cube of it) in the given order,
// each rank asks it for work whenever a solver thread is idle (so a slow rank takes fewer tasks),
// and at the end every rank gets every result (a broadcast), so all go on in step and rank 0
// writes the same report one process would. A miter that is not UNSAT cancels the miters after it
// on every rank (stop_after_failure), as the one-process loop does, so the verdict is the lowest
// such miter's, whatever the number of ranks.
//
// Cubes (circuits/sat/cube.h): a task that runs past cube_after seconds is stopped and replaced by
// 2^cube_bits cubes on the variables of circuits::sat::cube_variables (the miter's task inputs
// first), put at the front of the queue; a cube that runs past it again is split again, down to
// cube_depth levels. cube_after = 0 splits every miter once before solving. A miter is UNSAT when
// every one of its cubes is (the cubes cover all its assignments); SAT when one is (with that
// cube's model); else unknown.
//
// Certificates (sat_certificates.h): each task is solved under its name ("query 3 cube 5 of 16")
// and cube (circuits/sat/solve_hook.h labels), so the hook records and checks it like any solve;
// a task's --certify counts and, for --proof DIR, its DRAT proof travel to rank 0 with its result;
// the splits are logged for the index, and check-proof replays them (CubePlan).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_path.h"
#include "app/engine/run/shard.h"
#include "circuits/sat/solver.h"

namespace cz {

struct SatJob {
  const circuits::sat::Cnf* cnf = nullptr;
  std::string what;               // its name in messages and the report
  std::vector<int> cube_prefer;   // variables to cube on first (a miter's task inputs); empty: any
};

struct SatJobResult {
  circuits::sat::SolveResult r, r2;  // r2: the --confirm solver's answer (Unknown when not asked)
  bool solved = false;               // taken by a solver (false: never started, "not run")
  std::size_t cubes = 0;             // 0: solved whole; else how many cubes proved / decided it
  bool here = true;                  // false: another shard's miter, taken as UNSAT here (merge checks it)
};

// Shards and merge (contract.md "verify --method sat --shard"): the schedule calls of one run, in
// order, with every job's CNF hash and the results of this shard's jobs. A shard records them; a
// merge replays them (results from the parts; nothing solved).
struct SatParts {
  struct Call {
    std::vector<std::uint64_t> hashes;                   // every job's CNF (circuits/sat/cube.h cnf_hash)
    std::vector<std::optional<nlohmann::json>> results;  // per job: its result, when this shard ran it
  };
  std::optional<ShardSpec> shard;  // recording: this shard
  std::vector<Call> calls;         // recording: this shard's calls
  bool replay = false;             // merge: shards[i] = shard i's calls (K = shards.size())
  std::vector<std::vector<Call>> shards;
  std::size_t next = 0;            // replay: the next call
};

// What the scheduler did, for the report's sat.schedule (contract.md): ranks, cube settings and
// the miters that were split.
struct SatScheduleLog {
  int ranks = 1;
  nlohmann::json split = nlohmann::json::array();  // {"miter": what, "cubes": n}, in the order decided
  std::size_t tasks = 0;  // solver runs (miters and cubes), over all ranks
  // Every split as --proof DIR's index records it (issue 38): {"miter": what, "cnf_hash": the
  // miter's CNF (circuits/sat/cube.h cnf_hash, 16 hex digits), "cube": the parent
  // cube's literals ([] for the whole miter), "vars": the variables split on, in order, "cubes":
  // the names of the 2^k cubes}, in the order decided (rank 0; the index sorts them).
  nlohmann::json splits = nlohmann::json::array();
};

// check-proof's replay of an index's "splits" (sat_certificates.cpp): a task is split exactly when
// the index says, on exactly its variables, and never by a timer. The cubes are made here (every
// one of the 2^k, circuits/sat/cube.h split_cube), not read from the index, so a miter comes out
// UNSAT only when every cube of the union was answered UNSAT: a cube without a certificate leaves
// it undecided.
struct CubePlan {
  struct Split {
    std::vector<int> vars;            // checked when applied: 1..20 distinct variables of the CNF, not in the parent cube
    std::vector<std::string> cubes;   // the names the index lists (must be the 2^k the re-run makes)
    std::string where;                // the index entry, for messages
    bool used = false;                // applied by the re-run (a miter of the same name and CNF may use it again)
    std::string bad;                  // why it does not hold ("" when it does)
  };
  // By (miter name, miter CNF hash as 16 hex digits, parent cube): stage runs may repeat a name.
  std::map<std::tuple<std::string, std::string, std::vector<int>>, Split> splits;
};

struct SatScheduleOptions {
  const circuits::sat::SolverSpec* solver = nullptr;
  const circuits::sat::SolverSpec* second = nullptr;  // --confirm (each UNSAT miter or cube)
  double timeout_s = 300;   // wall clock for the whole call
  unsigned threads = 1;     // solver processes at once on this rank
  const std::atomic<bool>* cancel = nullptr;  // external cancellation (Python's watch)
  bool stop_after_failure = true;
  std::vector<std::size_t> order;  // priority order of the jobs (empty: index order)
  double cube_after = -1;   // < 0: no cubes
  unsigned cube_bits = 4, cube_depth = 3;
  // One process without cubes only: the DRAT sink of a job (nullptr: none).
  std::function<const circuits::sat::ProofSink*(std::size_t job)> proof;
  std::function<void(std::size_t job)> started, finished;  // this rank's threads
  SatParts* parts = nullptr;
  SatScheduleLog* log = nullptr;
  CubePlan* plan = nullptr;  // check-proof: split as the index says (cube_after is then ignored)
};

std::vector<SatJobResult> schedule_sat(const std::vector<SatJob>& jobs, const SatScheduleOptions& o);

// Shard I of K's jobs of one call: the jobs by clauses, largest first, each given to the shard
// with the least clauses so far (ties: the lower shard). Deterministic: merge recomputes it.
std::vector<bool> shard_jobs(const std::vector<SatJob>& jobs, const ShardSpec& s);

// A job result as a part file holds it, and back (InputError naming `where` on anything malformed).
nlohmann::json sat_job_result_json(const SatJobResult& r);
SatJobResult sat_job_result_of(const nlohmann::json& j, const std::string& where, int num_vars);

// Whether a run goes through schedule_sat: under mpirun (more than one rank), with cubes
// (cube_after >= 0), in a shard or a merge. Otherwise the one-process loops stay as they were.
bool sat_scheduled(const SatOptions& o);
// Solver threads of this rank: --threads, else the cores shared among the node's ranks.
unsigned sat_rank_threads(const SatOptions& o);
// The schedule options of a run (everything but solver, second, timeout, order and callbacks).
SatScheduleOptions sat_schedule_options(const SatOptions& o);
// solve_batch over schedule_sat (for the stage-wise proofs), or empty when !sat_scheduled(o).
// solve_batch's meaning: an UNSAT answer the second solver does not confirm becomes Unknown with
// why; it saying SAT is std::logic_error (the solvers disagree); never started: "not run".
circuits::sat::BatchRunner sat_batch_runner(const SatOptions& o);
// The report's sat.schedule (contract.md): ranks, shard, cube settings, split miters, tasks.
nlohmann::json sat_schedule_json(const SatOptions& o);

}  // namespace cz
