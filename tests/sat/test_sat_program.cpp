// verify --program FILE --task sd --method sat (app/engine/sat/sat_sd.h, circuits/sat/program_bits.h):
//   - the unrolled step gives the interpreter's output cells (nonzero) and its failures on every
//     instance of small domains, for the exported Alg. 3 files and mutated ones (a wrong store
//     window, a register too narrow for its values, an output row too narrow);
//   - differential: SAT proves exactly the files the enumerating program check verifies, and each
//     refutation's instance fails that check (confirmed, never reported otherwise);
//   - refusals with a reason: division by an input-dependent value.
#include <doctest/doctest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "app/engine/byo/byo_program.h"
#include "app/engine/engine.h"
#include "app/engine/sat/sat_sd.h"
#include "circuits/builder.h"
#include "circuits/eval.h"
#include "circuits/sat/program_bits.h"
#include "circuits/sat/solver.h"
#include "constructions/sd/domain.h"
#include "util/error.h"
#include "verify/parts.h"
#include "verify/task.h"

using namespace cz;
using nlohmann::json;

namespace {

json exported(unsigned n, const char* variant, const char* prompt) {
  const Construction& c = find_construction("sd/recurrent-jrt");
  return (*find_program("sd/recurrent-jrt"))(
      Params::parse(c.params, {{"n", std::to_string(n)}, {"variant", variant}, {"prompt", prompt}}));
}

// Replaces the first occurrence of `from` (a JSON fragment as dump() writes it) in the file.
json mutate(const json& j, const std::string& from, const std::string& to) {
  std::string s = j.dump();
  const auto at = s.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  s.replace(at, from.size(), to);
  return json::parse(s);
}

struct Variant {
  std::string name;
  json file;
};

std::vector<Variant> variants(unsigned n) {
  const json alg3 = exported(n, "fixed", "jrt");
  return {{"alg3 fixed", alg3},
          {"alg3 paper", exported(n, "paper", "jrt")},
          {"store first (plain)", exported(n, "fixed", "plain")},
          // line 16's window stores the separator row too
          {"store window from isep", mutate(alg3, R"({"gt":["i",{"reg":"isep"}]})", R"({"ge":["i",{"reg":"isep"}]})")},
          // smallFirst 0 bits wide: setting it to 1 throws (a program error on those instances)
          {"smallFirst too narrow", mutate(alg3, R"("name":"smallFirst","width":1)", R"("name":"smallFirst","width":0)")},
          // a compare row's output reads column 7, beyond the row: the program stops there
          {"column beyond the row", mutate(alg3, R"({"col":0})", R"({"col":7})")},
          // an empty word beyond the row reads nothing (the interpreter does not throw): still Alg. 3
          {"empty word beyond the row", mutate(alg3, R"({"word":[0,2]})", R"({"add":[{"word":[0,2]},{"word":[9,0]}]})")},
          // output rows of n columns: the check reads the flag at column n
          {"out_width n", mutate(alg3, R"("out_width":)" + std::to_string(n + 1), R"("out_width":)" + std::to_string(n))}};
}

std::map<std::string, std::string> dom_params(const char* kind, std::size_t kmax = 3) {
  return {{"domain", kind}, {"kmax", std::to_string(kmax)}};
}

}  // namespace

