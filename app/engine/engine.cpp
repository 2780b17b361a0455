#include "app/engine/engine.h"

#include "app/engine/run/device_path.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <system_error>
#include <thread>

#include "app/engine/run/checkpoint.h"
#include "app/engine/run/device_path.h"
#include "app/engine/run/cluster.h"
#include "app/engine/run/run_identity.h"
#include "exact/thread_caches.h"
#include "util/error.h"
#include "util/progress.h"

namespace cz {

bool Report::binding_claim_failed() const {
  for (const auto& c : claims)
    if (c.binding && c.holds && !*c.holds) return true;
  return false;
}

namespace {
// The default BlockSource: an atomic counter over [lo, hi).
class LocalBlocks final : public BlockSource {
 public:
  LocalBlocks(std::uint64_t lo, std::uint64_t hi, std::uint64_t B) : next_(lo), hi_(hi), B_(B) {}
  bool next(std::uint64_t& lo, std::uint64_t& n) override {
    lo = next_.fetch_add(B_);
    if (lo >= hi_) return false;
    n = std::min(hi_ - lo, B_);
    return true;
  }
  void stop() override { next_.store(hi_); }

 private:
  std::atomic<std::uint64_t> next_;
  const std::uint64_t hi_, B_;
};

// One thread's loop: takes blocks from the source until it is used up, checks each on a
// per-thread evaluator, reports each finished block to the ledger and adds it to `mine`.
template <class CheckBlock>
void drain(BlockSource& src, BlockLedger* ledger, Progress& progress, BlockResult& mine, CheckBlock&& check_block) {
  std::uint64_t lo = 0, n = 0;
  while (src.next(lo, n)) {
    BlockResult r;
    check_block(lo, n, r);
    if (ledger) ledger->done(lo, n, r);
    mine.merge(r);
    progress.advance(n);
  }
}
// Instances per block: --block-size, else the check's preference (block path) or a chunk that
// keeps ~64 chunks per thread, at most 4096 (scalar path).
std::uint64_t block_instances(const Check& check, const RunPlan& plan, unsigned threads, std::uint64_t total) {
  if (plan.block) return plan.block;
  if (check.block && !plan.scalar) return std::max<std::uint64_t>(1, check.block_size);
  return std::max<std::uint64_t>(1, std::min<std::uint64_t>(4096, total / (64 * std::uint64_t{threads}) + 1));
}
}  // namespace

BlockResult run_range(const Check& check, unsigned threads, const std::string& label, const RunPlan& plan) {
  const std::uint64_t lo = std::min(plan.begin, check.instances), hi = std::max(lo, std::min(plan.end, check.instances));
  const std::uint64_t total = hi - lo;
  threads = std::clamp(threads, 1u, kMaxThreads);  // 64 * threads is computed in 64 bits and never wraps or divides by 0
  const bool blocks = check.block && !plan.scalar;
  // The scalar path's chunk keeps ~64 chunks per thread (load balance) and at most 4096 instances.
  const std::uint64_t B = block_instances(check, plan, threads, total);
  LocalBlocks local(lo, hi, B);
  BlockSource& src = plan.source ? *plan.source : local;
  std::mutex mu;
  BlockResult all;
  std::exception_ptr error;
  Progress progress(label, total);
  auto worker = [&] {
    BlockResult mine;
    try {
      if (blocks) {
        std::unique_ptr<BlockWorker> w = check.block();
        drain(src, plan.ledger, progress, mine, [&](std::uint64_t k0, std::uint64_t n, BlockResult& r) { w->run(k0, n, r); });
      } else {
        drain(src, plan.ledger, progress, mine, [&](std::uint64_t k0, std::uint64_t n, BlockResult& r) {
          for (std::uint64_t k = k0; k < k0 + n; ++k) {
            progress.poll();  // a scalar chunk can take seconds: a cancel (Ctrl-C in Python) stops it here
            if (check.run(k)) r.fail(k);
          }
        });
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!error) error = std::current_exception();
      src.stop();  // stop the others
    }
    std::lock_guard<std::mutex> lock(mu);
    all.merge(mine);
  };
  // A shared source (MPI) hands blocks to every thread; a local one needs no more threads than blocks.
  if (!plan.source) threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, (total + B - 1) / B)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) {
    try {
      pool.emplace_back([&] {
        worker();
        release_thread_caches();  // FLINT's per-thread caches (LSan)
      });
    } catch (const std::system_error&) {
      // The system gives no more threads (e.g. --threads 1024 under ulimit -v): the blocks come
      // from one counter, so fewer threads do the same work with the same result.
      break;
    }
  }
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  return all;
}

