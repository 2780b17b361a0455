// Issue 38: cube-and-conquer and the miter scheduler (app/engine/sat/sat_schedule.h) in one process,
// and shards replayed by merge (app/engine/sat/sat_parts.h). MPI ranks are tested from the command
// line (tests/sat/sat_schedule_cli.sh). Each case well under a second or two.
#include <doctest/doctest.h>

#include <set>

#include "app/engine/sat/sat_parts.h"
#include "app/engine/sat/sat_path.h"
#include "app/engine/sat/sat_schedule.h"
#include "circuits/sat/cube.h"
#include "circuits/sat/solver.h"
#include "tests/sat/sat_test_util.h"
#include "util/error.h"

using namespace cz;
namespace sat = cz::circuits::sat;

namespace {

using test_sat::satisfies;

// Pigeonhole: p pigeons in p-1 holes (UNSAT, and hard enough that cubes matter a little).
sat::Cnf pigeonhole(int p) {
  sat::Cnf f;
  const int h = p - 1;
  auto x = [&](int i, int j) { return i * h + j + 1; };
  f.num_vars = p * h;
  for (int i = 0; i < p; ++i) {
    for (int j = 0; j < h; ++j) f.lits.push_back(x(i, j));
    f.lits.push_back(0);
    ++f.num_clauses;
  }
  for (int j = 0; j < h; ++j)
    for (int a = 0; a < p; ++a)
      for (int b = a + 1; b < p; ++b) f.add({-x(a, j), -x(b, j)});
  return f;
}

SatScheduleOptions local(const sat::SolverSpec& s, double cube_after, unsigned bits) {
  SatScheduleOptions o;
  o.solver = &s;
  o.timeout_s = 60;
  o.threads = 2;
  o.cube_after = cube_after;
  o.cube_bits = bits;
  return o;
}

}  // namespace

TEST_CASE("sat cubes: a split covers every assignment of its variables once, units added, fixed variables never chosen") {
  const auto cubes = sat::split_cube({7}, {2, 5, 9});
  CHECK(cubes.size() == 8);
  std::set<std::vector<int>> distinct(cubes.begin(), cubes.end());
  CHECK(distinct.size() == 8);
  for (const auto& c : cubes) {
    REQUIRE(c.size() == 4);
    CHECK(c[0] == 7);
    CHECK(std::abs(c[1]) == 2);
    CHECK(std::abs(c[3]) == 9);
  }
  sat::Cnf f;
  f.num_vars = 4;
  f.add({1, 2});
  f.add({1, 3});
  f.add({1, -4});
  f.add({4});  // fixed: never a cube variable
  const auto v = sat::cube_variables(f);
  CHECK(v == std::vector<int>{1, 2, 3});  // by occurrences, ties by number; 4 left out
  CHECK(sat::cube_variables(f, {3, 4, 2}) == std::vector<int>{3, 2});
  const sat::Cnf g = sat::with_cube(f, {-1, 3});
  CHECK(g.num_clauses == f.num_clauses + 2);
  CHECK_THROWS_AS(sat::with_cube(f, {5}), std::logic_error);
  CHECK(sat::cnf_hash(f) != sat::cnf_hash(g));
  CHECK(sat::cnf_hash(f) == sat::cnf_hash(sat::Cnf(f)));
}

TEST_CASE("sat schedule: UNSAT exactly when every cube is, a cube's model is the miter's, the lowest failure decides") {
  const auto cad = sat::find_solver("cadical");
  REQUIRE_MESSAGE(cad, "cadical is not on PATH");
  const sat::Cnf php = pigeonhole(6);
  sat::Cnf easy;  // satisfiable only with x1 = 0, x2 = 1
  easy.num_vars = 3;
  easy.add({-1});
  easy.add({2, 3});
  easy.add({2, -3});
  std::vector<SatJob> jobs = {{&php, "php", {}}, {&easy, "easy", {}}, {&php, "php again", {}}};
  SatScheduleLog log;
  SatScheduleOptions o = local(*cad, 0, 2);  // every miter split once, 4 cubes
  o.log = &log;
  o.stop_after_failure = false;
  auto r = schedule_sat(jobs, o);
  CHECK(r[0].r.answer == sat::Answer::Unsat);
  CHECK(r[0].cubes == 4);
  CHECK(r[1].r.answer == sat::Answer::Sat);
  CHECK(satisfies(easy, r[1].r.model));
  CHECK(r[2].r.answer == sat::Answer::Unsat);
  CHECK(log.split.size() >= 2);  // the two php miters (easy's cube that is SAT may close it first)
  // stop_after_failure: the SAT miter 1 cancels miter 2 (or it was never started), never miter 0.
  o.stop_after_failure = true;
  o.threads = 1;
  r = schedule_sat(jobs, o);
  CHECK(r[0].r.answer == sat::Answer::Unsat);
  CHECK(r[1].r.answer == sat::Answer::Sat);
  CHECK((!r[2].solved || r[2].r.answer == sat::Answer::Unknown));
  // A threshold re-split: cube_after tiny, cubes of cubes down to the depth; still UNSAT, and the
  // count is that of the leaves.
  SatScheduleOptions d = local(*cad, 1e-9, 1);
  d.cube_depth = 3;
  const auto rd = schedule_sat({{&php, "php", {}}}, d);
  CHECK(rd[0].r.answer == sat::Answer::Unsat);
  CHECK(rd[0].cubes > 2);  // re-split (a cube may finish before its tiny limit: 8 at most)
  CHECK(rd[0].cubes <= 8);
}

