// Programs the device must fail exactly where the CPU does: a mutant of the exported Alg. 3 (one
// comparison changed), and programs that overflow int64 or write a register wider than declared
// on some instances (the CPU throws there; the device marks the instance failed, and the engine's
// rebuild of that index through run(k) reports the real error). Also: programs the device refuses.
#include <doctest/doctest.h>

#include "gpu/program_code.h"
#include "program_compare.h"
#include "verify/parts.h"

using namespace cz;
using json = nlohmann::json;
using K = sdc::SdDomain;

namespace {

json alg3(unsigned n) {
  const Params p = Params::parse(find_construction("sd/recurrent-jrt").params, {{"n", std::to_string(n)}});
  return (*find_program("sd/recurrent-jrt"))(p);
}

// Renames the first operator `from` (depth first, in key order) to `to`; true when found.
bool mutate(json& j, const std::string& from, const std::string& to) {
  if (j.is_object()) {
    if (j.size() == 1 && j.contains(from)) {
      json a = j[from];
      j = json::object();
      j[to] = a;
      return true;
    }
    for (auto& [k, v] : j.items()) if (mutate(v, from, to)) return true;
  } else if (j.is_array()) {
    for (auto& v : j) if (mutate(v, from, to)) return true;
  }
  return false;
}

// CPU (program_json interpreter in recurrent_jrt's check) vs twin: per instance and block summary.
BlockResult compare(const json& j, const K& d, bool exact) {
  const std::vector<bool> cpu = test::cpu_fails(test::json_check(j, d, exact));
  const auto dev = sdc::sd_program_device(j, "test", d, exact);
  REQUIRE(dev);
  auto w = dev->twin();
  const std::vector<bool> twin = test::worker_fails(*w, d.count);
  for (std::uint64_t k = 0; k < d.count; ++k) REQUIRE_MESSAGE(cpu[k] == twin[k], "instance " << k);
  BlockResult all;
  w->run(0, d.count, all);
  const BlockResult want = test::summary(cpu);
  CHECK(all.failed == want.failed);
  CHECK(all.first == want.first);
  return want;
}

// Prepends `s` to the step of the exported Alg. 3: it runs at every row before the algorithm.
json with_first(json j, json s) {
  j["step"].insert(j["step"].begin(), std::move(s));
  return j;
}

// if the row is the first copy's separator (i < rows/2, flag column n): then
json at_first_separator(unsigned n, json then_) {
  return {{"if", {{"and", json::array({{{"lt", json::array({"i", {{"div", json::array({"rows", 2})}}})}},
                                       {{"eq", json::array({{{"col", n}}, 1})}}})}}},
          {"then", json::array({std::move(then_)})}};
}

}  // namespace

TEST_CASE("a mutant of the exported Alg. 3 fails on the CPU's instances, same smallest index") {
  // line 8 with N + 1 for N - 1: smallFirst also when |A| = |B| + 1, the larger set is stored
  json m = alg3(2);
  REQUIRE(mutate(m, "sub", "add"));
  // i >= N + isep for i > N + isep (lines 19-20): copy 2's separator is compared too
  json g = alg3(2);
  REQUIRE(mutate(g["step"][0]["else"][0]["then"][0]["else"], "gt", "ge"));
  for (const json& mutant : {m, g}) {
    const BlockResult r = compare(mutant, test::sd_domain(K::Subsets, 2, 0, 0, 0, 256), true);
    CHECK(r.failed > 0);
    CHECK(compare(mutant, test::sd_domain(K::Orders, 2, 3, 0, 0, 1681), true).failed > 0);
    compare(mutant, test::sd_domain(K::Sized, 2, 0, 2, 1, 3000, false, 5), true);  // sampled: same verdicts
  }
  CHECK(compare(alg3(2), test::sd_domain(K::Subsets, 2, 0, 0, 0, 256), true).failed == 0);  // the unmutated file passes
}

TEST_CASE("int64 overflow fails the instances where the CPU throws") {
  // r := i · 2^62 at the first separator (i = |A|): overflows iff |A| >= 2
  json j = alg3(2);
  j["registers"].push_back({{"name", "r"}, {"width", 64}, {"init", 0}});
  j = with_first(j, at_first_separator(2, {{"set", "r"}, {"value", {{"mul", json::array({"i", 4611686018427387904LL})}}}}));
  const BlockResult r = compare(j, test::sd_domain(K::Subsets, 2, 0, 0, 0, 256), true);
  CHECK(r.failed > 0);
  CHECK(r.failed < 256);
  // sub below INT64_MIN and add above INT64_MAX, division by zero when |A| = 0
  json s = alg3(2);
  s["registers"].push_back({{"name", "r"}, {"width", 64}, {"init", 0}});
  s = with_first(s, at_first_separator(2, {{"set", "r"}, {"value", {{"div", json::array({7, "i"})}}}}));
  CHECK(compare(s, test::sd_domain(K::Orders, 2, 3, 0, 0, 1681), true).failed > 0);
}

TEST_CASE("a register or bag write wider than declared fails the instances where the CPU throws") {
  json j = alg3(2);
  j["registers"].push_back({{"name", "w"}, {"width", 1}, {"init", 0}});
  j = with_first(j, at_first_separator(2, {{"set", "w"}, {"value", "i"}}));  // fits iff |A| <= 1
  const BlockResult r = compare(j, test::sd_domain(K::Subsets, 2, 0, 0, 0, 256), true);
  CHECK(r.failed > 0);
  CHECK(*r.first == 48);  // A = {0, 1} (k >> 4 = 3), B = {}: the first |A| = 2
  json b = alg3(2);  // insert the separator's word with its flag bit: 2^n, one bit too wide
  b = with_first(b, at_first_separator(2, {{"insert", "Z"}, {"value", {{"word", json::array({0, 3})}}}}));
  CHECK(compare(b, test::sd_domain(K::Sized, 2, 0, 1, 2, 24), true).failed == 24);
}

TEST_CASE("programs beyond the device's fixed state have no device path") {
  const K d = test::sd_domain(K::Subsets, 2, 0, 0, 0, 256);
  json wide = alg3(2);
  wide["bags"][0]["width"] = 13;
  std::string why;
  CHECK_FALSE(sdc::sd_program_device(wide, "t", d, true, &why));
  CHECK(why.find("13-bit words") != std::string::npos);
  json rows = alg3(2);
  rows["bags"][0]["width"] = "rows";  // 2·(|A|+|B|+1) bits: above 12 for some prompts
  CHECK_FALSE(sdc::sd_program_device(rows, "t", d, true));
  json regs = alg3(2);
  for (int q = 0; q < 20; ++q) regs["registers"].push_back({{"name", "x" + std::to_string(q)}, {"width", 1}});
  CHECK_FALSE(sdc::sd_program_device(regs, "t", d, true));
  CHECK_FALSE(sdc::sd_program_device(alg3(3), "t", d, true));  // n = 3 program, n = 2 domain
  json bad = alg3(2);
  bad["step"] = 5;
  CHECK_THROWS(sdc::sd_program_device(bad, "t", d, true));  // the CPU's validation error
}
