#include "app/engine/sat_schedule.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "app/engine/cluster.h"
#include "app/engine/sat_certify_counts.h"
#include "circuits/sat/cube.h"
#include "circuits/sat/solve_hook.h"
#include "util/error.h"
#include "util/threads.h"

namespace cz {

namespace {

namespace sat = circuits::sat;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Message tags between ranks (Cluster::send): a rank's request for n tasks, a task, its result,
// the cancelled jobs, the end of the call; a piece of a task's DRAT proof (--proof DIR: rank 0
// writes the directory), sent before the task's result.
enum Tag { kRequest = 40, kTask = 41, kResult = 42, kStop = 43, kDone = 44, kProof = 45 };
constexpr std::size_t kProofChunk = std::size_t{8} << 20;

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

json solve_json(const sat::SolveResult& r) {
  json j = {{"answer", sat::to_string(r.answer)}, {"seconds", r.seconds}, {"why", r.why}};
  if (r.answer == sat::Answer::Sat) {
    std::string m;
    for (std::size_t v = 1; v < r.model.size(); ++v) m.push_back(r.model[v] ? '1' : '0');
    j["model"] = m;
  }
  return j;
}

sat::SolveResult solve_of(const json& j, const std::string& where, int num_vars) {
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

json task_json(const Task& t) {
  return {{"id", t.id}, {"job", t.job}, {"cube", t.cube}, {"depth", t.depth}, {"split", t.may_split}, {"name", t.name}};
}
Task task_of(const std::string& s) {
  const json j = json::parse(s);
  Task t;
  t.id = j["id"].get<std::size_t>(), t.job = j["job"].get<std::size_t>();
  t.cube = j["cube"].get<std::vector<int>>();
  t.depth = j["depth"].get<unsigned>(), t.may_split = j["split"].get<bool>();
  t.name = j["name"].get<std::string>();
  return t;
}
json result_json(const TaskResult& r) {
  json j = {{"id", r.id}, {"job", r.job}, {"r", solve_json(r.r)}, {"r2", solve_json(r.r2)}, {"split", r.split}, {"cert", certify_counts_json(r.cert)}};
  if (r.has_proof) j["proof_bytes"] = r.drat.size();  // its kProof pieces came first
  return j;
}

// Rank 0's queue of tasks and what is known of every job (the coordinator; one thread uses it).
class Board {
 public:
  Board(const std::vector<SatJob>& jobs, const SatScheduleOptions& o, const std::vector<bool>& mine)
      : jobs_(jobs), o_(o), st_(jobs.size()), results(jobs.size()) {
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

// This rank's solver threads: tasks in, results out.
class Pool {
 public:
  Pool(const std::vector<SatJob>& jobs, const SatScheduleOptions& o, Clock::time_point t0, unsigned threads)
      : jobs_(jobs), o_(o), t0_(t0), closed_(jobs.size(), 0), idle_(threads) {
    for (unsigned k = 0; k < threads; ++k) threads_.emplace_back([this] { work(); });
  }
  ~Pool() { close(); }

  void close() {
    {
      std::lock_guard<std::mutex> lk(mu);
      closing_ = true;
      for (auto& [id, r] : running_) *r.second = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

  // Under mu: hand tasks to idle threads.
  std::size_t free_slots() const { return idle_ > inbox_.size() ? idle_ - inbox_.size() : 0; }
  void push(Task t) {
    inbox_.push_back(std::move(t));
    cv_.notify_one();
  }
  std::vector<TaskResult> drain() {
    std::vector<TaskResult> out;
    out.swap(outbox_);
    return out;
  }
  // Under mu: jobs above `stop_above` and closed jobs are cancelled (everything when all).
  void stop(std::size_t stop_above, const std::vector<std::size_t>& closed, bool all) {
    stop_above_ = stop_above;
    all_ = all_ || all;
    for (std::size_t j : closed) closed_[j] = 1;
    for (auto& [id, r] : running_)
      if (dead(r.first)) *r.second = true;
  }
  std::exception_ptr error;
  std::mutex mu;

 private:
  bool dead(std::size_t job) const { return closing_ || all_ || job > stop_above_ || closed_[job]; }

  void work() {
    for (;;) {
      Task t;
      std::atomic<bool> flag{false};
      {
        std::unique_lock<std::mutex> lk(mu);
        cv_.wait(lk, [&] { return closing_ || !inbox_.empty(); });
        if (inbox_.empty()) return;
        t = std::move(inbox_.front());
        inbox_.pop_front();
        --idle_;
        if (dead(t.job)) flag = true;
        running_[t.id] = {t.job, &flag};
      }
      TaskResult tr;
      tr.id = t.id, tr.job = t.job;
      try {
        run(t, flag, tr);
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu);
        if (!error) error = std::current_exception();
        tr.r = sat::SolveResult{sat::Answer::Unknown, {}, 0, "cancelled"};
        tr.split = false;
      }
      std::lock_guard<std::mutex> lk(mu);
      running_.erase(t.id);
      ++idle_;
      outbox_.push_back(std::move(tr));
    }
  }

  void run(const Task& t, std::atomic<bool>& flag, TaskResult& tr) {
    if (flag) {
      tr.r.why = "cancelled";
      return;
    }
    const SatJob& job = jobs_[t.job];
    const double left = o_.timeout_s - since(t0_);
    if (left <= 0) {
      tr.r.why = "time limit";
      return;
    }
    const bool whole = t.cube.empty();
    if (whole && o_.started) o_.started(t.job);
    std::optional<sat::Cnf> cube;
    if (!whole) cube = sat::with_cube(*job.cnf, t.cube);
    const sat::Cnf& cnf = whole ? *job.cnf : *cube;
    const double limit = t.may_split ? std::min(left, o_.cube_after) : left;
    const sat::ProofSink* sink = whole && o_.proof ? o_.proof(t.job) : nullptr;
    // The certificate hook (circuits/sat/solve_hook.h) sees this solve under the task's name, and
    // a cube as a cube of its miter; its --certify checks run in this thread and are counted here.
    const sat::MiterLabel label(t.name);
    const sat::CubeOf of{job.what, t.cube};
    const sat::CubeLabel cube_label(whole ? nullptr : &of);
    const CertifyCounts before = thread_certify_counts();
    sat::ForwardSlot& slot = sat::forward_slot();
    slot = sat::ForwardSlot{true, false, {}};
    struct Counted {  // also when solve() throws (a proof that does not check)
      TaskResult& tr;
      const CertifyCounts& before;
      sat::ForwardSlot& slot;
      ~Counted() {
        tr.cert = thread_certify_counts() - before;
        if (slot.has) tr.has_proof = true, tr.drat = std::move(slot.drat);
        slot = sat::ForwardSlot{};
      }
    } counted{tr, before, slot};
    tr.r = sat::solve(*o_.solver, cnf, limit, sink, &flag);
    if (t.may_split && tr.r.answer == sat::Answer::Unknown && !flag && limit < left) tr.split = true;
    if (tr.r.answer == sat::Answer::Unsat && o_.second)
      tr.r2 = sat::solve(*o_.second, cnf, o_.timeout_s - since(t0_), nullptr, &flag);
    if (whole && o_.finished) o_.finished(t.job);
  }

  const std::vector<SatJob>& jobs_;
  const SatScheduleOptions& o_;
  const Clock::time_point t0_;
  std::condition_variable cv_;
  std::deque<Task> inbox_;
  std::vector<TaskResult> outbox_;
  std::map<std::size_t, std::pair<std::size_t, std::atomic<bool>*>> running_;
  std::vector<char> closed_;
  std::size_t stop_above_ = SIZE_MAX;
  bool all_ = false, closing_ = false;
  unsigned idle_;
  std::vector<std::thread> threads_;
};

void wait_a_little() { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }

// A rank's solver threads failed (a broken solver, a full TMPDIR): under mpirun every rank is
// ended (never a partial verdict), as any error of a rank is (app/cli/main.cpp).
[[noreturn]] void abort_ranks(std::exception_ptr e) {
  int code = 3;
  try {
    std::rethrow_exception(e);
  } catch (const InputError& x) {
    std::cerr << "error: rank " << Cluster::rank() << ": " << x.what() << "\n";
    code = 2;
  } catch (const std::exception& x) {
    std::cerr << "error: rank " << Cluster::rank() << ": " << x.what() << " (internal)\n";
  }
  Cluster::abort(code);
}

// Rank 0: a task another rank solved handed to the certificate hook (--proof DIR: the answer, its
// CNF made again here, and the DRAT proof that came in kProof pieces before the result).
void adopt(const std::vector<SatJob>& jobs, const SatScheduleOptions& o, const Task* t, const TaskResult& tr, const json& j, std::string& proof) {
  std::string drat;
  drat.swap(proof);
  const bool has = j.contains("proof_bytes");
  if (has && j["proof_bytes"].get<std::size_t>() != drat.size()) throw std::logic_error("a rank's proof pieces do not add up to its size");
  sat::SolveHook* const hook = sat::solve_hook();
  if (!hook || !t || tr.r.answer == sat::Answer::Unknown || (tr.r.answer == sat::Answer::Unsat && !has)) return;
  const SatJob& job = jobs[t->job];
  const sat::CubeOf of{job.what, t->cube};
  if (t->cube.empty()) hook->adopt(*o.solver, *job.cnf, tr.r, std::move(drat), t->name, nullptr);
  else hook->adopt(*o.solver, sat::with_cube(*job.cnf, t->cube), tr.r, std::move(drat), t->name, &of);
}

// Rank 0 (or the one process): the board, its own threads and the other ranks' requests.
std::vector<SatJobResult> coordinate(const std::vector<SatJob>& jobs, const SatScheduleOptions& o, const std::vector<bool>& mine,
                                     Clock::time_point t0, unsigned threads) {
  const bool mpi = Cluster::active() && Cluster::size() > 1;
  Board board(jobs, o, mine);
  Pool pool(jobs, o, t0, threads);
  std::vector<std::size_t> want(static_cast<std::size_t>(Cluster::size()), 0);
  std::vector<std::string> proofs(static_cast<std::size_t>(Cluster::size()));  // kProof pieces so far, per rank
  std::size_t told = 0;  // the board's epoch last sent to the ranks
  std::exception_ptr error;
  for (;;) {
    {
      std::lock_guard<std::mutex> lk(pool.mu);
      if (pool.error && !error) {
        error = pool.error;
        if (mpi) abort_ranks(error);
        board.abort();
      }
      if (o.cancel && o.cancel->load() && !board.aborted()) board.abort();
      for (const TaskResult& tr : pool.drain()) board.report(tr);
      pool.stop(board.stop_above(), board.closed_jobs(), board.aborted());
      while (pool.free_slots() > 0) {
        std::optional<Task> t = board.take();
        if (!t) break;
        board.handed(*t);
        pool.push(std::move(*t));
      }
    }
    if (mpi) {
      int from = 0, tag = 0;
      std::string msg;
      while (Cluster::poll(from, tag, msg)) {
        if (tag == kRequest) want[static_cast<std::size_t>(from)] += std::stoul(msg);
        else if (tag == kProof) proofs[static_cast<std::size_t>(from)] += msg;
        else if (tag == kResult) {
          const json j = json::parse(msg);
          TaskResult tr;
          tr.id = j["id"].get<std::size_t>(), tr.job = j["job"].get<std::size_t>();
          const int nv = jobs[tr.job].cnf->num_vars;
          tr.r = solve_of(j["r"], "rank " + std::to_string(from), nv);
          tr.r2 = solve_of(j["r2"], "rank " + std::to_string(from), nv);
          tr.split = j["split"].get<bool>();
          add_remote_certify_counts(certify_counts_of(j["cert"], "rank " + std::to_string(from)));  // rank 0's report counts them
          adopt(jobs, o, board.task(tr.id), tr, j, proofs[static_cast<std::size_t>(from)]);
          board.report(tr);
        }
      }
      if (board.epoch != told) {
        told = board.epoch;
        const std::string s = json{{"stop_above", board.stop_above()}, {"closed", board.closed_jobs()}, {"all", board.aborted()}}.dump();
        for (int r = 1; r < Cluster::size(); ++r) Cluster::send(r, kStop, s);
      }
      for (int r = 1; r < Cluster::size(); ++r)
        while (want[static_cast<std::size_t>(r)] > 0) {
          std::optional<Task> t = board.take();
          if (!t) break;
          board.handed(*t);
          Cluster::send(r, kTask, task_json(*t).dump());
          --want[static_cast<std::size_t>(r)];
        }
    }
    if (board.done()) break;
    wait_a_little();
  }
  pool.close();
  if (mpi)
    for (int r = 1; r < Cluster::size(); ++r) Cluster::send(r, kDone, "");
  if (error) std::rethrow_exception(error);
  if (o.log) o.log->tasks += board.tasks;
  return board.results;
}

// Ranks 1..K-1: ask rank 0 for tasks while a thread is idle, send back results, until done.
void serve(const std::vector<SatJob>& jobs, const SatScheduleOptions& o, Clock::time_point t0, unsigned threads) {
  Pool pool(jobs, o, t0, threads);
  std::size_t asked = 0;
  for (bool done = false; !done;) {
    std::vector<TaskResult> out;
    std::size_t ask = 0;
    {
      std::lock_guard<std::mutex> lk(pool.mu);
      if (pool.error) abort_ranks(pool.error);
      out = pool.drain();
      const std::size_t free = pool.free_slots();
      if (free > asked) ask = free - asked, asked = free;
    }
    for (const TaskResult& tr : out) {
      for (std::size_t at = 0; tr.has_proof && at < tr.drat.size(); at += kProofChunk)  // pieces: MPI counts are ints
        Cluster::send(0, kProof, tr.drat.substr(at, kProofChunk));
      Cluster::send(0, kResult, result_json(tr).dump());
    }
    if (ask) Cluster::send(0, kRequest, std::to_string(ask));
    int from = 0, tag = 0;
    std::string msg;
    while (!done && Cluster::poll(from, tag, msg)) {
      std::lock_guard<std::mutex> lk(pool.mu);
      if (tag == kTask) {
        pool.push(task_of(msg));
        --asked;
      } else if (tag == kStop) {
        const json j = json::parse(msg);
        pool.stop(j["stop_above"].get<std::size_t>(), j["closed"].get<std::vector<std::size_t>>(), j["all"].get<bool>());
      } else if (tag == kDone) {
        done = true;
      }
    }
    if (!done) wait_a_little();
  }
  pool.close();
}

}  // namespace

json sat_job_result_json(const SatJobResult& r) {
  return {{"r", solve_json(r.r)}, {"r2", solve_json(r.r2)}, {"solved", r.solved}, {"cubes", r.cubes}};
}

SatJobResult sat_job_result_of(const json& j, const std::string& where, int num_vars) {
  if (!j.is_object() || !j.contains("r") || !j.contains("r2") || !j.contains("solved") || !j["solved"].is_boolean() ||
      !j.contains("cubes") || !j["cubes"].is_number_unsigned())
    throw InputError("a miter result wants r, r2, solved and cubes", where);
  SatJobResult r;
  r.r = solve_of(j["r"], where, num_vars);
  r.r2 = solve_of(j["r2"], where, num_vars);
  r.solved = j["solved"].get<bool>();
  r.cubes = j["cubes"].get<std::size_t>();
  return r;
}

std::vector<bool> shard_jobs(const std::vector<SatJob>& jobs, const ShardSpec& s) {
  std::vector<std::size_t> by(jobs.size());
  for (std::size_t k = 0; k < by.size(); ++k) by[k] = k;
  std::stable_sort(by.begin(), by.end(), [&](std::size_t a, std::size_t b) { return jobs[a].cnf->num_clauses > jobs[b].cnf->num_clauses; });
  // Only the lightest shard matters: a heap would do for huge K, but K <= the number of miters here.
  const std::size_t K = static_cast<std::size_t>(std::min<std::uint64_t>(s.count, std::max<std::size_t>(jobs.size(), 1)));
  std::vector<std::size_t> load(K, 0);
  std::vector<bool> mine(jobs.size(), false);
  for (std::size_t j : by) {
    const std::size_t k = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[k] += jobs[j].cnf->num_clauses + 1;
    mine[j] = k == s.index;
  }
  return mine;
}

std::vector<SatJobResult> schedule_sat(const std::vector<SatJob>& jobs, const SatScheduleOptions& o) {
  const auto t0 = Clock::now();
  std::vector<std::uint64_t> hashes;
  if (o.parts)
    for (const SatJob& j : jobs) hashes.push_back(sat::cnf_hash(*j.cnf));
  if (o.parts && o.parts->replay) {  // merge: every result from the parts, nothing solved
    std::vector<SatJobResult> res(jobs.size());
    for (auto& r : res) r.r.why = "not run (no shard's part ran it: a shard's own fallback; run without --shard)";
    const std::size_t c = o.parts->next++, K = o.parts->shards.size();
    for (std::size_t i = 0; i < K; ++i) {
      const std::vector<SatParts::Call>& calls = o.parts->shards[i];
      if (c >= calls.size()) continue;  // that shard stopped before this call (its own miters decided it)
      const SatParts::Call& call = calls[c];
      const std::string where = "merge: shard " + std::to_string(i) + "/" + std::to_string(K);
      if (call.hashes != hashes)
        throw InputError("its miters are not this build's miters (another build, construction or options)", where);
      const std::vector<bool> mine = shard_jobs(jobs, ShardSpec{i, K});
      for (std::size_t k = 0; k < jobs.size(); ++k) {
        if (call.results.size() != jobs.size() || call.results[k].has_value() != mine[k])
          throw InputError("it holds the results of other miters than shard " + std::to_string(i) + "'s", where);
        if (!mine[k]) continue;
        res[k] = sat_job_result_of(*call.results[k], where + ", miter " + jobs[k].what, jobs[k].cnf->num_vars);
        if (res[k].cubes && o.log) o.log->split.push_back({{"miter", jobs[k].what}, {"cubes", res[k].cubes}});
      }
    }
    return res;
  }
  std::vector<bool> mine(jobs.size(), true);
  if (o.parts && o.parts->shard) mine = shard_jobs(jobs, *o.parts->shard);
  const bool mpi = Cluster::active() && Cluster::size() > 1 && !(o.parts && o.parts->shard);
  if (o.log) o.log->ranks = mpi ? Cluster::size() : 1;
  const unsigned threads = std::max(1u, o.threads);
  std::vector<SatJobResult> res;
  if (!mpi || Cluster::rank() == 0) res = coordinate(jobs, o, mine, t0, threads);
  else serve(jobs, o, t0, threads);
  if (mpi) {  // every rank goes on with every result
    json all = json::array();
    if (Cluster::rank() == 0)
      for (const SatJobResult& r : res) all.push_back(sat_job_result_json(r));
    json msg = {{"results", all}, {"split", o.log ? o.log->split : json::array()}, {"tasks", o.log ? o.log->tasks : 0}};
    msg = json::parse(Cluster::broadcast(Cluster::rank() == 0 ? msg.dump() : std::string()));
    if (Cluster::rank() != 0) {
      for (std::size_t k = 0; k < jobs.size(); ++k)
        res.push_back(sat_job_result_of(msg["results"][k], "rank 0", jobs[k].cnf->num_vars));
      if (o.log) o.log->split = msg["split"], o.log->tasks = msg["tasks"].get<std::size_t>();
    }
  }
  for (std::size_t k = 0; k < jobs.size(); ++k)
    if (!mine[k]) {  // another shard's: UNSAT here, its part says what it is (merge)
      res[k].r = sat::SolveResult{sat::Answer::Unsat, {}, 0, ""};
      if (o.second) res[k].r2 = res[k].r;
      res[k].solved = true;
      res[k].here = false;
    }
  if (o.parts) {
    SatParts::Call c;
    c.hashes = hashes;
    for (std::size_t k = 0; k < jobs.size(); ++k)
      c.results.push_back(mine[k] ? std::optional<json>(sat_job_result_json(res[k])) : std::nullopt);
    o.parts->calls.push_back(std::move(c));
  }
  return res;
}

}  // namespace cz
