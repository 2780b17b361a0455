// Per-layer bounds for the integer-model path of --method sat (issue 27). Interval arithmetic
// certifies each word's width without looking at the domain, and over many layers it explodes:
// mqar/dyadic artifact=model at n = 4, c = 16 (46 layers) gets intervals of 2^1459 although every
// value the model computes on the domain is 0 or 1. Here the bounds are proved instead:
//   1. the model is evaluated exactly on sampled domain inputs; each layer's observed range per
//      entry is the candidate bound;
//   2. layer by layer, a SAT miter asks for a domain input on which some entry of that layer
//      leaves its candidate range, the earlier layers narrowed to the bounds already proved (so
//      the words of this layer are exact: their width comes from one layer of interval
//      arithmetic on proved ranges). UNSAT: the bounds hold on the whole domain (by induction
//      over the layers). SAT: the solver's input is evaluated exactly, the ranges widened to its
//      values, and the layer asked again (after two such inputs every entry takes the layer's hull;
//      up to 8 times; then the layer keeps its intervals).
// Before the domain miter, a layer is tried locally: every state within the previous layer's
// proved ranges (free words, no domain) must land in the candidate ranges. That miter holds one
// layer, not the whole prefix; it is sound (the domain's states lie in those ranges) and may fail
// where only reachable states stay in range, which the domain miter then decides.
// The final proof narrows each layer to its proved bounds (WordBuilder::narrow); nothing is
// trusted from the samples.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/reference/checker.h"
#include "circuits/sat/int_miter.h"
#include "circuits/sat/model_bits.h"
#include "model/model.h"

namespace cz {

struct LayerBoundsResult {
  circuits::sat::LayerBounds bounds;
  std::size_t layers_proved = 0, layers_local = 0, layers_kept = 0, solver_calls = 0, refinements = 0;
  double seconds = 0;
  std::string note() const;  // one line for the report's notes
};

// `domain`: a checker whose output 0 is the task's domain over the task input bits named as
// in.names. samples: domain inputs (N×d). timeout_s: for all solver calls together.
LayerBoundsResult prove_layer_bounds(const Model& m, const circuits::sat::IntInputs& in, const circuits::reference::Checker& domain,
                                     const std::vector<Matrix<std::int64_t>>& samples, double timeout_s, std::size_t max_width);

}  // namespace cz
