#include "app/engine/sat/sat_schedule.h"

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

#include "app/engine/run/cluster.h"
#include "app/engine/sat/sat_certify_counts.h"
#include "app/engine/sat/sat_schedule_board.h"
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

// The queue's side (sat_schedule_board.h).
using sched_board::Board;
using sched_board::result_json;
using sched_board::solve_json;
using sched_board::solve_of;
using sched_board::Task;
using sched_board::task_json;
using sched_board::task_of;
using sched_board::TaskResult;


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

  // Under mu: hand tasks to idle threads, and `ahead` more to wait in the inbox (a remote rank
  // keeps one task per thread in hand, so its threads never wait for a round trip to rank 0).
  std::size_t free_slots(std::size_t ahead = 0) const { return idle_ + ahead > inbox_.size() ? idle_ + ahead - inbox_.size() : 0; }
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
      // Tasks are short (mqar/dyadic n = 64 by pbs calls: 696 of ~0.1 s), so waiting for each
      // one's request, reply and two 2 ms polls cost 2 ranks 1.8x -> 1.45x; one in hand per thread.
      const std::size_t free = pool.free_slots(threads);
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
