// The block path of eq/via-mqar with the attention solver (JRT Prop G.8, issue 10): mqar/attention's
// one triples model for the 4-triple JRT prompt (the model the scalar path evaluates), compiled
// once into a lane program (constructions/mqar/batch_model.h); kLanes instances per run, the
// prompt's tokens written one-hot straight into the input slots (no instance, no matrix), and the
// EQ answer read off the output slots as the scalar decode reads the output matrix. When the
// program is not certified safe in int64, every instance goes through the scalar check.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "constructions/mqar/batch_model.h"
#include "verify/construction.h"

namespace cz::eqc {

struct EqBlockDomain {
  std::uint32_t c = 8;
  bool exhaustive = true;
  std::function<std::pair<std::uint32_t, std::uint32_t>(std::uint64_t)> pair;  // (u1, u2) of instance k
};

// any: decode=any (some query row nonzero) instead of q1 (query 1's row is the one-hot of token 1).
// scalar(k): the scalar check of instance k (for unsafe programs).
std::unique_ptr<BlockWorker> attention_eq_worker(std::shared_ptr<const mqarc::LaneProgram> P, EqBlockDomain dom, bool any,
                                                 std::function<std::optional<Failure>(std::uint64_t)> scalar);

}  // namespace cz::eqc