namespace {
InputError recorded_failure_passes(std::uint64_t k, const std::string& file) {
  return InputError("records instance " + std::to_string(k) +
                        " as the first failure, but it passes when checked again (the file was edited)",
                    file);
}
}  // namespace

RunResult with_counterexample(const Check& check, const BlockResult& r, const std::string& recorded_in) {
  RunResult out;
  out.failed = r.failed;
  if (r.first) {
    // The counterexample comes from the scalar path, so it is the same bytes for every block size,
    // thread count, shard split and rank count.
    std::optional<Failure> f = check.run(*r.first);
    if (!f) {
      // No input to show or shrink (issue 25: the shrinker crashed on the empty failure). A failure
      // read from a file that passes now is that file's fault; one this process found is ours.
      const std::string k = std::to_string(*r.first);
      if (!recorded_in.empty()) throw recorded_failure_passes(*r.first, recorded_in);
      throw std::logic_error("verifier bug: the run failed instance " + k + " (block path: " +
                             (check.block ? (check.block_kind.empty() ? std::string("adapter") : check.block_kind) : "none") +
                             ") but its scalar check passes it");
    }
    out.first = std::make_pair(*r.first, std::move(*f));
  }
  return out;
}

RunResult run_domain(const Check& check, unsigned threads, const std::string& label, const RunPlan& plan) {
  return with_counterexample(check, run_range(check, std::max(1u, threads), label, plan));
}

nlohmann::json model_summary(const Model& m) {
  ParamCount pc = count_params(m);
  return {{"N", m.N}, {"L", m.layers.size()}, {"d", m.d}, {"inner_N", m.inner_N}, {"inner_d", m.inner_d},
          {"conv", to_string(m.conv)}, {"ring", m.ring}, {"params_dense", pc.dense}, {"params_nonzero", pc.nonzero}};
}

Report report_from_run(const Construction& c, const Params& params, const Built& built, const Check& check,
                       const DomainOptions& opts, const RunResult& rr) {
  Report r;
  r.construction = c.name;
  r.params = params.to_json();
  r.domain = check.domain;
  r.description = check.description;
  r.preconditions = check.preconditions;
  r.notes = built.notes;
  r.seed = opts.seed;
  r.instances = check.instances;
  if (built.model) r.model = model_summary(*built.model);
  r.circuit = built.circuit;
  r.metrics = built.metrics;
  r.timing = built.timing;
  r.claims = built.claims;
  const bool blocks = check.block && !opts.scalar && check.instances > 0;
  r.engine = {{"path", blocks ? "block" : "scalar"}};
  if (blocks) r.engine["kind"] = check.block_kind.empty() ? "adapter" : check.block_kind;
  r.failed = rr.failed;
  r.passed = r.instances - r.failed;
  if (rr.first) {
    Failure f = rr.first->second;
    f.instance["index"] = rr.first->first;
    r.counterexample = check.shrink ? check.shrink(f) : f;
  }
  return r;
}

namespace {
// Threads per process: --threads, else all cores, shared among the ranks on this node.
unsigned run_threads(const DomainOptions& opts) {
  unsigned t = resolve_threads(opts.threads);
  if (opts.threads == 0 && Cluster::active()) t = std::max(1u, t / Cluster::local_size());
  return t;
}
}  // namespace

