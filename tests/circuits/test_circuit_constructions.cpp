// circuit/sort and circuit/compare through the registry: verified, and broken on purpose.
#include <doctest/doctest.h>

#include "circuits/gadgets_sort.h"
#include "app/engine/engine.h"

using namespace cz;
using namespace cz::circuits;
namespace g = cz::circuits::gadgets;

namespace {

RunResult run(const std::string& name, std::map<std::string, std::string> given,
              std::shared_ptr<const Circuit> replace = nullptr) {
  const Construction& k = find_construction(name);
  Params p = Params::parse(k.params, given);
  Built b = k.build(p);
  REQUIRE(b.circuit_ir);
  CHECK(!b.circuit.is_null());
  if (replace) b.circuit_ir = replace;
  Check c = k.check(p, b, DomainOptions{});
  return run_domain(c, 2, "test");
}

// The construction's circuit with one comparator of the network left out.
std::shared_ptr<const Circuit> broken_sort(std::size_t n, std::size_t d) {
  Builder b;
  std::size_t w = 0;
  while ((std::size_t{1} << w) < n) ++w;
  std::vector<g::Item> items;
  for (std::size_t i = 0; i < n; ++i) items.push_back({g::input_bits(b, "k" + std::to_string(i), d), g::const_bits(b, i, w)});
  auto net = g::odd_even_merge_pairs(n);
  net.erase(net.begin() + 2);
  items = g::apply_network(b, items, net);
  for (std::size_t i = 0; i < n; ++i) {
    for (Wire x : items[i].key) b.output("key", x);
    for (Wire x : items[i].payload) b.output("idx", x);
  }
  return std::make_shared<const Circuit>(std::move(b).finish());
}

}  // namespace

TEST_CASE("circuit/sort verifies (both networks, padded bitonic) and a dropped comparator is caught") {
  CHECK(run("circuit/sort", {{"n", "4"}, {"d", "3"}}).failed == 0);
  CHECK(run("circuit/sort", {{"n", "5"}, {"d", "2"}, {"network", "bitonic"}}).failed == 0);
  auto r = run("circuit/sort", {{"n", "4"}, {"d", "3"}}, broken_sort(4, 3));
  CHECK(r.failed > 0);
  REQUIRE(r.first);
  CHECK(r.first->second.message.find("output") != std::string::npos);
}

TEST_CASE("circuit/compare verifies and a comparator with swapped operands is caught") {
  CHECK(run("circuit/compare", {{"d", "5"}}).failed == 0);
  Builder b;
  g::Bits x = g::input_bits(b, "x", 3), y = g::input_bits(b, "y", 3);
  b.output("lt", g::less_than(b, y, x));  // mutant: computes y < x
  b.output("eq", g::equal(b, x, y));
  auto [lo, hi] = g::min_max(b, x, y);
  for (Wire w : lo) b.output("min", w);
  for (Wire w : hi) b.output("max", w);
  auto r = run("circuit/compare", {{"d", "3"}}, std::make_shared<const Circuit>(std::move(b).finish()));
  CHECK(r.failed > 0);
  REQUIRE(r.first);
  CHECK(r.first->first == 1);  // smallest failing instance: x = 1, y = 0
}

TEST_CASE("circuit/compare claims: Lemma H.32 shapes shown, our bounds binding and met") {
  const Construction& k = find_construction("circuit/compare");
  for (const char* d : {"1", "7", "64"}) {
    Built b = k.build(Params::parse(k.params, {{"d", d}}));
    int binding = 0;
    for (const auto& c : b.claims)
      if (c.binding) {
        ++binding;
        REQUIRE(c.holds);
        CHECK(*c.holds);
      }
    CHECK(binding == 2);
  }
}

TEST_CASE("circuit/to-model verifies for every source, and a corrupted compiled weight is caught (mutant)") {
  const Construction& k = find_construction("circuit/to-model");
  for (const char* src : {"compare", "prefix-sum", "prefix-product"}) {
    Params p = Params::parse(k.params, {{"source", src}, {"N", "5"}, {"D", "2"}});
    Built b = k.build(p);
    REQUIRE(b.model);
    CHECK(run_domain(k.check(p, b, DomainOptions{}), 2, "t").failed == 0);
    // Mutant: the gather layer G1 forgets input 0 (u[0][0] is never routed).
    auto& g1 = std::get<BaseConvLayer>(b.model->layers[0]);
    for (std::size_t c = 0; c < g1.W.cols(); ++c) g1.W(0, c) = Rat(0);
    CHECK(run_domain(k.check(p, b, DomainOptions{}), 2, "t").failed > 0);
  }
}
