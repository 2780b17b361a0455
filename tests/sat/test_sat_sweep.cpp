// SAT sweeping (circuits/sat/sweep.h) and its use on a user's file (app/engine/sat/sat_stages.h):
//   - two circuits of one function built otherwise (AND chains in opposite orders, an XOR chain and
//     an XOR tree) are proved equal, after SAT answers refined pairs that random simulation
//     suggested falsely (a long AND chain is 0 on every random input);
//   - a mutant that differs on one input of 2^16 (random simulation misses it) is found by a
//     miter, and the witness it reports tells the two circuits apart when both are evaluated;
//   - mqar/dyadic's circuit rebuilt with every AND node doubled (each of its nodes another node
//     of the joint AIG) is proved by the construction's stages after the sweep; the same file
//     with two answer bits swapped is refuted by its own miters, the sweep saying why.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "app/engine/byo/byo.h"
#include "app/engine/sat/sat_path.h"
#include "circuits/aig.h"
#include "circuits/aig_match.h"
#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"
#include "circuits/sat/sweep.h"
#include "tests/sat/sat_test_util.h"
#include "verify/construction.h"
#include "verify/task.h"

using namespace cz;
namespace sat = cz::circuits::sat;
namespace g = cz::circuits::gadgets;

namespace {

using test_sat::doubled;
using test_sat::eval_at;

// Outputs "all" (x is all ones, or x == flip when flip >= 0: a mutant) and "par" (parity of x).
circuits::Circuit words16(bool reversed, long flip = -1) {
  circuits::Builder b;
  std::vector<circuits::Wire> x;
  for (int i = 0; i < 16; ++i) x.push_back(b.input("x[" + std::to_string(i) + "]", circuits::Type::Bit));
  circuits::Wire all = b.one(), par = b.zero();
  for (int k = 0; k < 16; ++k) all = g::and_(b, all, x[reversed ? 15 - k : k]);
  if (flip >= 0) {
    circuits::Wire is = b.one();
    for (int k = 0; k < 16; ++k) is = g::and_(b, is, (flip >> k) & 1 ? x[k] : g::not_(b, x[k]));
    all = g::xor_(b, all, is);
  }
  if (!reversed) {
    for (int k = 0; k < 16; ++k) par = g::xor_(b, par, x[k]);
  } else {  // a balanced tree
    std::vector<circuits::Wire> level = x;
    while (level.size() > 1) {
      std::vector<circuits::Wire> next;
      for (std::size_t k = 0; k + 1 < level.size(); k += 2) next.push_back(g::xor_(b, level[k], level[k + 1]));
      level = next;
    }
    par = level[0];
  }
  b.output("all", all);
  b.output("par", par);
  return std::move(b).finish();
}

}  // namespace

TEST_CASE("sweep: one function built two ways is proved equal, false pairs refined by SAT answers") {
  REQUIRE(sat::find_solver("cadical"));
  const circuits::Circuit a = words16(false), b = words16(true);
  const circuits::JointAig j = circuits::joint_aig(a, b);
  REQUIRE(j.why.empty());
  CHECK(circuits::aig_match(a, b).same < 2);  // not the same by structure alone
  sat::SweepOptions o;
  const sat::SweepResult r = sat::sat_sweep(j, *sat::find_solver("cadical"), o);
  CHECK(r.equal);
  CHECK(r.why.empty());
  CHECK(r.differ.empty());
  CHECK(r.b_nodes > 0);
  CHECK(r.miters >= 1);
  CHECK(r.refinements >= 1);  // b's long AND chains look constant 0 to random simulation
  // Same seed, same rounds.
  const sat::SweepResult again = sat::sat_sweep(j, *sat::find_solver("cadical"), o);
  CHECK(again.rounds == r.rounds);
  CHECK(again.refinements == r.refinements);
  CHECK(again.pairs == r.pairs);
}

