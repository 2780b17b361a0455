// Shared by tests/gpu/test_program_*.cpp and tests/gpu/device/: a program file's verdicts on an
// SD domain through the CPU check (recurrent_jrt.cpp, an exception counted as a failure: the engine
// reports it as the error of that index) and through the device path's workers.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "constructions/sd/program_device.h"
#include "constructions/sd/recurrent_jrt.h"
#include "model/program_json.h"

namespace cz::test {

inline sdc::SdDomain sd_domain(sdc::SdDomain::Kind kind, unsigned n, std::size_t kmax, std::size_t a, std::size_t b,
                               std::uint64_t count, bool exhaustive = true, std::uint64_t seed = 1) {
  sdc::SdDomain d;
  d.kind = kind;
  d.n = n;
  d.kmax = kmax;
  d.a = a;
  d.b = b;
  d.count = count;
  d.exhaustive = exhaustive;
  d.seed = seed;
  return d;
}

// The CPU's verdict on every instance: run(k) fails, or throws.
inline std::vector<bool> cpu_fails(const Check& c) {
  std::vector<bool> out(c.instances);
  for (std::uint64_t k = 0; k < c.instances; ++k) {
    try {
      out[k] = c.run(k).has_value();
    } catch (const std::exception&) {
      out[k] = true;
    }
  }
  return out;
}

// A worker's verdict, instance by instance.
inline std::vector<bool> worker_fails(BlockWorker& w, std::uint64_t count) {
  std::vector<bool> out(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    BlockResult r;
    w.run(k, 1, r);
    out[k] = r.failed == 1;
  }
  return out;
}

inline BlockResult summary(const std::vector<bool>& fails) {
  BlockResult r;
  for (std::uint64_t k = 0; k < fails.size(); ++k)
    if (fails[k]) r.fail(k);
  return r;
}

// The CPU check of a program file: program_json's interpreter in recurrent_jrt's check.
inline Check json_check(const nlohmann::json& j, const sdc::SdDomain& d, bool exact_min_state) {
  const ProgramFile pf = program_from_json(j, "test");
  sdc::RecurrentArtifact art;
  art.program = pf.program;
  art.n = pf.n;
  art.copies = pf.prompt == "jrt" ? 2 : 1;
  art.exact_min_state = exact_min_state;
  return sdc::recurrent_check(art, d);
}

}  // namespace cz::test