TEST_CASE("sat schedule: mqar/dyadic by cubes, monolithic and by stages, proved and refuted as without") {
  REQUIRE(sat::find_solver("cadical"));
  for (const char* strategy : {"monolithic", "stages"}) {
    INFO(strategy);
    SatOptions o;
    o.threads = 2;
    o.strategy = strategy;
    o.cube_after = 0;
    o.cube_bits = 2;
    o.log = std::make_shared<SatScheduleLog>();
    SatOutcome r = run_verify_sat(find_construction("mqar/dyadic"), {{"n", "4"}, {"c", "4"}}, o);
    CHECK(r.verdict == "proved");
    CHECK(o.log->split.size() > 0);
    if (std::string(strategy) == "monolithic") {
      for (const auto& run : r.report["sat"]["runs"]) CHECK(run["cubes"] == 4);
    }
  }
  SatOptions o;
  o.threads = 2;
  o.cube_after = 0;
  o.cube_bits = 3;
  SatOutcome bad = run_verify_sat(find_construction("mqar/dyadic"), {{"n", "8"}, {"c", "16"}, {"variant", "paper"}}, o);
  CHECK(bad.verdict == "refuted");
  REQUIRE(bad.counterexample);
}

TEST_CASE("sat shards: two shards' records replayed give the one-process report, other runs' parts refused") {
  REQUIRE(sat::find_solver("cadical"));
  const std::map<std::string, std::string> p = {{"n", "4"}, {"c", "5"}};
  const Construction& c = find_construction("mqar/dyadic");
  SatOptions one;
  one.threads = 1;
  one.strategy = "monolithic";
  const SatOutcome whole = run_verify_sat(c, p, one);
  std::vector<std::pair<std::string, nlohmann::json>> parts;
  for (std::uint64_t i = 0; i < 2; ++i) {
    SatOptions s = one;
    s.parts = std::make_shared<SatParts>();
    s.parts->shard = ShardSpec{i, 2};
    s.log = std::make_shared<SatScheduleLog>();
    const SatOutcome r = run_verify_sat(c, p, s);
    CHECK(r.verdict == "proved");  // its own miters (the others taken as UNSAT)
    parts.emplace_back("part" + std::to_string(i), sat_part_json(c.name, p, s, r, "test"));
  }
  SatMerge m = read_sat_parts(parts, "test");
  CHECK(m.shards == 2);
  const SatOutcome merged = run_verify_sat(c, m.given, m.options);
  CHECK(merged.verdict == "proved");
  nlohmann::json a = whole.report, b = merged.report;
  for (auto* j : {&a, &b})
    for (auto& run : (*j)["sat"]["runs"]) run.erase("seconds");
  CHECK(a == b);
  // Refused: a missing shard, a shard twice, another version, a tampered hash, another run.
  CHECK_THROWS_AS(read_sat_parts({parts[0]}, "test"), InputError);
  CHECK_THROWS_AS(read_sat_parts({parts[0], parts[0]}, "test"), InputError);
  CHECK_THROWS_AS(read_sat_parts(parts, "other"), InputError);
  auto bad = parts;
  bad[1].second["sat_part"]["calls"][0]["hashes"][0] = "0000000000000000";
  SatMerge mb = read_sat_parts(bad, "test");
  CHECK_THROWS_AS(run_verify_sat(c, mb.given, mb.options), InputError);
  bad = parts;
  bad[1].second["sat_part"]["params"]["c"] = "6";
  CHECK_THROWS_AS(read_sat_parts(bad, "test"), InputError);
  bad = parts;  // a result moved to a miter of the other shard
  auto& res = bad[0].second["sat_part"]["calls"][0]["results"];
  const std::string k = res.begin().key();
  bad[1].second["sat_part"]["calls"][0]["results"][k] = res[k];
  SatMerge mc = read_sat_parts(bad, "test");
  CHECK_THROWS_AS(run_verify_sat(c, mc.given, mc.options), InputError);
}