TEST_CASE("sweep: a mutant that differs on one input of 2^16 is found, its witness tells the circuits apart") {
  REQUIRE(sat::find_solver("cadical"));
  const circuits::Circuit a = words16(false), b = words16(true, 0x5a5a);
  const circuits::JointAig j = circuits::joint_aig(a, b);
  REQUIRE(j.why.empty());
  const sat::SweepResult r = sat::sat_sweep(j, *sat::find_solver("cadical"), sat::SweepOptions{});
  CHECK(!r.equal);
  REQUIRE(r.differ == std::vector<std::string>{"all"});
  REQUIRE(r.witness.size() == 16);
  CHECK(eval_at(a, r.witness)["all"] != eval_at(b, r.witness)["all"]);
  CHECK(eval_at(a, r.witness)["par"] == eval_at(b, r.witness)["par"]);
  // Ports that do not correspond are the caller's to refuse (joint_aig says why).
  circuits::Builder c;
  c.output("all", c.input("x[0]", circuits::Type::Bit));
  CHECK(!circuits::joint_aig(a, std::move(c).finish()).why.empty());
}

TEST_CASE("sweep: mqar/dyadic's circuit with other nodes is proved by the construction's stages") {
  REQUIRE(sat::find_solver("cadical"));
  const Construction& dy = find_construction("mqar/dyadic");
  const std::map<std::string, std::string> given{{"n", "4"}, {"c", "8"}, {"encoding", "binary"}};
  const Built bt = dy.build(Params::parse(dy.params, given));
  REQUIRE(bt.circuit_ir);
  for (const bool mutant : {false, true}) {
    INFO("mutant " << mutant);
    auto file = std::make_shared<const circuits::Circuit>(doubled(*bt.circuit_ir, mutant));
    const circuits::AigMatch m = circuits::aig_match(*bt.circuit_ir, *file);
    REQUIRE(m.why.empty());
    CHECK(m.same < m.outputs);
    SatOptions o;
    o.threads = 1;
    const SatOutcome r = run_task_sat(find_task("mqar"), given, circuit_artifact(file, "doubled.aag", "aiger"), file, o);
    std::string notes;
    for (const auto& n : r.report["notes"]) notes += n.get<std::string>() + "\n";
    INFO(notes);
    if (!mutant) {
      CHECK(r.verdict == "proved");
      CHECK(r.report["sat"]["strategy"] == "stages");
      CHECK(r.report["sat"]["reference"]["sweep"]["equal"] == true);
      CHECK(notes.find("up to SAT sweeping") != std::string::npos);
      CHECK(r.timing.contains("sweep_seconds"));
    } else {
      CHECK(r.verdict == "refuted");
      CHECK(r.counterexample);
      CHECK(notes.find("SAT sweeping: an output differs") != std::string::npos);
      CHECK(!r.report["sat"].contains("reference"));
    }
  }
}

TEST_CASE("sweep: circuit/sort's circuit with other nodes is proved by the construction's stages") {
  REQUIRE(sat::find_solver("cadical"));
  const Construction& so = find_construction("circuit/sort");
  for (const std::string network : {"oddeven", "bitonic"}) {
    const Built bt = so.build(Params::parse(so.params, {{"n", "8"}, {"d", "3"}, {"network", network}}));
    REQUIRE(bt.circuit_ir);
    for (const bool mutant : {false, true}) {
      INFO(network << " mutant " << mutant);
      auto file = std::make_shared<const circuits::Circuit>(doubled(*bt.circuit_ir, mutant));
      SatOptions o;
      o.threads = 1;
      const SatOutcome r = run_words_task_sat("sort", {{"n", "8"}, {"d", "3"}}, circuit_artifact(file, "doubled.aag", "aiger"), file, o);
      std::string notes;
      for (const auto& n : r.report["notes"]) notes += n.get<std::string>() + "\n";
      INFO(notes);
      if (!mutant) {
        CHECK(r.verdict == "proved");
        CHECK(r.report["sat"]["reference"]["sweep"]["equal"] == true);
        CHECK(r.report["sat"]["reference"]["params"]["network"] == network);  // each network's file against its own
      } else {
        CHECK(r.verdict == "refuted");
        CHECK(notes.find("SAT sweeping against oddeven: an output differs") != std::string::npos);
      }
    }
  }
}
