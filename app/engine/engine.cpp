#include "app/engine/engine.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "exact/thread_caches.h"
#include "util/progress.h"

namespace cz {

bool Report::binding_claim_failed() const {
  for (const auto& c : claims)
    if (c.binding && c.holds && !*c.holds) return true;
  return false;
}

namespace {
RunResult run_scalar(const Check& check, unsigned threads, const std::string& label) {
  const std::uint64_t total = check.instances;
  threads = std::clamp(threads, 1u, kMaxThreads);  // 64 * threads is computed in 64 bits and never wraps or divides by 0
  const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min<std::uint64_t>(4096, total / (64 * std::uint64_t{threads}) + 1));
  std::atomic<std::uint64_t> next{0}, failed{0};
  std::mutex mu;
  RunResult out;
  Progress progress(label, total);
  auto worker = [&] {
    for (;;) {
      std::uint64_t lo = next.fetch_add(chunk);
      if (lo >= total) return;
      std::uint64_t hi = std::min(total, lo + chunk);
      for (std::uint64_t k = lo; k < hi; ++k) {
        auto f = check.run(k);
        if (!f) continue;
        failed.fetch_add(1);
        std::lock_guard<std::mutex> lock(mu);
        if (!out.first || k < out.first->first) out.first = std::make_pair(k, std::move(*f));
      }
      progress.advance(hi - lo);
    }
  };
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, total / chunk)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back([&] {
      worker();
      release_thread_caches();
    });
  worker();
  for (auto& t : pool) t.join();
  out.failed = failed.load();
  return out;
}

RunResult run_blocks(const Check& check, unsigned threads, const std::string& label, const RunPlan& plan) {
  const std::uint64_t total = check.instances;
  const std::uint64_t B = std::max<std::uint64_t>(1, plan.block ? plan.block : check.block_size);
  std::atomic<std::uint64_t> next{0};
  std::mutex mu;
  BlockResult all;
  std::exception_ptr error;
  Progress progress(label, total);
  auto worker = [&] {
    BlockResult mine;
    try {
      std::unique_ptr<BlockWorker> w = check.block();
      for (;;) {
        const std::uint64_t lo = next.fetch_add(B);
        if (lo >= total) break;
        const std::uint64_t n = std::min(total - lo, B);
        w->run(lo, n, mine);
        progress.advance(n);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!error) error = std::current_exception();
      next.store(total);  // stop the others
    }
    std::lock_guard<std::mutex> lock(mu);
    all.merge(mine);
  };
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, (total + B - 1) / B)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back([&] {
      worker();
      release_thread_caches();  // FLINT's per-thread caches (LSan), as in run_scalar
    });
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  RunResult out;
  out.failed = all.failed;
  if (all.first) {
    // The counterexample comes from the scalar path, so it is the same bytes for every block size
    // and thread count. A block/scalar disagreement is a verifier bug and is reported, not hidden.
    std::optional<Failure> f = check.run(*all.first);
    if (!f) {
      f = Failure{};
      f->message = "verifier bug: the block path fails instance " + std::to_string(*all.first) +
                   " but the scalar path passes it";
    }
    out.first = std::make_pair(*all.first, std::move(*f));
  }
  return out;
}
}  // namespace

RunResult run_domain(const Check& check, unsigned threads, const std::string& label, const RunPlan& plan) {
  threads = std::max(1u, threads);
  if (check.block && !plan.scalar && check.instances > 0) return run_blocks(check, threads, label, plan);
  return run_scalar(check, threads, label);
}

nlohmann::json model_summary(const Model& m) {
  ParamCount pc = count_params(m);
  return {{"N", m.N}, {"L", m.layers.size()}, {"d", m.d}, {"inner_N", m.inner_N}, {"inner_d", m.inner_d},
          {"conv", to_string(m.conv)}, {"ring", m.ring}, {"params_dense", pc.dense}, {"params_nonzero", pc.nonzero}};
}

Report run_check(const Construction& c, const Params& params, const Built& built, const Check& check,
                 const DomainOptions& opts) {
  auto t0 = std::chrono::steady_clock::now();
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
  RunResult rr = run_domain(check, resolve_threads(opts.threads), c.name, RunPlan{opts.scalar, opts.block});
  r.failed = rr.failed;
  r.passed = r.instances - r.failed;
  if (rr.first) {
    Failure f = rr.first->second;
    f.instance["index"] = rr.first->first;
    r.counterexample = check.shrink ? check.shrink(f) : f;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

Report run_verify(const Construction& c, const std::map<std::string, std::string>& given, const DomainOptions& opts) {
  auto t0 = std::chrono::steady_clock::now();
  Params params = Params::parse(c.params, given);
  Built built = c.build(params);
  Report r = run_check(c, params, built, c.check(params, built, opts), opts);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // includes build
  return r;
}

}  // namespace cz
