// The device path of sd/recurrent-jrt: its EXPORTED program file (alg3_export.cpp) compiled to
// bytecode (gpu/program_code.h) gives, on every instance of small domains, the verdicts of the
// CPU check running the C++ program (alg3.cpp), for JRT Alg. 3 with the fixed and the paper
// threshold (Errata E8) and for the plain store-first prompt; the twin worker counts the same
// failures with the same smallest index.
#include <doctest/doctest.h>

#include "gpu/program_code.h"
#include "program_compare.h"
#include "verify/parts.h"

using namespace cz;
using K = sdc::SdDomain;

namespace {

Params params(unsigned n, const std::string& variant, const std::string& prompt) {
  return Params::parse(find_construction("sd/recurrent-jrt").params,
                       {{"n", std::to_string(n)}, {"variant", variant}, {"prompt", prompt}});
}

nlohmann::json exported(const Params& p) { return (*find_program("sd/recurrent-jrt"))(p); }

// The C++ artifact, as build() makes it, with the state rule chosen by the test.
sdc::RecurrentArtifact artifact(unsigned n, const std::string& variant, const std::string& prompt, bool exact) {
  sdc::RecurrentArtifact art;
  art.n = n;
  art.copies = prompt == "jrt" ? 2 : 1;
  art.program = prompt == "jrt" ? sdc::alg3_program(n, variant == "paper" ? sdc::Alg3Threshold::Paper : sdc::Alg3Threshold::Fixed)
                                : sdc::store_first_program(n);
  art.exact_min_state = exact;
  return art;
}

std::vector<K> small_domains(unsigned n) {
  std::vector<K> ds = {test::sd_domain(K::Subsets, n, 0, 0, 0, *sd::count_subset_pairs(n))};
  if (n == 2) {
    ds.push_back(test::sd_domain(K::Orders, 2, 3, 0, 0, *sd::count_order_pairs(2, 3)));
    ds.push_back(test::sd_domain(K::Sized, 2, 0, 2, 1, *sd::count_sized_pairs(2, 2, 1)));
    ds.push_back(test::sd_domain(K::Sized, 5, 0, 3, 2, 4000, false, 9));   // sampled, planted
    ds.push_back(test::sd_domain(K::Orders, 6, 12, 0, 0, 4000, false, 3));  // sampled
  }
  return ds;
}

// CPU check (C++ program) vs device twin (exported file's bytecode): per instance, and the block
// summary (count, smallest index) over the domain in uneven blocks. Returns the failure count.
std::uint64_t compare(unsigned, const std::string& variant, const std::string& prompt, bool exact, const K& d) {
  const sdc::RecurrentArtifact art = artifact(d.n, variant, prompt, exact);
  const std::vector<bool> cpu = test::cpu_fails(sdc::recurrent_check(art, d));
  const auto dev = sdc::sd_program_device(exported(params(d.n, variant, prompt)), "export", d, exact);
  REQUIRE(dev);
  auto w = dev->twin();
  const std::vector<bool> twin = test::worker_fails(*w, d.count);
  for (std::uint64_t k = 0; k < d.count; ++k) REQUIRE_MESSAGE(cpu[k] == twin[k], "instance " << k << " of " << d.describe());
  BlockResult blocks;
  for (std::uint64_t k0 = 0; k0 < d.count; k0 += 777) w->run(k0, std::min<std::uint64_t>(777, d.count - k0), blocks);
  const BlockResult want = test::summary(cpu);
  CHECK(blocks.failed == want.failed);
  CHECK(blocks.first == want.first);
  return want.failed;
}

}  // namespace

TEST_CASE("exported Alg. 3 bytecode gives the CPU check's verdicts, fixed threshold and plain prompt") {
  for (unsigned n : {1u, 2u, 3u}) {
    for (const K& d : small_domains(n)) {
      CHECK(compare(n, "fixed", "jrt", true, d) == 0);
      CHECK(compare(n, "fixed", "plain", true, d) == 0);
    }
  }
}

TEST_CASE("exported Alg. 3 bytecode fails exactly the paper threshold's instances (Errata E8)") {
  std::uint64_t failed = 0;
  for (unsigned n : {1u, 2u, 3u})
    for (const K& d : small_domains(n)) {
      failed += compare(n, "paper", "jrt", true, d);     // the state rule on: |A| = |B| + 1 stores the larger set
      CHECK(compare(n, "paper", "jrt", false, d) == 0);  // as registered: the answers are right
    }
  CHECK(failed > 0);
}

TEST_CASE("sd/recurrent-jrt's check carries the device path of its exported program") {
  const Construction& c = find_construction("sd/recurrent-jrt");
  const Params p = params(2, "fixed", "jrt");
  const Built b = c.build(p);
  const Check chk = c.check(p, b, DomainOptions{});
  REQUIRE(chk.device);
  CHECK(chk.device->kind() == "recurrent program bytecode, one instance per thread");
  BlockResult r;
  chk.device->twin()->run(0, chk.instances, r);
  CHECK(r.failed == 0);
  DomainOptions big;
  big.samples = 100;
  const Params p7 = params(7, "fixed", "jrt");  // sampled subsets of {0,1}^7: up to 128 elements, CPU only
  CHECK_FALSE(c.check(p7, c.build(p7), big).device);
}
