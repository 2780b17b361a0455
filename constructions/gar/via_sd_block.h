// The block path of gar/via-sd (JRT Prop G.26, issue 10): the reduction of gar_via_sd (via_sd.h)
// on arrays. Instances are unranked straight into arrays (exhaustive domains: the digits of
// gar::instance), the d = ceil(log2(c+1)) SD calls (A = the queries as a set, B = K_l) are
// looked up in a per-thread memo of the oracle keyed by the packed call, and the oracle's answer
// is kept as a bit mask over the 2^n tokens; the answers are compared with the map-lookup
// reference's (a scan of the distinct keys: the same lookup, no map). Nothing is allocated per
// instance once the memo is warm. Instances outside the fast path (2^n > 64 tokens, a call that
// does not pack into 64 bits, an oracle answer outside [0, 2^n)) go through gar_via_sd itself.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>

#include "constructions/gar/via_sd.h"
#include "verify/construction.h"

namespace cz::garc {

struct GarBlockDomain {
  std::uint32_t c = 4;
  std::size_t nk = 2, m = 2;
  bool exhaustive = true;  // else `instance` draws instance k (seeded)
  std::function<gar::Instance(std::uint64_t)> instance;
};

std::unique_ptr<BlockWorker> via_sd_block_worker(const GarBlockDomain& dom, const SdOracle& oracle);

// A memo of `oracle` for one thread (not thread-safe): calls whose (|A|, |B|, elements in prompt
// order) pack into 64 bits are answered once; other calls go to the oracle every time.
SdOracle memoised(SdOracle oracle);

}  // namespace cz::garc
