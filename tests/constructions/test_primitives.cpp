// Every primitive verifies at its defaults, and a mutant of each (a shift by s-1, a flipped
// weight, a dropped layer) is caught by the same verifier with a counterexample.
#include <doctest/doctest.h>

#include "util/error.h"
#include "app/engine/engine.h"

using namespace cz;

namespace {
Report verify(const std::string& name, std::map<std::string, std::string> p = {}, DomainOptions o = {}) {
  o.threads = o.threads ? o.threads : 2;
  return run_verify(find_construction(name), p, o);
}

// Runs the construction's own check against a mutated copy of its model.
RunResult verify_mutant(const std::string& name, const std::map<std::string, std::string>& given,
                        const std::function<void(Model&)>& mutate) {
  const Construction& c = find_construction(name);
  Params p = Params::parse(c.params, given);
  Built b = c.build(p);
  REQUIRE(b.model);
  mutate(*b.model);
  return run_domain(c.check(p, b, DomainOptions{}), 2, "mutant");
}

BaseConvLayer& layer(Model& m, std::size_t i) { return std::get<BaseConvLayer>(m.layers.at(i)); }
}  // namespace

TEST_CASE("every primitive verifies at its defaults on the 0/1 box and signed samples") {
  for (const char* name : {"primitive/identity", "primitive/shift_down", "primitive/shift_up", "primitive/cumsum",
                           "primitive/add", "primitive/hadamard", "primitive/remember"}) {
    INFO(name);
    Report r = verify(name);
    // 8x2: 3^16 > 2^22, so every {0,1} matrix, then 10000 in [-3, 3] (verify/matrix_domain.h, issue 24 D2)
    CHECK(r.domain == "exhaustive+sampled");
    CHECK(r.instances == (1u << 16) + 10000);
    CHECK(r.description.find("{0,1}^(8x2)") != std::string::npos);
    CHECK(r.description.find("entries in [-3, 3]") != std::string::npos);
    CHECK(r.failed == 0);
    CHECK(r.exit_code() == 0);
  }
}

TEST_CASE("shift_down and shift_up verify in every mode where they are possible") {
  for (std::string conv : {"causal", "cyclic"})
    for (int s = 0; s < 6; ++s) CHECK(verify("primitive/shift_down", {{"N", "6"}, {"d", "2"}, {"s", std::to_string(s)}, {"conv", conv}}).failed == 0);
  for (std::string conv : {"cyclic", "anticausal"})
    for (int s = 1; s < 6; ++s) CHECK(verify("primitive/shift_up", {{"N", "6"}, {"d", "2"}, {"s", std::to_string(s)}, {"conv", conv}}).failed == 0);
}

TEST_CASE("shift_up under causal convolution is refuted with a shrunk counterexample") {
  Report r = verify("primitive/shift_up", {{"conv", "causal"}});
  CHECK(r.exit_code() == 1);
  REQUIRE(r.counterexample);
  CHECK(r.counterexample->message.find("impossible under causal") != std::string::npos);
  CHECK(r.counterexample->instance["shrunk"] == true);
  // shrunk to a single 1 (one entry that must move up)
  int ones = 0;
  for (const auto& row : r.counterexample->input)
    for (const auto& x : row) ones += x.get<int>() != 0;
  CHECK(ones == 1);
  CHECK(verify("primitive/shift_down", {{"conv", "anticausal"}}).failed > 0);
}

TEST_CASE("sampled domains are reproducible and thread-count independent") {
  DomainOptions o;
  o.samples = 3000;
  o.seed = 7;
  o.threads = 1;
  Report a = verify("primitive/shift_up", {{"N", "12"}, {"d", "3"}, {"conv", "causal"}}, o);
  o.threads = 4;
  Report b = verify("primitive/shift_up", {{"N", "12"}, {"d", "3"}, {"conv", "causal"}}, o);
  CHECK(a.domain == "sampled");
  CHECK(a.failed == b.failed);
  REQUIRE(a.counterexample);
  CHECK(a.counterexample->input == b.counterexample->input);
  CHECK(a.counterexample->instance["index"] == b.counterexample->instance["index"]);
}

