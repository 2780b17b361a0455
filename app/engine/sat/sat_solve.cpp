// The --method sat driver: miters from the problem's checker (split per group/family/whole,
// --sat-cubes), solved by CaDiCaL processes in parallel, SAT models decoded and confirmed by the
// exact evaluator / enumerating engine, UNSAT confirmed by a second solver on --confirm; the report.
#include "app/engine/sat/sat_problem.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "app/engine/sat/sat_progress.h"
#include "app/engine/sat/sat_schedule.h"
#include "circuits/io.h"
#include "circuits/sat/miter.h"
#include "circuits/sat/miter_circuit.h"
#include "circuits/sat/solve_hook.h"
#include "circuits/sat/solver.h"
#include "circuits/stats.h"
#include "exact/thread_caches.h"
#include "util/error.h"
#include "util/pending_files.h"
#include "util/progress.h"
#include "util/threads.h"

namespace cz {

namespace {

namespace sat = circuits::sat;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }


}  // namespace

SatOutcome solve_sat_problem(SatProblem& pr, const SatOptions& o, nlohmann::json head) {
  const auto t0 = Clock::now();
  const auto cadical = sat::find_solver("cadical");
  if (!cadical) throw InputError("--method sat needs the CaDiCaL solver on PATH (Debian: apt-get install cadical)", "--method sat");
  std::optional<sat::SolverSpec> second;
  if (o.confirm) {
    second = sat::find_solver("picosat");
    if (!second) second = sat::find_solver("minisat");
    if (!second) throw InputError("--confirm needs picosat or minisat on PATH (apt-get install picosat)", "--confirm");
  }
  std::vector<std::vector<std::size_t>> miters;
  std::vector<std::string> miter_names;
  const auto& ch = pr.checker;
  for (std::size_t g = 0; g < ch.groups.size(); ++g) {
    const std::string& name = o.split == "whole" ? std::string("all") : o.split == "family" ? ch.family[g] : ch.groups[g];
    auto it = std::find(miter_names.begin(), miter_names.end(), name);
    if (it == miter_names.end()) {
      miter_names.push_back(name);
      miters.emplace_back();
      it = miter_names.end() - 1;
    }
    miters[static_cast<std::size_t>(it - miter_names.begin())].push_back(g);
  }
  // Miters are built here (cheap: milliseconds) and solved by `workers` solver processes at once.
  // The verdict is that of the lowest miter that is not UNSAT, so it is the same for any number of
  // workers: a SAT or undecided miter cancels only the miters after it.
  struct Slot {
    std::optional<sat::Miter> miter;
    nlohmann::json run;
    sat::SolveResult r, r2;
    bool solved = false;
    std::string proof;
    std::optional<std::size_t> proof_file;  // its pending file in `outputs`
    std::atomic<bool> cancel{false};  // set when a lower miter decided the verdict
  };
  double encode_s = 0;
  // --sat-cubes: a family's miter becomes one miter per case of the checker (case k = 1) and one
  // with no case; together they cover every input, so all UNSAT proves the family.
  std::vector<std::vector<std::pair<std::size_t, bool>>> fixes(miters.size());
  if (o.cubes) {
    std::vector<std::vector<std::size_t>> m2;
    std::vector<std::string> n2;
    std::vector<std::vector<std::pair<std::size_t, bool>>> f2;
    for (std::size_t mi = 0; mi < miters.size(); ++mi) {
      std::vector<std::size_t> cs;
      for (const auto& c : ch.cases)
        if (c.family == miter_names[mi] || miter_names[mi] == "all") cs.push_back(c.output);
      if (cs.empty() || o.split == "cell") {  // cells: cubes of a family would repeat per cell
        m2.push_back(miters[mi]), n2.push_back(miter_names[mi]), f2.emplace_back();
        continue;
      }
      for (std::size_t k = 0; k < cs.size(); ++k) {
        m2.push_back(miters[mi]);
        n2.push_back(miter_names[mi] + " | " + ch.circuit.outputs()[cs[k]].name.substr(5));
        f2.push_back({{cs[k], true}});
      }
      m2.push_back(miters[mi]);
      n2.push_back(miter_names[mi] + " | no case");
      f2.emplace_back();
      for (std::size_t c : cs) f2.back().push_back({c, false});
    }
    miters = std::move(m2), miter_names = std::move(n2), fixes = std::move(f2);
  }
  std::vector<Slot> slots(miters.size());
  // --proof and --sat-cnf files (issue 36): written to temporary files next to their targets while
  // the run goes on, renamed into place only at its end (proofs only when it proved), removed on
  // any error or signal. So no old proof is replaced by a refuted, undecided or failed run, two
  // runs on one --proof leave one run's whole file, and a full disk is an error, not "proved".
  PendingFiles outputs;
  SatProgress prog(o.progress, miters.size());  // stderr, on a terminal only (sat_progress.h)
  std::vector<std::size_t> proved;  // --sat-lemmas: groups proved so far (then one worker, in order)
  // A watched run (Python: Ctrl-C, progress=) is cancelled between miters while they are built,
  // and during solving by a watcher thread that kills the solver processes (solver.h `cancel`);
  // a cancelled run throws Cancelled, never a verdict.
  WorkWatch* const watch = current_watch();
  auto build = [&](std::size_t mi) {
    check_cancelled();
    const auto te = Clock::now();
    Slot& sl = slots[mi];
    sl.miter.emplace(sat::build_miter(*pr.artifact, pr.checker, miters[mi], "--method sat",
                                      o.lemmas ? proved : std::vector<std::size_t>{}, fixes[mi]));
    encode_s += since(te);
    const sat::Miter& m = *sl.miter;
    sl.run = {{"group", miter_names[mi]}, {"vars", m.cnf.num_vars}, {"clauses", m.cnf.num_clauses},
              {"artifact_gates", m.artifact_gates}, {"checker_gates", m.checker_gates}};
    if (!o.proof.empty()) {
      sl.proof = miters.size() == 1 ? o.proof : o.proof + "." + std::to_string(mi);
      sl.proof_file = outputs.add(sl.proof, "--proof");
    }
    if (!o.cnf_dir.empty()) {
      const std::string base = o.cnf_dir + "/miter-" + std::to_string(mi);
      std::ostringstream dimacs;
      m.cnf.write_dimacs(dimacs);
      const std::string text = dimacs.str();
      const std::size_t f = outputs.add(base + ".cnf", "--sat-cnf");
      outputs.write(f, text.data(), text.size());
      const std::string aig =
          circuits::write_aiger_binary(sat::miter_circuit(*pr.artifact, pr.checker, miters[mi], "--sat-cnf", fixes[mi]));
      const std::size_t a = outputs.add(base + ".aig", "--sat-cnf");
      outputs.write(a, aig.data(), aig.size());
    }
  };
  if (!o.lemmas)
    for (std::size_t mi = 0; mi < miters.size(); ++mi) build(mi);
  prog.phase("solving");
  std::atomic<std::size_t> next{0}, stop_above{miters.size()};  // miters >= stop_above are not needed
  std::mutex mu;
  std::exception_ptr error;
  auto solve_one = [&](std::size_t mi) {
    Slot& sl = slots[mi];
    const sat::Miter& m = *sl.miter;
    const double left = o.timeout_s - since(t0);
    if (left <= 0) {
      sl.r.why = "time limit";
    } else {
      prog.started(mi, miter_names[mi]);
      const sat::ProofSink sink = [&](const char* d, std::size_t n) { outputs.write(*sl.proof_file, d, n); };
      const sat::MiterLabel label(miter_names[mi]);  // names the miter in --proof DIR's index (issue 38)
      sl.r = sat::solve(*cadical, m.cnf, left, sl.proof_file ? &sink : nullptr, &sl.cancel);
      if (sl.r.answer == sat::Answer::Unsat && second) {
        prog.confirming(mi);
        // The time left, fractions too: a floor of 1 s made --timeout 0.3 wait 1.2 s (issue 36 item 19).
        sl.r2 = sat::solve(*second, m.cnf, o.timeout_s - since(t0), nullptr, &sl.cancel);
      }
      prog.finished(mi);
    }
    sl.solved = true;
    const bool final_unsat = sl.r.answer == sat::Answer::Unsat && (!second || sl.r2.answer != sat::Answer::Unknown);
    if (!final_unsat && sl.r.why != "cancelled" && sl.r2.why != "cancelled") {
      std::size_t cur = stop_above.load();
      while (mi < cur && !stop_above.compare_exchange_weak(cur, mi)) {
      }
      for (std::size_t k = mi + 1; k < slots.size(); ++k) slots[k].cancel = true;
    }
  };
  const unsigned workers = o.lemmas ? 1u : std::max(1u, std::min<unsigned>(resolve_threads(o.threads),
                                                                           static_cast<unsigned>(miters.size())));
  // --sat-order largest: largest miter first (by clauses, the cone's size), so that the longest
  // solve is not the last to start. Measured (mqar/dyadic n=8 c=16, 2 workers): no gain on the
  // proof (33.2-35.7 s against 33.9-34.5 s in order, load ~19), and refutations get slower (the
  // large upper-query miters run before the low failing one: 0.17-0.6 s -> 0.34-1.5 s; with one
  // worker far more), so index order is the default. --sat-lemmas always keeps index order (each
  // miter assumes the ones before it). The verdict does not depend on the order (see above).
  std::vector<std::size_t> order(miters.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  if (!o.lemmas && o.order == "largest")
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return slots[a].miter->cnf.num_clauses > slots[b].miter->cnf.num_clauses; });
  // Under mpirun, with cubes, in a shard or a merge (issue 38): the miters go to the scheduler
  // (sat_schedule.h), with the same meaning as the loop below; the report is the same.
  if (sat_scheduled(o)) {
    if (o.lemmas || !o.proof.empty() || !o.cnf_dir.empty())
      throw InputError("--sat-lemmas, --proof and --sat-cnf run in one process without cubes (not under mpirun, --shard or --sat-cube-after)",
                       "--method sat");
    SatScheduleOptions so = sat_schedule_options(o);
    so.solver = &*cadical;
    so.second = second ? &*second : nullptr;
    so.timeout_s = o.timeout_s - since(t0);
    so.cancel = watch ? &watch->cancelled : nullptr;
    so.order = order;
    so.started = [&](std::size_t mi) { prog.started(mi, miter_names[mi]); };
    so.finished = [&](std::size_t mi) { prog.finished(mi); };
    std::vector<SatJob> jobs;
    for (std::size_t mi = 0; mi < slots.size(); ++mi) jobs.push_back({&slots[mi].miter->cnf, miter_names[mi], slots[mi].miter->task_vars});
    const std::vector<SatJobResult> res = schedule_sat(jobs, so);
    if (so.cancel && so.cancel->load()) throw Cancelled();
    for (std::size_t mi = 0; mi < slots.size(); ++mi) {
      slots[mi].r = res[mi].r, slots[mi].r2 = res[mi].r2, slots[mi].solved = res[mi].solved;
      if (res[mi].cubes) slots[mi].run["cubes"] = res[mi].cubes;
    }
  } else {
  auto work = [&] {
    try {
      for (;;) {
        const std::size_t t = next.fetch_add(1);
        if (t >= order.size()) return;
        const std::size_t mi = order[t];
        if (mi > stop_above.load()) {
          if (o.lemmas) return;
          continue;
        }
        if (o.lemmas) build(mi);
        solve_one(mi);
        if (o.lemmas && slots[mi].r.answer == sat::Answer::Unsat && fixes[mi].empty())
          proved.insert(proved.end(), miters[mi].begin(), miters[mi].end());
      }
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu);
      if (!error) error = std::current_exception();
      stop_above = 0;
      for (auto& sl : slots) sl.cancel = true;
    }
  };
  std::vector<std::thread> pool;
  std::atomic<bool> finished{false}, cancelled{false};
  std::thread watcher;
  if (watch)
    watcher = std::thread([&] {
      while (!finished.load()) {
        if (watch->cancelled.load()) {
          cancelled = true;
          stop_above = 0;
          for (auto& sl : slots) sl.cancel = true;
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
  for (unsigned w = 1; w < workers; ++w)
    pool.emplace_back([&] {
      work();
      release_thread_caches();  // FLINT's per-thread caches (--sat-lemmas builds miters here)
    });
  work();
  for (auto& t : pool) t.join();
  finished = true;
  if (watcher.joinable()) watcher.join();
  if (error) std::rethrow_exception(error);
  if (cancelled) throw Cancelled();
  }  // the one-process loop

  SatOutcome out;
  out.verdict = "proved";
  nlohmann::json runs = nlohmann::json::array();
  std::size_t vars = 0, clauses = 0, max_vars = 0, max_clauses = 0;
  double solve_s = 0;
  std::vector<std::string> proofs;
  std::string undecided_why;
  for (std::size_t mi = 0; mi < miters.size() && out.verdict == "proved"; ++mi) {
    Slot& sl = slots[mi];
    if (!sl.solved) {  // only after a lower miter decided the verdict
      out.verdict = "undecided";
      undecided_why = "miter " + miter_names[mi] + " not run";
      break;
    }
    const sat::Miter& m = *sl.miter;
    nlohmann::json& run = sl.run;
    vars += static_cast<std::size_t>(m.cnf.num_vars);
    clauses += m.cnf.num_clauses;
    max_vars = std::max<std::size_t>(max_vars, static_cast<std::size_t>(m.cnf.num_vars));
    max_clauses = std::max(max_clauses, m.cnf.num_clauses);
    solve_s += sl.r.seconds + sl.r2.seconds;
    run["answer"] = sat::to_string(sl.r.answer);
    run["seconds"] = sl.r.seconds;
    if (sl.r.answer == sat::Answer::Unknown) {
      out.verdict = "undecided";
      undecided_why = "cadical: " + sl.r.why + " on " + miter_names[mi];
    } else if (sl.r.answer == sat::Answer::Sat) {
      const std::vector<int> bits = sat::task_inputs_of(m, sl.r.model);
      std::optional<Failure> f = pr.confirm(bits);
      if (!f)
        throw std::runtime_error("the SAT model of miter " + miter_names[mi] +
                                 " is an instance the enumerating engine finds correct (a bug of --method sat)");
      out.counterexample = f;
      out.verdict = "refuted";
      run["confirmed_by_engine"] = true;
    } else {
      if (!sl.proof.empty()) proofs.push_back(sl.proof);
      if (second) {
        run["confirm"] = {{"solver", second->name}, {"answer", sat::to_string(sl.r2.answer)}, {"seconds", sl.r2.seconds}};
        if (sl.r2.answer == sat::Answer::Sat)
          throw std::runtime_error("cadical says UNSAT and " + second->name + " SAT on miter " + miter_names[mi] +
                                   " (solvers disagree)");
        if (sl.r2.answer == sat::Answer::Unknown) {
          out.verdict = "undecided";
          undecided_why = second->name + " (--confirm): " + sl.r2.why + " on " + miter_names[mi];
        }
      }
    }
    runs.push_back(run);
  }
  out.exit_code = out.verdict == "proved" ? 0 : out.verdict == "refuted" ? 1 : 4;
  // Proofs only of a proved run; then every output into place (an fsync error: exit 2, no verdict).
  if (out.verdict != "proved") {
    for (const Slot& sl : slots)
      if (sl.proof_file) outputs.drop(*sl.proof_file);
    proofs.clear();  // the report lists only files that exist
  }
  outputs.commit();
  nlohmann::json& j = head;
  j["method"] = "sat";
  j["verdict"] = out.verdict;
  j["domain"] = "exhaustive";
  j["domain_description"] = pr.domain_text;
  // What the verdict covers: proved = every instance of the domain; refuted = at least one fails.
  j["instances"] = sat_count_json(pr.instances);
  j["counterexample"] = nullptr;  // the CLI writes the Failure as every verify report does (app/report)
  j["sat"] = {{"solver", "cadical"},
              {"confirm_solver", second ? nlohmann::json(second->name) : nlohmann::json(nullptr)},
              {"split", o.split},
              {"lemmas", o.lemmas},
              {"cubes", o.cubes},
              {"miters", miters.size()},
              {"miters_run", runs.size()},
              {"cnf", {{"vars", vars}, {"clauses", clauses}, {"max_vars", max_vars}, {"max_clauses", max_clauses}}},
              {"runs", runs},
              {"proofs", proofs}};
  if (!undecided_why.empty()) j["sat"]["undecided"] = undecided_why;
  j["notes"] = pr.notes;
  out.seconds = since(t0);
  out.timing = {{"encode_seconds", encode_s}, {"solve_seconds", solve_s}};
  out.report = j;
  return out;
}

}  // namespace cz
