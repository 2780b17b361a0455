// The program kernel on the CUDA device (runs only where one is present): the exported Alg. 3
// (fixed; paper with the state rule on, Errata E8) and a mutant give, launch by launch, the CPU
// twin's failure count and smallest failing index, on exhaustive and sampled SD domains.
#include <doctest/doctest.h>

#include "../program_compare.h"
#include "verify/parts.h"

using namespace cz;
using json = nlohmann::json;
using K = sdc::SdDomain;

namespace {

json alg3(unsigned n, const std::string& variant) {
  const Params p = Params::parse(find_construction("sd/recurrent-jrt").params, {{"n", std::to_string(n)}, {"variant", variant}});
  return (*find_program("sd/recurrent-jrt"))(p);
}

void same_on_device(const json& j, const K& d, bool exact) {
  const auto dev = sdc::sd_program_device(j, "test", d, exact);
  REQUIRE(dev);
  auto twin = dev->twin();
  auto cuda = dev->cuda();
  for (std::uint64_t k0 = 0; k0 < d.count; k0 += 40000) {  // uneven launches
    const std::uint64_t count = std::min<std::uint64_t>(40000, d.count - k0);
    BlockResult a, b;
    twin->run(k0, count, a);
    cuda->run(k0, count, b);
    REQUIRE(a.failed == b.failed);
    REQUIRE(a.first == b.first);
  }
}

}  // namespace

TEST_CASE("the program kernel on the device gives the twin's verdicts") {
  const K sub3 = test::sd_domain(K::Subsets, 3, 0, 0, 0, *sd::count_subset_pairs(3));
  same_on_device(alg3(3, "fixed"), sub3, true);
  same_on_device(alg3(3, "paper"), sub3, true);
  json m = alg3(3, "fixed");
  m["step"][0]["else"][0]["then"][0]["else"][0]["if"] = 1;  // the mutant: B's rows always compared
  same_on_device(m, sub3, true);
  same_on_device(alg3(3, "paper"), test::sd_domain(K::Sized, 3, 0, 4, 3, 200000, false, 11), true);
  same_on_device(alg3(3, "fixed"), test::sd_domain(K::Orders, 3, 8, 0, 0, 200000, false, 4), true);
  // and the whole domain in one launch against the CPU check
  const auto dev = sdc::sd_program_device(alg3(3, "paper"), "test", sub3, true);
  BlockResult all;
  dev->cuda()->run(0, sub3.count, all);
  sdc::RecurrentArtifact art;
  art.n = 3;
  art.program = sdc::alg3_program(3, sdc::Alg3Threshold::Paper);
  art.exact_min_state = true;
  const BlockResult want = test::summary(test::cpu_fails(sdc::recurrent_check(art, sub3)));
  CHECK(all.failed == want.failed);
  CHECK(all.first == want.first);
  CHECK(want.failed > 0);
}