TEST_CASE("sat-program: the unrolled step gives the interpreter's cells and failures on every small instance") {
  for (const auto& v : variants(2)) {
    INFO(v.name);
    const ProgramFile pf = program_from_json(v.file, "test");
    const std::size_t copies = pf.prompt == "jrt" ? 2 : 1;
    const Params p = program_task_params(pf, "test", "sd", dom_params("orders"));
    DomainOptions o;
    o.force_exhaustive = true;
    const sdc::SdDomain dom = sdc::make_sd_domain(p, o);
    std::map<std::size_t, std::pair<circuits::Circuit, std::size_t>> circ;  // per N: circuit, out_width
    for (std::uint64_t k = 0; k < dom.count; ++k) {
      const sd::Instance x = dom.instance(k);
      const std::size_t N = x.A.size() + x.B.size() + 1;
      if (!circ.count(N)) {
        circuits::Builder b;
        std::vector<circuits::Wire> u;
        for (std::size_t t = 0; t < N * 3; ++t) u.push_back(b.input("u" + std::to_string(t), circuits::Type::Bit));
        std::vector<circuits::Wire> cells;
        for (std::size_t c = 0; c < copies; ++c) cells.insert(cells.end(), u.begin(), u.end());
        circuits::sat::WordBuilder wb(b);
        const auto up = circuits::sat::unroll_program(wb, *pf.ast, copies * N, 3, cells);
        b.output("fails", up.fails);
        for (const auto& row : up.nonzero)
          for (circuits::Wire w : row) b.output("c", w);
        circ.emplace(N, std::make_pair(std::move(b).finish(), up.out_width));
      }
      const auto& [c, width] = circ.at(N);
      const auto enc = sd::encode(x);
      const std::vector<std::int64_t> in = enc.data();
      const auto out = circuits::eval_integer(c, in);
      bool threw = false;
      RecurrentRun run;
      try {
        run = run_recurrent(pf.program, sd::repeat_prompt(enc, copies));
      } catch (const std::exception&) {
        threw = true;
      }
      CHECK(out[0] == Int(threw ? 1 : 0));
      if (threw) continue;
      REQUIRE(out.size() == 1 + run.output.rows() * width);
      bool same = true;
      for (std::size_t r = 0; r < run.output.rows(); ++r)
        for (std::size_t j = 0; j < width; ++j) same = same && out[1 + r * width + j] == Int(run.output(r, j) != 0 ? 1 : 0);
      CHECK(same);
    }
  }
}

TEST_CASE("sat-program: --method sat proves exactly the files the enumerating check verifies") {
  REQUIRE_MESSAGE(circuits::sat::find_solver("cadical"), "cadical is not on PATH");
  int verified = 0, failed = 0;
  const auto vs = variants(2);
  for (const auto& v : vs)
    for (const auto& given : {dom_params("orders", 2), dom_params("subsets")}) {
      if (given.at("domain") == "subsets" && &v != &vs.front()) continue;  // subsets (9 lengths): the exported file only
      INFO(v.name << " " << given.at("domain"));
      const ProgramFile pf = program_from_json(v.file, "test");
      DomainOptions o;
      o.force_exhaustive = true;
      const Report r = run_program_check(pf, "test", "sd", given, o);
      const bool enum_ok = r.exit_code() == 0;
      SatOptions so;
      so.threads = 1;
      const SatOutcome s = run_program_sat(pf, "test", "sd", given, so);
      CHECK(s.report["instances"] == r.instances);
      CHECK(s.verdict == (enum_ok ? "proved" : "refuted"));
      (enum_ok ? verified : failed)++;
      if (s.counterexample) {
        const auto& ci = s.counterexample->instance;
        CHECK(ci["from"] == "the SAT model");
        CHECK(program_failure(pf, sd::Instance{2, ci["A"].get<std::vector<std::uint32_t>>(), ci["B"].get<std::vector<std::uint32_t>>()})
                  .has_value());
      }
    }
  CHECK(verified > 0);
  CHECK(failed > 0);
  // Beyond enumeration: the exported file at n = 8 (2.8e14 instances).
  SatOptions so;
  so.threads = 1;
  const SatOutcome big = run_program_sat(program_from_json(exported(8, "fixed", "jrt"), "test"), "test", "sd", dom_params("orders"), so);
  CHECK(big.verdict == "proved");
  CHECK(big.report["instances"] == 277111189275649LL);
}

TEST_CASE("sat-program: a division by an input-dependent value is refused with its reason") {
  const json bad = mutate(exported(2, "fixed", "jrt"), R"({"set":"isep","value":"i"})", R"({"set":"isep","value":{"div":["i",{"col":0}]}})");
  const ProgramFile pf = program_from_json(bad, "bad.json");
  SatOptions so;
  so.threads = 1;
  try {
    run_program_sat(pf, "bad.json", "sd", {}, so);
    FAIL("not refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("division by a value that depends on the input") != std::string::npos);
  }
}
