// The bit-sliced device path on the CUDA device (runs only where one is present): the GPU's
// failure counts and smallest failing indices equal the CPU engine's scalar path on the same
// constructions and mutants as tests/gpu/test_lop3_checks.cpp, for whole and unaligned launches,
// with slots in shared memory and in the global scratch.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "app/engine/run/device_path.h"
#include "app/engine/engine.h"
#include "circuits/builder.h"
#include "circuits/gadgets_compare.h"
#include "gpu/lop_check.h"
#include "gpu/lop_device_program.h"
#include "gpu/lop_launch.h"

using namespace cz;
namespace g = cz::circuits::gadgets;

namespace {

Check check_of(const std::string& name, const std::map<std::string, std::string>& params,
               const std::shared_ptr<const circuits::Circuit>& mutant = nullptr) {
  const Construction& k = find_construction(name);
  const Params p = Params::parse(k.params, params);
  Built b = k.build(p);
  if (mutant) b.circuit_ir = mutant;
  return k.check(p, b, DomainOptions{});
}

BlockResult cuda_vs_scalar(const Check& check, const std::string& name) {
  REQUIRE(check.device);
  DomainOptions cuda;
  cuda.device = "cuda";
  const DevicePath dp = choose_device(check, cuda, 1, name);
  RunPlan scalar;
  scalar.scalar = true;
  const BlockResult ref = run_range(check, 4, name, scalar);
  for (std::uint64_t block : {std::uint64_t{0}, std::uint64_t{1000}, std::uint64_t{4099}}) {
    RunPlan plan;
    plan.block = block;
    const BlockResult r = run_range(dp.check, 1, name, plan);
    CHECK(r.failed == ref.failed);
    CHECK(r.first == ref.first);
  }
  return ref;
}

std::shared_ptr<const circuits::Circuit> compare_mutant(std::size_t d) {
  circuits::Builder b;
  g::Bits x = g::input_bits(b, "x", d), y = g::input_bits(b, "y", d);
  b.output("lt", g::and_(b, g::less_than(b, x, y), g::not_(b, x[d - 1])));
  b.output("eq", g::equal(b, x, y));
  auto [lo, hi] = g::min_max(b, x, y);
  for (std::size_t k = 0; k < d; ++k) b.output("min", lo[k]);
  for (std::size_t k = 0; k < d; ++k) b.output("max", hi[k]);
  return std::make_shared<const circuits::Circuit>(std::move(b).finish());
}

}  // namespace

TEST_CASE("cuda LOP3: circuit/compare and a mutant") {
  for (int d : {1, 4, 8}) CHECK(cuda_vs_scalar(check_of("circuit/compare", {{"d", std::to_string(d)}}), "circuit/compare").failed == 0);
  const BlockResult r = cuda_vs_scalar(check_of("circuit/compare", {{"d", "6"}}, compare_mutant(6)), "circuit/compare");
  CHECK(r.failed > 0);
}

TEST_CASE("cuda LOP3: circuit/sort") {
  for (const char* net : {"oddeven", "bitonic"})
    for (const auto& [n, d] : {std::pair{4, 3}, {5, 4}, {7, 3}})
      CHECK(cuda_vs_scalar(check_of("circuit/sort", {{"n", std::to_string(n)}, {"d", std::to_string(d)}, {"network", net}}),
                           "circuit/sort")
                .failed == 0);
}

TEST_CASE("cuda LOP3: mqar/dyadic, failing variants included") {
  CHECK(cuda_vs_scalar(check_of("mqar/dyadic", {{"n", "4"}, {"c", "4"}, {"variant", "merge"}}), "mqar/dyadic").failed == 0);
  CHECK(cuda_vs_scalar(check_of("mqar/dyadic", {{"n", "2"}, {"c", "4"}, {"encoding", "onehot"}}), "mqar/dyadic").failed == 0);
  CHECK(cuda_vs_scalar(check_of("mqar/dyadic", {{"n", "4"}, {"c", "4"}, {"prefix", "lsb"}}), "mqar/dyadic").failed > 0);
  CHECK(cuda_vs_scalar(check_of("mqar/dyadic", {{"n", "4"}, {"c", "4"}, {"variant", "paper"}}), "mqar/dyadic").failed > 0);
}

TEST_CASE("cuda LOP3: slots in the global scratch give the same verdicts") {
  const auto mutant = compare_mutant(8);
  const auto prog = std::dynamic_pointer_cast<const gpu::LopCheck>(gpu::lop_compare_check(*mutant, 8));
  REQUIRE(prog);
  BlockResult twin;
  prog->twin()->run(5, 65536 - 9, twin);
  for (bool global : {false, true}) {
    gpu::LopLauncher l(prog->program().view(), prog->program().slots(), prog->task(), global);
    std::uint64_t failed = 0, first = 0;
    l.run(5, 65536 - 9, failed, first);
    CHECK(failed == twin.failed);
    REQUIRE(twin.first);
    CHECK(first == *twin.first);
  }
}