TEST_CASE("mutants of every primitive are caught") {
  SUBCASE("shift_down by s-1") {
    auto r = verify_mutant("primitive/shift_down", {}, [](Model& m) {
      auto& L = layer(m, 0);
      for (std::size_t j = 0; j < m.d; ++j) { L.h(3, j) = 0; L.h(2, j) = 1; }
    });
    CHECK(r.failed > 0);
  }
  SUBCASE("shift_up with one flipped mask entry") {
    auto r = verify_mutant("primitive/shift_up", {}, [](Model& m) { layer(m, 0).b1(7, 1) = 1; });
    CHECK(r.failed > 0);
  }
  SUBCASE("identity with a flipped filter tap") {
    auto r = verify_mutant("primitive/identity", {}, [](Model& m) { layer(m, 0).h(1, 0) = 1; });
    CHECK(r.failed > 0);
  }
  SUBCASE("cumsum with one missing tap") {
    auto r = verify_mutant("primitive/cumsum", {}, [](Model& m) { layer(m, 0).h(5, 1) = 0; });
    CHECK(r.failed > 0);
  }
  SUBCASE("add with a dropped identity block") {
    auto r = verify_mutant("primitive/add", {}, [](Model& m) { layer(m, 0).W(1, 0) = 0; });
    CHECK(r.failed > 0);
  }
  SUBCASE("hadamard with a bias on the gate") {
    auto r = verify_mutant("primitive/hadamard", {}, [](Model& m) { layer(m, 0).b2(4, 0) = 1; });
    CHECK(r.failed > 0);
  }
  SUBCASE("remember without its split layer") {
    auto r = verify_mutant("primitive/remember", {}, [](Model& m) { m.layers.erase(m.layers.begin()); });
    CHECK(r.failed > 0);
  }
  SUBCASE("remember with f's bias not zeroed outside the window") {
    auto r = verify_mutant("primitive/remember", {}, [](Model& m) { layer(m, 1).b1(7, 0) = 1; layer(m, 1).b1(6, 0) = 1; });
    CHECK(r.failed > 0);
  }
}

TEST_CASE("remember works for every f and window") {
  for (std::string f : {"cumsum", "shift_down", "identity"})
    for (int s = 0; s < 5; ++s)
      for (int t = s + 1; t <= 6; ++t) {
        INFO(f << " s=" << s << " t=" << t);
        Report r = verify("primitive/remember", {{"N", "6"}, {"d", "2"}, {"s", std::to_string(s)}, {"t", std::to_string(t)}, {"f", f}, {"fs", "0"}});
        CHECK(r.failed == 0);
      }
}

TEST_CASE("claims show the paper beside ours") {
  Report r = verify("primitive/shift_down");
  bool paper_layers = false;
  for (const auto& c : r.claims)
    if (c.quantity == "layers" && !c.binding) {
      paper_layers = true;
      CHECK(c.claimed == "3");
      CHECK(c.achieved == 1);
      CHECK(c.holds == true);
    }
  CHECK(paper_layers);
  Report rem = verify("primitive/remember");
  for (const auto& c : rem.claims)
    if (c.quantity == "inner_d" && !c.binding) CHECK(c.holds == false);  // missed, shown, not hidden
  CHECK(rem.exit_code() == 0);
}

TEST_CASE("primitives: bad parameters are input errors") {
  CHECK_THROWS_AS(verify("primitive/shift_down", {{"s", "9"}}), InputError);
  CHECK_THROWS_AS(verify("primitive/shift_down", {{"zz", "1"}}), InputError);
  CHECK_THROWS_AS(verify("primitive/add", {{"d", "3"}}), InputError);
  CHECK_THROWS_AS(verify("primitive/remember", {{"s", "5"}, {"t", "5"}}), InputError);
  CHECK_THROWS_AS(verify("nope/none"), InputError);
  DomainOptions o;
  o.force_exhaustive = true;
  CHECK_THROWS_AS(verify("primitive/identity", {{"N", "20"}, {"d", "2"}}, o), InputError);
}
