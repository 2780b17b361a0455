// Issue 38: certificates of scheduled runs. check-proof's replay of an index's splits
// (app/engine/sat/sat_schedule.h CubePlan): exactly the recorded splits, every cube made and asked
// under its name, a split listing fewer cubes or with bad variables caught; the index's "splits"
// sorted and deduplicated (app/engine/sat/sat_certificates_sched.h). No solver runs: a hook answers.
#include <doctest/doctest.h>

#include <cstdio>
#include <mutex>
#include <set>

#include "app/engine/sat/sat_certificates_sched.h"
#include "app/engine/sat/sat_schedule.h"
#include "circuits/sat/cube.h"
#include "circuits/sat/solve_hook.h"
#include "util/error.h"

using namespace cz;
namespace sat = cz::circuits::sat;

namespace {

// Answers every CNF UNSAT without a solver, and keeps what it was asked (name, cube of, literals).
struct AskHook : sat::SolveHook {
  std::mutex mu;
  std::set<std::string> asked;
  std::set<std::vector<int>> cubes;
  std::optional<sat::SolveResult> replay(const sat::SolverSpec&, const sat::Cnf&, const std::string& what) override {
    std::lock_guard<std::mutex> lk(mu);
    asked.insert(what);
    if (const sat::CubeOf* c = sat::CubeLabel::current()) {
      CHECK(c->of == "m");
      cubes.insert(c->literals);
    }
    return sat::SolveResult{sat::Answer::Unsat, {}, 0, ""};
  }
};

struct HookIn {
  explicit HookIn(sat::SolveHook* h) { sat::set_solve_hook(h); }
  ~HookIn() { sat::set_solve_hook(nullptr); }
};

std::string hex(const sat::Cnf& f) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(sat::cnf_hash(f)));
  return b;
}

sat::Cnf small() {
  sat::Cnf f;
  f.num_vars = 5;
  f.add({1, 2, 3});
  f.add({-1, 4});
  f.add({-2, 5});
  f.add({3, -4, -5});
  return f;
}

}  // namespace

TEST_CASE("sat certificates of cubes: check-proof splits exactly as the index says and asks every cube") {
  const sat::Cnf f = small();
  sat::SolverSpec spec{"cadical", "cadical"};  // never run: the hook answers
  CubePlan plan;
  CubePlan::Split top{{2, 4}, {"m cube 0 of 4", "m cube 1 of 4", "m cube 2 of 4", "m cube 3 of 4"}, "test top", false, ""};
  plan.splits[{"m", hex(f), {}}] = top;
  // cube 1 of 4 fixes 2 true, 4 false (bit i of b: vars[i] true); split again on 5.
  plan.splits[{"m", hex(f), {2, -4}}] = CubePlan::Split{{5}, {"m cube 1 of 4 cube 0 of 2", "m cube 1 of 4 cube 1 of 2"}, "test nested", false, ""};
  plan.splits[{"other", hex(f), {}}] = CubePlan::Split{{1}, {"other cube 0 of 2", "other cube 1 of 2"}, "test unused", false, ""};
  AskHook hook;
  HookIn in(&hook);
  SatScheduleLog log;
  SatScheduleOptions o;
  o.solver = &spec;
  o.threads = 2;
  o.cube_after = 5;  // ignored under a plan: no timer
  o.plan = &plan;
  o.log = &log;
  const auto r = schedule_sat({{&f, "m", {}}}, o);
  CHECK(r[0].r.answer == sat::Answer::Unsat);
  CHECK(r[0].cubes == 5);  // 3 cubes of the top split and 2 of the nested one
  CHECK(hook.asked == std::set<std::string>{"m cube 0 of 4", "m cube 2 of 4", "m cube 3 of 4", "m cube 1 of 4 cube 0 of 2",
                                            "m cube 1 of 4 cube 1 of 2"});
  CHECK(hook.cubes.count({-2, -4}) == 1);
  CHECK(hook.cubes.count({2, -4, 5}) == 1);
  CHECK(plan.splits.at({"m", hex(f), {}}).used);
  CHECK(plan.splits.at({"m", hex(f), {}}).bad.empty());
  CHECK(!plan.splits.at({"other", hex(f), {}}).used);  // check-proof rejects a split the run never made
  REQUIRE(log.splits.size() == 2);
  CHECK(log.splits[0]["vars"] == nlohmann::json{2, 4});

  // A split that lists one cube less: still all four made and asked, and the split marked bad.
  CubePlan shortp;
  top.cubes.pop_back();
  shortp.splits[{"m", hex(f), {}}] = top;
  o.plan = &shortp;
  hook.asked.clear();
  CHECK(schedule_sat({{&f, "m", {}}}, o)[0].r.answer == sat::Answer::Unsat);
  CHECK(hook.asked.size() == 4);
  CHECK(shortp.splits.begin()->second.bad.find("lists 3 cubes, not the 4") != std::string::npos);

  // Variables outside the CNF or repeated: a malformed index (exit 2), nothing decided.
  for (const std::vector<int>& vars : {std::vector<int>{0}, std::vector<int>{6}, std::vector<int>{3, 3}, std::vector<int>{}}) {
    CubePlan bad;
    bad.splits[{"m", hex(f), {}}] = CubePlan::Split{vars, {}, "test bad", false, ""};
    o.plan = &bad;
    CHECK_THROWS_AS(schedule_sat({{&f, "m", {}}}, o), InputError);
  }
}

