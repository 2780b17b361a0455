// The coordinator's side of schedule_sat (sat_schedule.cpp): the tasks (a miter or one cube of it)
// and their results, their JSON between ranks, and the Board, rank 0's queue of tasks and what is
// known of every job (cube splits by timer or, under check-proof, by the index's plan). Internal
// to sat_schedule.cpp; one file for the queue, one for the threads and the MPI messages.
#pragma once
#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/engine/sat/sat_certify_counts.h"
#include "app/engine/sat/sat_schedule.h"
#include "circuits/sat/cube.h"
#include "util/error.h"

namespace cz::sched_board {

namespace sat = circuits::sat;
using nlohmann::json;

struct Task {
  std::size_t id = 0, job = 0;
  std::vector<int> cube;  // empty: the whole miter
  unsigned depth = 0;     // cube levels so far
  bool may_split = false; // stopped at cube_after and split when it runs past it
  std::string name;       // "query 3", "query 3 cube 5 of 16": what --proof DIR's index calls its answer
};

struct TaskResult {
  std::size_t id = 0, job = 0;
  sat::SolveResult r, r2;
  bool split = false;  // ran past cube_after: to be split
  CertifyCounts cert;  // --certify's checks of this task's answers, on the rank that solved it
  bool has_proof = false;  // rank > 0 with --proof DIR: the DRAT proof of its UNSAT answer, for rank 0
  std::string drat;
};

inline json solve_json(const sat::SolveResult& r) {
  json j = {{"answer", sat::to_string(r.answer)}, {"seconds", r.seconds}, {"why", r.why}};
  if (r.answer == sat::Answer::Sat) {
    std::string m;
    for (std::size_t v = 1; v < r.model.size(); ++v) m.push_back(r.model[v] ? '1' : '0');
    j["model"] = m;
  }
  return j;
}

inline sat::SolveResult solve_of(const json& j, const std::string& where, int num_vars) {
  if (!j.is_object() || !j.contains("answer") || !j["answer"].is_string() || !j.contains("seconds") ||
      !j["seconds"].is_number() || !j.contains("why") || !j["why"].is_string())
    throw InputError("a solver result wants answer, seconds and why", where);
  sat::SolveResult r;
  const std::string a = j["answer"].get<std::string>();
  r.answer = a == "sat" ? sat::Answer::Sat : a == "unsat" ? sat::Answer::Unsat : sat::Answer::Unknown;
  if (a != sat::to_string(r.answer)) throw InputError("unknown solver answer '" + a.substr(0, 32) + "'", where);
  r.seconds = j["seconds"].get<double>();
  if (!(r.seconds >= 0)) throw InputError("negative solver seconds", where);
  r.why = j["why"].get<std::string>();
  if (r.answer == sat::Answer::Sat) {
    if (!j.contains("model") || !j["model"].is_string()) throw InputError("a SAT result wants its model", where);
    const std::string& m = j["model"].get_ref<const std::string&>();
    if (m.size() != static_cast<std::size_t>(num_vars) || m.find_first_not_of("01") != std::string::npos)
      throw InputError("the model is not one bit per variable of the miter (" + std::to_string(num_vars) + ")", where);
    r.model.assign(m.size() + 1, 0);
    for (std::size_t v = 0; v < m.size(); ++v) r.model[v + 1] = m[v] == '1';
  }
  return r;
}

inline json task_json(const Task& t) {
  return {{"id", t.id}, {"job", t.job}, {"cube", t.cube}, {"depth", t.depth}, {"split", t.may_split}, {"name", t.name}};
}
inline Task task_of(const std::string& s) {
  const json j = json::parse(s);
  Task t;
  t.id = j["id"].get<std::size_t>(), t.job = j["job"].get<std::size_t>();
  t.cube = j["cube"].get<std::vector<int>>();
  t.depth = j["depth"].get<unsigned>(), t.may_split = j["split"].get<bool>();
  t.name = j["name"].get<std::string>();
  return t;
}
inline json result_json(const TaskResult& r) {
  json j = {{"id", r.id}, {"job", r.job}, {"r", solve_json(r.r)}, {"r2", solve_json(r.r2)}, {"split", r.split}, {"cert", certify_counts_json(r.cert)}};
  if (r.has_proof) j["proof_bytes"] = r.drat.size();  // its kProof pieces came first
  return j;
}

// Rank 0's queue of tasks and what is known of every job (the coordinator; one thread uses it).
class Board {
 public:
  Board(const std::vector<SatJob>& jobs, const SatScheduleOptions& o, const std::vector<bool>& mine)
      : results(jobs.size()), jobs_(jobs), o_(o), st_(jobs.size()) {
    std::vector<std::size_t> order = o.order;
    if (order.empty())
      for (std::size_t k = 0; k < jobs.size(); ++k) order.push_back(k);
    for (std::size_t j : order) {
      if (!mine[j]) continue;
      Task t{next_id_++, j, {}, 0, false, jobs[j].what};
      st_[j].open = 1;
      if (o.plan) {  // check-proof: exactly the index's splits, no timer
        if (o.plan->splits.count({jobs[j].what, hash(j), {}})) split(t, /*front=*/false);
        else queue_.push_back(std::move(t));
        continue;
      }
      if (o.cube_after == 0 && !vars(j, 0).empty()) {  // split once before solving
        split(t, /*front=*/false);
        continue;
      }
      t.may_split = o.cube_after > 0 && !vars(j, 0).empty();
      queue_.push_back(std::move(t));
    }
  }

