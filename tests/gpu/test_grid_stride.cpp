// The program kernel's launch (issue 29 item 7) on the CPU twin: a capped grid whose threads
// stride over the instances must check every one. The old launch gave one instance per thread and
// cast ceil(count / 128) to unsigned, so a --block-size >= 2^39 wrapped and left instances
// unchecked; here a tiny cap (3 blocks of 32) over 256 instances plays that role, and the verdict
// must equal the CPU interpreter's (program_json) on every sub-range.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "gpu/grid_stride.h"
#include "gpu/program_code.h"
#include "gpu/program_kernel.h"
#include "gpu/sd_pairs_shape.h"
#include "program_compare.h"
#include "verify/parts.h"

using namespace cz;
using namespace cz::gpu;
using json = nlohmann::json;
using K = sdc::SdDomain;

TEST_CASE("grid_shape caps the block count and never wraps") {
  CHECK(grid_shape(0, 128, 1u << 16).blocks == 0);
  CHECK(grid_shape(1000, 128, 1u << 16).blocks == 8);
  CHECK(grid_shape(1024, 128, 1u << 16).blocks == 8);
  const std::uint64_t wraps = std::uint64_t(1) << 39;  // 2^32 blocks of 128: unsigned(2^32) = 0 in the old launch
  CHECK(static_cast<unsigned>(wraps / 128) == 0);
  CHECK(grid_shape(wraps, 128, 1u << 16).blocks == (1u << 16));
  CHECK(grid_shape(~std::uint64_t(0), 128, 1u << 16).blocks == (1u << 16));
  CHECK(grid_shape(~std::uint64_t(0), 128, 1u << 16).size() == (std::uint64_t(1) << 23));
}

TEST_CASE("grid_stride visits every index once, also next to 2^64") {
  const GridShape g = grid_shape(1000, 4, 3);  // 12 threads for 1000 indices
  std::vector<int> seen(1000, 0);
  for (std::uint64_t tid = 0; tid < g.size(); ++tid) grid_stride(tid, g.size(), 1000, [&](std::uint64_t t) { ++seen[t]; });
  for (std::uint64_t t = 0; t < seen.size(); ++t) REQUIRE_MESSAGE(seen[t] == 1, "index " << t);
  // t + stride would pass 2^64: the loop stops instead of wrapping to a small t
  const std::uint64_t top = ~std::uint64_t(0);
  std::vector<std::uint64_t> got;
  grid_stride(top - 6, 4, top, [&](std::uint64_t t) { got.push_back(t); });
  CHECK(got == std::vector<std::uint64_t>{top - 6, top - 2});
}

TEST_CASE("the program kernel on a tiny capped grid fails exactly the CPU's instances") {
  // The exported Alg. 3 (n = 2) with its first `sub` made `add` (line 8: N + 1 for N - 1).
  const Params p = Params::parse(find_construction("sd/recurrent-jrt").params, {{"n", "2"}});
  json m = (*find_program("sd/recurrent-jrt"))(p);
  const std::string text = m.dump();
  const auto at = text.find("\"sub\"");
  REQUIRE(at != std::string::npos);
  m = json::parse(text.substr(0, at) + "\"add\"" + text.substr(at + 5));
  const K d = test::sd_domain(K::Subsets, 2, 0, 0, 0, 256);
  const std::vector<bool> cpu = test::cpu_fails(test::json_check(m, d, true));
  const auto code = compile_program(m, "test");
  const auto shape = sd_shape(SdShape::Subsets, 2, 0, 0, 0, true, 1);
  REQUIRE(code);
  REQUIRE(shape);
  ProgramJob job;
  job.info = code->info;
  job.shape = *shape;
  job.exact_min_state = true;
  ProgramScratch s;
  const std::uint32_t cap = 3, threads = 32;  // 96 threads: fewer than the instances of every range below
  bool beyond = false;                          // some failure lies past the grid's first pass
  for (std::uint64_t k0 : {0, 1, 37, 150}) {
    const std::uint64_t count = 256 - k0;
    const GridShape g = grid_shape(count, threads, cap);
    REQUIRE(g.blocks == cap);
    FailTally got;
    for (std::uint64_t warp = 0; warp < g.size(); warp += 32) {  // lanes merged as the kernel's warp reduce does
      FailTally w;
      for (std::uint64_t lane = 0; lane < 32; ++lane) {
        FailTally f;
        prog_thread(job, code->code.data(), k0, count, warp + lane, g.size(), s, f);
        w.merge(f);
      }
      got.merge(w);
    }
    FailTally want;
    for (std::uint64_t k = k0; k < 256; ++k)
      if (cpu[k]) {
        want.fail(k);
        beyond = beyond || k - k0 >= g.size();
      }
    CHECK(want.failed > 0);
    CHECK(got.failed == want.failed);
    CHECK(got.first == want.first);
  }
  CHECK(beyond);
}

TEST_CASE("a warp's least failing index from its two 32-bit minima") {
  // flush_tally's sm_80 path (gpu/warp_tally.cuh) reduced over 32 lanes on the CPU: lanes with no
  // failure hold ~0; high halves tie often (nearby indices), low halves order the tied lanes.
  std::uint64_t z = 12345;
  const auto next = [&z] {  // splitmix64
    std::uint64_t x = (z += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  const std::uint64_t none = ~std::uint64_t(0);
  for (int round = 0; round < 2000; ++round) {
    std::uint64_t lane[32], want = none;
    const unsigned bits = round % 64;  // indices below 2^bits: all high halves 0 up to 32 bits
    const std::uint64_t base = bits ? next() >> (64 - bits) : 0;
    for (auto& x : lane) {
      const std::uint64_t r = next();
      x = r % 4 == 0 ? none : round % 3 == 0 ? next() : base + (r >> 40);
      if (x < want) want = x;
    }
    std::uint32_t hi = ~0u, lo = ~0u;
    for (std::uint64_t x : lane) hi = std::min(hi, min_hi_key(x));
    for (std::uint64_t x : lane) lo = std::min(lo, min_lo_key(x, hi));
    REQUIRE(min_join(hi, lo) == want);
  }
  CHECK(min_join(min_hi_key(none), min_lo_key(none, min_hi_key(none))) == none);  // no lane failed
}