TEST_CASE("sat certificates of cubes: the index's splits sorted by miter and cube, repeats once, read back") {
  const nlohmann::json a = {{"miter", "query 10"}, {"cnf_hash", "00"}, {"cube", nlohmann::json::array()}, {"vars", {1}}, {"cubes", {"x", "y"}}};
  nlohmann::json b = a, c = a;
  b["miter"] = "query 9";
  c["cube"] = {-1};
  const nlohmann::json s = index_splits(nlohmann::json{a, c, b, a});
  REQUIRE(s.size() == 3);
  CHECK(s[0]["miter"] == "query 9");  // numbers compared as numbers
  CHECK(s[1] == a);
  CHECK(s[2] == c);
  CubePlan plan;
  read_index_splits({{"splits", s}}, "idx", plan);
  CHECK(plan.splits.size() == 3);
  read_index_splits({{"splits", s}}, "idx2", plan);  // the same splits from another shard: one each
  CHECK(plan.splits.size() == 3);
  nlohmann::json other = a;
  other["vars"] = {2};
  CHECK_THROWS_AS(read_index_splits({{"splits", {other}}}, "idx3", plan), InputError);  // two splits of one miter and cube
  CHECK_THROWS_AS(read_index_splits({{"splits", {{{"miter", 1}}}}}, "idx4", plan), InputError);
}

TEST_CASE("sat certificates of shards: K indexes of one run, each shard once, none missing") {
  const nlohmann::json run = {{"construction", "x"}};
  auto idx = [&](const std::string& shard) { return nlohmann::json{{"run", run}, {"shard", shard}}; };
  CHECK_NOTHROW(check_shard_indexes({{"a", idx("1/2")}, {"b", idx("0/2")}}));
  CHECK_THROWS_WITH_AS(check_shard_indexes({{"a", idx("0/2")}}), doctest::Contains("shard 1/2 is missing"), InputError);
  CHECK_THROWS_WITH_AS(check_shard_indexes({{"a", idx("0/2")}, {"b", idx("0/2")}}), doctest::Contains("given twice"), InputError);
  CHECK_THROWS_AS(check_shard_indexes({{"a", idx("0/2")}, {"b", idx("1/3")}}), InputError);
  CHECK_THROWS_AS(check_shard_indexes({{"a", idx("0/2")}, {"b", nlohmann::json{{"run", run}}}}), InputError);
  CHECK_THROWS_AS(check_shard_indexes({{"a", idx("0/2")}, {"b", nlohmann::json{{"run", {{"construction", "y"}}}, {"shard", "1/2"}}}}), InputError);
  CHECK_THROWS_AS(check_shard_indexes({{"a", idx("2/2")}}), InputError);
}