  // The next task worth running, or nullopt.
  std::optional<Task> take() {
    while (!queue_.empty()) {
      Task t = std::move(queue_.front());
      queue_.pop_front();
      if (!live(t.job)) continue;
      ++running_;
      return t;
    }
    return std::nullopt;
  }

  bool live(std::size_t job) const { return !aborted_ && job <= stop_above_ && !st_[job].closed; }
  bool done() const {
    if (running_) return false;
    for (const Task& t : queue_)
      if (live(t.job)) return false;
    return true;
  }
  // Every job stopped (external cancellation, an error): running tasks are cancelled.
  void abort() {
    aborted_ = true;
    ++epoch;
  }

  void report(const TaskResult& tr) {
    --running_;
    ++tasks;
    Job& js = st_[tr.job];
    SatJobResult& res = results[tr.job];
    res.solved = true;
    res.r.seconds += tr.r.seconds;
    res.r2.seconds += tr.r2.seconds;
    if (js.closed) return;
    const Task* t = nullptr;
    const auto it = inflight_.find(tr.id);
    if (it != inflight_.end()) t = &it->second;
    if (tr.split && t && t->may_split) {
      Task parent = *t;
      inflight_.erase(it);
      split(parent, /*front=*/true);
      return;
    }
    if (it != inflight_.end()) inflight_.erase(it);
    --js.open;
    const bool cube = js.cubes > 0;
    auto close = [&] {
      js.closed = true;
      res.cubes = js.cubes;
      // Only a failure can leave tasks to cancel (its other cubes, the jobs after it): then the
      // ranks are told; an UNSAT job has none left running.
      if (res.r.answer != sat::Answer::Unsat || (o_.second && res.r2.answer != sat::Answer::Unsat)) {
        ++epoch;
        if (o_.stop_after_failure) stop_above_ = std::min(stop_above_, tr.job);
      }
      if (cube && o_.log) o_.log->split.push_back({{"miter", jobs_[tr.job].what}, {"cubes", js.cubes}});
    };
    if (tr.r.answer != sat::Answer::Unsat) {
      const double s = res.r.seconds;
      res.r = tr.r;
      res.r.seconds = s;
      if (cube && tr.r.answer == sat::Answer::Unknown && tr.r.why != "cancelled") res.r.why += " (a cube)";
      return close();
    }
    if (o_.second && tr.r2.answer != sat::Answer::Unsat) {  // disagreement or no answer: this job's verdict
      res.r.answer = sat::Answer::Unsat;
      const double s2 = res.r2.seconds;
      res.r2 = tr.r2;
      res.r2.seconds = s2;
      return close();
    }
    if (js.open == 0) {  // every cube (or the whole miter) UNSAT
      res.r.answer = sat::Answer::Unsat;
      res.r.why.clear();
      if (o_.second) res.r2.answer = sat::Answer::Unsat;
      close();
    }
  }

  // Remembered so that a result can be split by what was handed out.
  void handed(const Task& t) { inflight_[t.id] = t; }
  const Task* task(std::size_t id) const {
    const auto it = inflight_.find(id);
    return it == inflight_.end() ? nullptr : &it->second;
  }

  std::size_t stop_above() const { return stop_above_; }
  std::vector<std::size_t> closed_jobs() const {
    std::vector<std::size_t> c;
    for (std::size_t j = 0; j < st_.size(); ++j)
      if (st_[j].closed) c.push_back(j);
    return c;
  }
  bool aborted() const { return aborted_; }

  std::vector<SatJobResult> results;
  std::size_t tasks = 0;
  std::size_t epoch = 0;  // bumped whenever jobs are closed or stopped (then ranks are told)

