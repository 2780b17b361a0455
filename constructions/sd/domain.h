// The checks of the SD constructions over their domains (verify/sd_domain.h): metrics domain,
// shrinking, and the per-instance check with its block path.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tasks/sd.h"
#include "verify/construction.h"
#include "verify/sd_domain.h"

namespace cz::sdc {

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
