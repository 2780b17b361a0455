// The --method sat options (SatOptions, sat_path.h) turned into the scheduler's (sat_schedule.h):
// whether a run is scheduled at all (mpirun with more than one rank, --sat-cube-after, --shard),
// the solver threads of this rank, the batch runner the stage proofs call, and the report's
// `sat.schedule`. The scheduler itself is sat_schedule.cpp.
#include <algorithm>
#include <stdexcept>

#include "app/engine/run/cluster.h"
#include "app/engine/sat/sat_schedule.h"
#include "util/threads.h"

namespace cz {

namespace sat = circuits::sat;
using json = nlohmann::json;

bool sat_scheduled(const SatOptions& o) {
  return (Cluster::active() && Cluster::size() > 1) || o.cube_after >= 0 || o.parts || o.cube_plan;
}

unsigned sat_rank_threads(const SatOptions& o) {
  unsigned t = resolve_threads(o.threads);
  if (o.threads == 0 && Cluster::active()) t = std::max(1u, t / Cluster::local_size());
  return t;
}

SatScheduleOptions sat_schedule_options(const SatOptions& o) {
  SatScheduleOptions so;
  so.threads = sat_rank_threads(o);
  so.cube_after = o.cube_after;
  so.cube_bits = std::max(1u, o.cube_bits);
  so.parts = o.parts.get();
  so.log = o.log.get();
  so.plan = o.cube_plan.get();
  if (so.plan) so.cube_after = -1;  // check-proof: the index's splits, no timer
  return so;
}

circuits::sat::BatchRunner sat_batch_runner(const SatOptions& o) {
  if (!sat_scheduled(o)) return {};
  return [o](const sat::SolverSpec& s, const std::vector<const sat::Cnf*>& cnfs, const sat::BatchOptions& bo) {
    SatScheduleOptions so = sat_schedule_options(o);
    so.solver = &s;
    so.second = bo.second;
    so.timeout_s = bo.timeout_s;
    so.cancel = bo.cancel;
    so.stop_after_failure = bo.stop_at_first;
    so.started = bo.started;
    so.finished = bo.finished;
    std::vector<SatJob> jobs;
    for (std::size_t k = 0; k < cnfs.size(); ++k)
      jobs.push_back({cnfs[k], bo.what ? bo.what(k) : "miter " + std::to_string(k), {}});
    const std::vector<SatJobResult> res = schedule_sat(jobs, so);
    std::vector<sat::SolveResult> out(cnfs.size());
    for (std::size_t k = 0; k < cnfs.size(); ++k) {
      sat::SolveResult r = res[k].r;
      if (!res[k].solved) r = sat::SolveResult{sat::Answer::Unknown, {}, 0, "not run"};
      if (r.answer == sat::Answer::Unsat && bo.second) {
        if (res[k].r2.answer == sat::Answer::Sat)
          throw std::logic_error("cadical says UNSAT and " + bo.second->name + " SAT on " + jobs[k].what + " (solvers disagree)");
        if (res[k].r2.answer == sat::Answer::Unknown)
          r = sat::SolveResult{sat::Answer::Unknown, {}, r.seconds, bo.second->name + " (--confirm): " + res[k].r2.why + " on " + jobs[k].what};
      }
      out[k] = std::move(r);
    }
    return out;
  };
}

nlohmann::json sat_schedule_json(const SatOptions& o) {
  json j = {{"ranks", o.log ? o.log->ranks : 1},
            {"cube_after", o.cube_after >= 0 ? json(o.cube_after) : json(nullptr)},
            {"cube_bits", o.cube_bits},
            {"split", o.log ? o.log->split : json::array()},
            {"tasks", o.log ? o.log->tasks : 0}};
  if (o.parts && o.parts->shard) j["shard"] = std::to_string(o.parts->shard->index) + "/" + std::to_string(o.parts->shard->count);
  return j;
}

}  // namespace cz
