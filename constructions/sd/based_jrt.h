// sd/based-jrt: shared pieces of the registration (based_jrt.cpp), its measurements
// (based_metrics.cpp) and the tests: the artifact, the per-stage checks.
#pragma once
#include <memory>
#include <string>

#include "constructions/sd/based_pipeline.h"
#include "constructions/sd/domain.h"

namespace cz::sdc {

enum class Stage { All, G20, G21, G18 };

struct BasedArtifact {
  std::shared_ptr<const Pipeline> pipeline;
  Stage stage = Stage::All;
};

// Per instance: the stage's target (G.20: h_shift; G.21: the rearranged copy; G.18 and all:
// the answer and the intersection, every intermediate target on the way, the attention state
// within its allocated bits, and, for the exponential kernel, every decision certified).
Check based_check(const BasedArtifact& art, const SdDomain& dom);
// The same check on one instance (--method sat confirms a SAT model's instance with it).
std::optional<Failure> based_failure(const BasedArtifact& art, const sd::Instance& x);

// The largest first set the G.18 stage meets on a domain: |A| alone, min-side in the pipeline.
std::size_t first_set_size(const sd::Instance& x, Stage stage);

// Metrics and claims (max over the default domain; no model is evaluated here, except the
// kernel-level scans of the random kernel).
void based_measure(const Params& p, const BasedArtifact& art, Built& b);

}  // namespace cz::sdc