Report run_check(const Construction& c, const Params& params, const Built& built, const Check& asked,
                 const DomainOptions& opts, const RunControl& ctl) {
  auto t0 = std::chrono::steady_clock::now();
  // --device (issue 12): the check with its block path on the CPU, the CPU twin or the GPU.
  const DevicePath dp = choose_device(asked, opts, run_threads(opts), c.name);
  const Check& check = dp.check;
  const std::uint64_t total = check.instances;
  auto [begin, end] = ctl.shard ? shard_range(*ctl.shard, total) : std::pair<std::uint64_t, std::uint64_t>{0, total};
  const unsigned threads = dp.threads;
  RunPlan plan{opts.scalar, opts.block, begin, end};
  // What names this run in a checkpoint or a part report (app/engine/run/run_identity.h).
  const nlohmann::json id = (ctl.shard || !ctl.checkpoint.empty()) ? run_identity(c, params, check, opts) : nlohmann::json();

  // A checkpoint: resume from it, and keep it up to date.
  CheckpointState start{begin, {}};
  std::unique_ptr<CheckpointLedger> ledger;
  if (!ctl.checkpoint.empty()) {
    if (Cluster::active())
      throw InputError("checkpoints are kept by one process; under mpirun give each job its own --shard and checkpoint",
                       "--checkpoint");
    check_checkpoint_path(ctl.checkpoint);
    if (std::filesystem::exists(ctl.checkpoint)) {
      if (!ctl.resume) throw InputError("the checkpoint exists: add --resume to continue from it, or remove it", ctl.checkpoint);
      start = load_checkpoint(ctl.checkpoint, id, begin, end);
      // Checked now, before any work (and before the checkpoint is rewritten): one instance.
      if (start.result.first && !check.run(*start.result.first)) throw recorded_failure_passes(*start.result.first, ctl.checkpoint);
      // Say from where (issue 26 item 10): instance index, share done, failures carried over.
      const std::uint64_t span = end - begin, done = start.done_until - begin;
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f%%", span ? 100.0 * static_cast<double>(done) / static_cast<double>(span) : 100.0);
      std::cerr << "note: resumed from " << ctl.checkpoint << " at instance " << start.done_until << " of [" << begin << ", "
                << end << "): " << done << " done (" << pct << "), " << start.result.failed << " failed so far\n";
    } else if (ctl.resume) {
      std::cerr << "note: no checkpoint at " << ctl.checkpoint << " yet: starting from the beginning\n";
    }
    ledger = std::make_unique<CheckpointLedger>(ctl.checkpoint, id, begin, end, start, ctl.checkpoint_seconds);
    plan.begin = start.done_until;
    plan.ledger = ledger.get();
  }

  // Under mpirun, every rank's threads take blocks from one counter.
  std::unique_ptr<BlockSource> shared;
  if (Cluster::active()) {
    const std::uint64_t B = block_instances(check, plan, threads, plan.end - plan.begin);
    shared = Cluster::shared_blocks(plan.begin, std::min(plan.end, total), B, B * threads);
    plan.source = shared.get();
  }
  BlockResult br;
  try {
    br = run_range(check, threads, c.name, plan);
  } catch (const std::exception& e) {
    if (!Cluster::active()) throw;
    std::cerr << "error: rank " << Cluster::rank() << ": " << e.what() << " (" << c.name << ")\n";
    Cluster::abort(2);  // the other ranks must not wait for this one in a collective
  }
  shared.reset();  // collective
  // The first failure is the checkpoint's when it recorded one before anything this run found.
  const bool first_from_checkpoint = start.result.first && (!br.first || *start.result.first < *br.first);
  br.merge(start.result);
  if (ledger) ledger->save();
  br = Cluster::reduce(br);

  Report r = report_from_run(c, params, built, check, opts,
                             with_counterexample(check, br, first_from_checkpoint ? ctl.checkpoint : std::string()));
  r.device = dp.device;
  if (Cluster::active()) r.ranks = static_cast<unsigned>(Cluster::size());
  if (ctl.shard) {
    r.instances = end - begin;
    r.passed = r.instances - r.failed;
    r.shard = {{"index", ctl.shard->index},
               {"count", ctl.shard->count},
               {"begin", begin},
               {"end", end},
               {"domain_instances", total},
               {"first_failure", br.first ? nlohmann::json(*br.first) : nlohmann::json(nullptr)},
               {"identity", id},
               {"options", options_json(opts)}};
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

Report run_verify(const Construction& c, const std::map<std::string, std::string>& given, const DomainOptions& opts,
                  const RunControl& ctl) {
  auto t0 = std::chrono::steady_clock::now();
  Params params = Params::parse(c.params, given);
  Built built = c.build(params);
  Report r = run_check(c, params, built, c.check(params, built, opts), opts, ctl);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // includes build
  return r;
}

}  // namespace cz