 private:
  struct Job {
    std::size_t open = 0;   // tasks of it not yet answered
    std::size_t cubes = 0;  // leaves of its cube tree (0: not split)
    bool closed = false;    // decided (or given up): its other tasks are cancelled
    std::optional<std::vector<int>> vars;
    std::string hash;  // of its CNF, once asked (the splits' record)
  };

  const std::string& hash(std::size_t j) {
    if (st_[j].hash.empty()) {
      char b[17];
      std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(sat::cnf_hash(*jobs_[j].cnf)));
      st_[j].hash = b;
    }
    return st_[j].hash;
  }

  // The variables of level `depth`'s split of job j (empty: no more to split on).
  std::vector<int> vars(std::size_t j, unsigned depth) {
    Job& js = st_[j];
    if (!js.vars) js.vars = sat::cube_variables(*jobs_[j].cnf, jobs_[j].cube_prefer);
    const std::size_t b = std::min<std::size_t>(o_.cube_bits, 20), lo = std::size_t{depth} * b;
    if (depth >= o_.cube_depth || lo + b > js.vars->size()) return {};
    return {js.vars->begin() + static_cast<long>(lo), js.vars->begin() + static_cast<long>(lo + b)};
  }

  // check-proof: the index's split of this task (its variables checked), or null.
  CubePlan::Split* planned(const Task& t) {
    const auto it = o_.plan->splits.find({jobs_[t.job].what, hash(t.job), t.cube});
    if (it == o_.plan->splits.end()) return nullptr;
    CubePlan::Split& sp = it->second;
    const int nv = jobs_[t.job].cnf->num_vars;
    std::vector<int> seen;
    for (int l : t.cube) seen.push_back(l < 0 ? -l : l);
    if (sp.vars.empty() || sp.vars.size() > 20) throw InputError("a split wants 1 to 20 variables", sp.where);
    for (int v : sp.vars) {
      if (v < 1 || v > nv) throw InputError("split variable " + std::to_string(v) + " is not a variable of the miter (1.." + std::to_string(nv) + ")", sp.where);
      if (std::find(seen.begin(), seen.end(), v) != seen.end()) throw InputError("split variable " + std::to_string(v) + " given twice or already in the cube", sp.where);
      seen.push_back(v);
    }
    sp.used = true;
    return &sp;
  }

  // parent replaced by its 2^k cubes, at the front (a task that ran past cube_after: its cubes
  // next) or the back of the queue; under a plan, each cube the index splits again is split here.
  void split(const Task& parent, bool front) {
    std::vector<Task> kids;
    split_into(parent, kids);
    if (front)
      queue_.insert(queue_.begin(), kids.begin(), kids.end());
    else
      queue_.insert(queue_.end(), kids.begin(), kids.end());
  }
  void split_into(const Task& parent, std::vector<Task>& out) {
    Job& js = st_[parent.job];
    CubePlan::Split* sp = o_.plan ? planned(parent) : nullptr;
    const std::vector<int> v = sp ? sp->vars : vars(parent.job, parent.depth);
    const std::vector<std::vector<int>> cubes = sat::split_cube(parent.cube, v);
    json names = json::array();
    std::vector<Task> kids;
    for (std::size_t b = 0; b < cubes.size(); ++b) {
      Task t{next_id_++, parent.job, cubes[b], parent.depth + 1, false,
             parent.name + " cube " + std::to_string(b) + " of " + std::to_string(cubes.size())};
      t.may_split = !o_.plan && o_.cube_after > 0 && !vars(parent.job, t.depth).empty();
      names.push_back(t.name);
      kids.push_back(std::move(t));
    }
    if (sp && names.get<std::vector<std::string>>() != sp->cubes)
      sp->bad = "it lists " + std::to_string(sp->cubes.size()) + " cubes, not the " + std::to_string(cubes.size()) +
                " its variables give (" + names.front().get<std::string>() + " ...)";
    if (o_.log)
      o_.log->splits.push_back({{"miter", jobs_[parent.job].what}, {"cnf_hash", hash(parent.job)}, {"cube", parent.cube}, {"vars", v}, {"cubes", names}});
    js.open += kids.size() - 1;
    js.cubes += kids.size() - (parent.depth == 0 ? 0 : 1);
    for (Task& k : kids) {
      if (o_.plan && o_.plan->splits.count({jobs_[k.job].what, hash(k.job), k.cube})) split_into(k, out);
      else out.push_back(std::move(k));
    }
  }

  const std::vector<SatJob>& jobs_;
  const SatScheduleOptions& o_;
  std::vector<Job> st_;
  std::deque<Task> queue_;
  std::map<std::size_t, Task> inflight_;
  std::size_t next_id_ = 0, running_ = 0, stop_above_ = SIZE_MAX;
  bool aborted_ = false;
};

}  // namespace cz::sched_board
