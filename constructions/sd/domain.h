// The instance domains of the SD constructions: every pair of subsets of {0,1}^n (increasing
// order), every pair of ordered sequences of at most kmax distinct elements, or sets of fixed
// sizes a and b; exhaustive when small enough, else seeded samples (tasks/sd.h does the
// enumeration; this file only picks exhaustive vs sampled from the CLI options).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tasks/sd.h"
#include "verify/construction.h"

namespace cz::sdc {

struct SdDomain {
  enum Kind { Subsets, Orders, Sized } kind = Subsets;
  unsigned n = 2;
  std::size_t kmax = 3, a = 1, b = 1;
  bool exhaustive = true;
  std::uint64_t count = 0, seed = 1;

  sd::Instance instance(std::uint64_t k) const;
  std::string describe() const;
};

// The parameters every SD construction shares: n, domain, kmax, a, b.
std::vector<ParamSpec> sd_domain_params(std::int64_t n_default, const std::string& domain_default);
// Exhaustive when the count is at most 2^22 (or --exhaustive up to 2^32), else `samples`
// (default 20,000) seeded draws. Throws InputError on impossible sizes.
SdDomain make_sd_domain(const Params& p, const DomainOptions& o);

// The domain the build-time metrics are measured on: the default domain, with a sampled one cut
// to its first 4,096 samples (sizes are fixed there, so the maxima are the same).
SdDomain metric_domain(const Params& p);

// Greedy shrinking: drop elements of A or B (one at a time) while `fails` stays true.
sd::Instance shrink_instance(sd::Instance x, const std::function<bool(const sd::Instance&)>& fails);

// Runs fail_of on every instance of the domain into a Check (with shrinking).
// block_fails (optional): makes a per-thread predicate "instance fails" with its own caches, for
// the block path (no Failure/JSON is built there); without it the block path is an adapter over
// run(k).
using SdFails = std::function<bool(const sd::Instance&)>;
Check instance_check(const SdDomain& dom,
                     std::function<std::optional<Failure>(const sd::Instance&)> fail_of,
                     std::function<SdFails()> block_fails = nullptr);

}  // namespace cz::sdc
