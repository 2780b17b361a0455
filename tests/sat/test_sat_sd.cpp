// --method sat for sd/recurrent-jrt (app/engine/sat/sat_sd.h), at sizes that take well under a second:
//   - the SD reference circuit (circuits/reference/sd_ref.h) equals src/tasks on every instance of
//     small domains, and its `domain` output holds on exactly the encodings of the domain's instances;
//   - the unrolled program (constructions/sd/alg3_circuit.h) gives the program's output rows and
//     bag size on every small instance (both thresholds, both prompts);
//   - proofs at small sizes and at n = 8; the paper threshold held to the fixed variant's state
//     bound (Errata E8) and a mutated step (program and circuit alike) refuted, each counterexample
//     confirmed by the construction's check; a circuit-only mutant is never reported (exit 3);
//   - differential: --method sat proves exactly the configurations enumeration verifies;
//   - the same for sd/via-gar with solver=via-sd (the reduction's Alg. 3 calls unrolled).
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "app/engine/engine.h"
#include "app/engine/sat/sat_sd.h"
#include "circuits/eval.h"
#include "circuits/reference/sd_ref.h"
#include "circuits/sat/solver.h"
#include "constructions/gar/sd_via_gar_circuit.h"
#include "constructions/gar/via_sd.h"
#include "constructions/sd/alg3_circuit.h"
#include "util/error.h"

using namespace cz;
namespace ref = cz::circuits::reference;

namespace {

std::vector<std::int64_t> bits_of(const sd::Instance& x) {
  const auto u = sd::encode(x);
  std::vector<std::int64_t> v;
  for (std::size_t r = 0; r < u.rows(); ++r)
    for (std::size_t j = 0; j < u.cols(); ++j) v.push_back(u(r, j));
  return v;
}

struct Dom {
  std::string kind;
  unsigned n;
  std::size_t kmax = 0, a = 0, b = 0;
  std::map<std::string, std::string> params() const {
    return {{"n", std::to_string(n)}, {"domain", kind}, {"kmax", std::to_string(kmax)}, {"a", std::to_string(a)}, {"b", std::to_string(b)}};
  }
};

sdc::SdDomain enumerated(const Dom& d) {
  const Construction& c = find_construction("sd/recurrent-jrt");
  DomainOptions o;
  o.force_exhaustive = true;
  return sdc::make_sd_domain(Params::parse(c.params, d.params()), o);
}

// The separator rows a domain allows at prompt length N (as sat_sd.cpp states them).
std::vector<std::size_t> seps_of(const Dom& d, std::size_t N) {
  const std::size_t U = std::size_t(1) << d.n, top = d.kind == "subsets" ? U : std::min(d.kmax, U);
  std::vector<std::size_t> s;
  for (std::size_t a = 0; a < N; ++a)
    if (d.kind == "sized" ? a == d.a && N == d.a + d.b + 1 : a <= top && N - 1 - a <= top) s.push_back(a);
  return s;
}

ref::SdBlockSpec block(const Dom& d, std::size_t N) {
  ref::SdBlockSpec s;
  s.n = d.n;
  s.N = N;
  s.seps = seps_of(d, N);
  s.increasing = d.kind != "orders";
  return s;
}

SatOutcome solve(const Dom& d, const sdc::RecurrentArtifact& art, const sdc::Alg3Rules& rules) {
  const Construction& c = find_construction("sd/recurrent-jrt");
  SatProblem pr = sat_sd_problem(Params::parse(c.params, d.params()), art, rules);
  SatOptions o;
  o.threads = 1;
  return solve_sat_problem(pr, o, nlohmann::json::object());
}

sdc::RecurrentArtifact artifact(unsigned n, const sdc::Alg3Rules& r, bool exact_state, bool jrt = true) {
  sdc::RecurrentArtifact art;
  art.n = n;
  art.rules = r;
  art.copies = jrt ? 2 : 1;
  art.program = jrt ? sdc::alg3_program(n, r) : sdc::store_first_program(n);
  art.exact_min_state = exact_state;
  return art;
}

// Mutants of the step, applied to the program and the circuit alike.
sdc::Alg3Rules compare_b_off_by_one() {
  auto r = sdc::alg3_rules(sdc::Alg3Threshold::Fixed);
  r.compare_b = [](std::size_t i, std::size_t N, std::size_t isep) { return i >= N + isep; };  // reads the separator too
  return r;
}
sdc::Alg3Rules store_b_short() {
  auto r = sdc::alg3_rules(sdc::Alg3Threshold::Fixed);
  r.store_b = [](std::size_t i, std::size_t N, std::size_t isep) { return i > isep + 1 && i < N; };  // skips B's first row
  return r;
}

bool require_cadical() {
  REQUIRE_MESSAGE(circuits::sat::find_solver("cadical"), "cadical is not on PATH (scripts/setup.sh installs it)");
  return true;
}

}  // namespace

TEST_CASE("sat-sd: the SD reference circuit equals src/tasks on every small instance") {
  for (const Dom& d : {Dom{"subsets", 2}, Dom{"orders", 2, 3}, Dom{"sized", 3, 0, 2, 3}, Dom{"orders", 1, 2}}) {
    INFO(d.kind << " n=" << d.n);
    const sdc::SdDomain dom = enumerated(d);
    std::map<std::size_t, circuits::Circuit> circ;
    for (std::uint64_t k = 0; k < dom.count; ++k) {
      const sd::Instance x = dom.instance(k);
      const std::size_t N = x.A.size() + x.B.size() + 1;
      if (!circ.count(N)) circ.emplace(N, ref::sd_reference_circuit(block(d, N)));
      const auto out = circuits::eval_integer(circ.at(N), bits_of(x));
      REQUIRE(out[0] == Int(1));                        // domain
      CHECK(out[1] == Int(sd::disjoint(x) ? 1 : 0));  // disjoint
      const auto common = sd::intersection(x);
      for (std::size_t r = 0; r < N; ++r) {
        bool want = false;
        if (r != x.A.size()) {
          const std::uint32_t e = r < x.A.size() ? x.A[r] : x.B[r - x.A.size() - 1];
          want = std::count(common.begin(), common.end(), e) > 0;
        }
        CHECK(out[2 + r] == Int(want ? 1 : 0));
      }
    }
  }
}

TEST_CASE("sat-sd: the reference's domain holds on exactly the encodings of the domain's instances") {
  // Every bit matrix of each prompt length: `domain` = 1 exactly as often as the enumeration has
  // instances of that length (and each such matrix is one of them, by the test above).
  for (const Dom& d : {Dom{"subsets", 1}, Dom{"orders", 1, 2}, Dom{"sized", 2, 0, 1, 1}, Dom{"orders", 2, 1}}) {
    INFO(d.kind << " n=" << d.n);
    const sdc::SdDomain dom = enumerated(d);
    std::map<std::size_t, std::uint64_t> want;
    for (std::uint64_t k = 0; k < dom.count; ++k) {
      const sd::Instance x = dom.instance(k);
      ++want[x.A.size() + x.B.size() + 1];
    }
    for (const auto& [N, count] : want) {
      const circuits::Circuit c = ref::sd_reference_circuit(block(d, N));
      const std::size_t w = N * (d.n + 1);
      REQUIRE(w <= 16);
      std::uint64_t got = 0;
      for (std::uint64_t m = 0; m < (std::uint64_t(1) << w); ++m) {
        std::vector<std::int64_t> in(w);
        for (std::size_t t = 0; t < w; ++t) in[t] = (m >> t) & 1;
        if (circuits::eval_integer(c, in)[0] == Int(1)) ++got;
      }
      CHECK_MESSAGE(got == count, "N = " << N);
    }
  }
}

TEST_CASE("sat-sd: the unrolled program gives the program's rows and bag on every small instance") {
  const std::vector<std::pair<sdc::Alg3Rules, bool>> programs = {{sdc::alg3_rules(sdc::Alg3Threshold::Fixed), true},
                                                                 {sdc::alg3_rules(sdc::Alg3Threshold::Paper), true},
                                                                 {compare_b_off_by_one(), true},
                                                                 {sdc::alg3_rules(sdc::Alg3Threshold::Fixed), false}};
  for (const Dom& d : {Dom{"subsets", 2}, Dom{"orders", 2, 3}}) {
    const sdc::SdDomain dom = enumerated(d);
    for (std::size_t pi = 0; pi < programs.size(); ++pi) {
      INFO(d.kind << " program " << pi);
      const auto& [rules, jrt] = programs[pi];
      const auto art = artifact(d.n, rules, true, jrt);
      std::map<std::size_t, std::pair<circuits::Circuit, std::size_t>> circ;
      for (std::uint64_t k = 0; k < dom.count; ++k) {
        const sd::Instance x = dom.instance(k);
        const std::size_t N = x.A.size() + x.B.size() + 1;
        if (!circ.count(N)) {
          sdc::UnrollSpec s;
          s.n = d.n, s.N = N, s.jrt = jrt, s.rules = rules;
          std::vector<std::size_t> slots;
          circuits::Circuit c = sdc::unrolled_alg3({s}, &slots);
          circ.emplace(N, std::make_pair(std::move(c), slots[0]));
        }
        const auto& [c, slots] = circ.at(N);
        const auto out = circuits::eval_integer(c, bits_of(x));
        const RecurrentRun run = run_recurrent(art.program, sd::repeat_prompt(sd::encode(x), art.copies));
        REQUIRE(run.output.rows() * (d.n + 1) + slots == out.size());
        bool same = true;
        for (std::size_t p = 0; p < run.output.rows(); ++p)
          for (std::size_t j = 0; j <= d.n; ++j) same = same && out[p * (d.n + 1) + j] == Int(run.output(p, j));
        std::size_t held = 0;
        for (std::size_t t = 0; t < slots; ++t) held += out[run.output.rows() * (d.n + 1) + t] == Int(1);
        CHECK(same);
        CHECK(held * d.n == run.bag_bits_max.at(0));
      }
    }
  }
}

TEST_CASE("sat-sd: proved at small sizes and at n = 8") {
  require_cadical();
  SatOptions o;
  o.threads = 1;
  const Construction& c = find_construction("sd/recurrent-jrt");
  SatOutcome r = run_verify_sat(c, {}, o);
  CHECK(r.verdict == "proved");
  CHECK(r.report["instances"] == 256);
  r = run_verify_sat(c, {{"n", "8"}, {"domain", "orders"}, {"kmax", "3"}}, o);
  CHECK(r.verdict == "proved");
  CHECK(r.report["instances"] == 277111189275649LL);  // (1 + 256 + 256·255 + 256·255·254)^2
  CHECK(r.report["domain_description"].get<std::string>().find("N = |A| + |B| + 1 in [1, 7]") != std::string::npos);
  r = run_verify_sat(c, {{"n", "8"}, {"domain", "sized"}, {"a", "4"}, {"b", "4"}}, o);
  CHECK(r.verdict == "proved");
  CHECK(r.report["instances"] == 30552466998169600LL);  // C(256,4)^2
  CHECK_THROWS_AS(run_verify_sat(c, {{"n", "5"}}, o), InputError);  // subsets beyond n = 4: too many lengths
}

TEST_CASE("sat-sd: the paper threshold held to the state bound, and a mutated step, are refuted and confirmed") {
  require_cadical();
  const Dom d{"orders", 3, 3};
  // Errata E8: with the bound n·min(|A|,|B|) the fixed variant is held to, the paper threshold fails
  // when |A| = |B| + 1 (it stores A).
  auto art = artifact(3, sdc::alg3_rules(sdc::Alg3Threshold::Paper), true);
  SatOutcome r = solve(d, art, art.rules);
  REQUIRE(r.verdict == "refuted");
  REQUIRE(r.counterexample);
  const auto& inst = r.counterexample->instance;
  CHECK(inst["from"] == "the SAT model");
  const sd::Instance x{3, inst["A"].get<std::vector<std::uint32_t>>(), inst["B"].get<std::vector<std::uint32_t>>()};
  CHECK(x.A.size() == x.B.size() + 1);
  CHECK(sdc::recurrent_failure(art, x).has_value());
  CHECK(r.counterexample->message.find("stored set holds") != std::string::npos);
  // Without the bound (variant=paper's own check) the answers are right: proved.
  art.exact_min_state = false;
  CHECK(solve(d, art, art.rules).verdict == "proved");
  // verify -p variant=paper --method sat: proved, and the bound refuted beside it (report and notes).
  SatOptions o;
  o.threads = 1;
  SatOutcome v = run_verify_sat(find_construction("sd/recurrent-jrt"), {{"variant", "paper"}, {"n", "8"}, {"domain", "orders"}}, o);
  CHECK(v.verdict == "proved");
  CHECK(v.report["sat"]["e8_state_bound"]["verdict"] == "refuted");
  const auto& e8 = v.report["sat"]["e8_state_bound"]["counterexample"]["instance"];
  CHECK(e8["A"].size() == e8["B"].size() + 1);

  // A mutated step in both the program and its circuit: the answer is wrong, and confirmed.
  for (const auto& rules : {compare_b_off_by_one(), store_b_short()}) {
    auto m = artifact(3, rules, true);
    r = solve(d, m, rules);
    REQUIRE(r.verdict == "refuted");
    const auto& ci = r.counterexample->instance;
    const sd::Instance y{3, ci["A"].get<std::vector<std::uint32_t>>(), ci["B"].get<std::vector<std::uint32_t>>()};
    CHECK(sdc::recurrent_failure(m, y).has_value());
    CHECK(!sdc::recurrent_failure(artifact(3, sdc::alg3_rules(sdc::Alg3Threshold::Fixed), true), y).has_value());
  }
  // A mutant of the circuit alone: its SAT model is an instance the program gets right, so it is
  // never reported (a bug of the path: std::runtime_error, exit 3).
  CHECK_THROWS_AS(solve(d, artifact(3, sdc::alg3_rules(sdc::Alg3Threshold::Fixed), true), compare_b_off_by_one()),
                  std::runtime_error);
}

TEST_CASE("sat-sd: --method sat proves exactly the configurations enumeration verifies") {
  require_cadical();
  const Construction& c = find_construction("sd/recurrent-jrt");
  // Artifacts: the construction's own (every variant and prompt) and mutants of its step.
  using Mutate = std::function<void(sdc::RecurrentArtifact&)>;
  const std::vector<std::pair<std::string, Mutate>> mutants = {
      {"as built", [](sdc::RecurrentArtifact&) {}},
      {"bound on the paper threshold", [](sdc::RecurrentArtifact& a) { a.exact_min_state = true; }},
      {"compare_b off by one",
       [](sdc::RecurrentArtifact& a) {
         if (a.copies == 2) a.rules = compare_b_off_by_one(), a.program = sdc::alg3_program(a.n, a.rules);
       }},
      {"store_b short",
       [](sdc::RecurrentArtifact& a) {
         if (a.copies == 2) a.rules = store_b_short(), a.program = sdc::alg3_program(a.n, a.rules);
       }}};
  int verified = 0, failed = 0;
  for (const Dom& d : {Dom{"subsets", 1}, Dom{"subsets", 2}, Dom{"orders", 2, 2}, Dom{"sized", 3, 0, 2, 1}, Dom{"sized", 3, 0, 1, 2},
                       Dom{"sized", 2, 0, 2, 2}})
    for (const char* variant : {"fixed", "paper"})
      for (const char* prompt : {"jrt", "plain"})
        for (const auto& [mname, mutate] : mutants) {
          auto given = d.params();
          given["variant"] = variant;
          given["prompt"] = prompt;
          INFO(d.kind << " n=" << d.n << " a=" << d.a << " b=" << d.b << " " << variant << " " << prompt << " " << mname);
          const Params p = Params::parse(c.params, given);
          Built bt = c.build(p);
          auto art = *std::static_pointer_cast<const sdc::RecurrentArtifact>(bt.state);
          mutate(art);
          bt.state = std::make_shared<const sdc::RecurrentArtifact>(art);
          DomainOptions dopt;
          dopt.force_exhaustive = true;
          const Check chk = c.check(p, bt, dopt);
          const RunResult e = run_domain(chk, 1, "differential");
          SatOptions o;
          o.threads = 1;
          const SatOutcome s = run_sd_sat(p, bt, o, nlohmann::json::object());
          CHECK(s.report["instances"] == chk.instances);  // the same domain, counted alike
          const bool enum_ok = !e.first.has_value();
          CHECK(s.verdict == (enum_ok ? "proved" : "refuted"));
          (enum_ok ? verified : failed)++;
          if (!enum_ok && s.counterexample) {
            const auto& ci = s.counterexample->instance;
            CHECK(sdc::recurrent_failure(art, sd::Instance{d.n, ci["A"].get<std::vector<std::uint32_t>>(),
                                                           ci["B"].get<std::vector<std::uint32_t>>()})
                      .has_value());
          }
        }
  CHECK(verified > 0);
  CHECK(failed > 0);
}

// sd/via-gar (solver=via-sd): Prop G.25 into Prop G.26's Alg. 3 calls, unrolled.
namespace {
SatOutcome solve_via_gar(const Dom& d, const sdc::Alg3Rules& circuit, const sdc::Alg3Rules& oracle) {
  const Construction& c = find_construction("sd/via-gar");
  auto given = d.params();
  given["solver"] = "via-sd";
  SatProblem pr = sat_sd_via_gar_problem(Params::parse(c.params, given), circuit, oracle);
  SatOptions o;
  o.threads = 1;
  return solve_sat_problem(pr, o, nlohmann::json::object());
}
}  // namespace

TEST_CASE("sat-sd: sd/via-gar unrolled gives the reduction's answer on every small instance") {
  for (const auto& rules : {sdc::alg3_rules(sdc::Alg3Threshold::Fixed), compare_b_off_by_one(), store_b_short()})
    for (const Dom& d : {Dom{"subsets", 2}, Dom{"orders", 2, 3}}) {
      const sdc::SdDomain dom = enumerated(d);
      const garc::GarSolver solver = garc::gar_solver_via(garc::recurrent_oracle(d.n, rules));
      std::map<std::size_t, circuits::Circuit> circ;
      for (std::uint64_t k = 0; k < dom.count; ++k) {
        const sd::Instance x = dom.instance(k);
        const std::size_t N = x.A.size() + x.B.size() + 1;
        if (!circ.count(N)) circ.emplace(N, garc::sd_via_gar_unrolled(d.n, rules, {{N, seps_of(d, N), ""}}));
        const auto out = circuits::eval_integer(circ.at(N), bits_of(x));
        std::set<std::uint32_t> flagged;
        for (std::size_t r = 0; r < N; ++r)
          if (out[r * (d.n + 1) + d.n] == Int(1)) {
            std::uint32_t e = 0;
            for (unsigned j = 0; j < d.n; ++j) e |= static_cast<std::uint32_t>(out[r * (d.n + 1) + j] == Int(1)) << j;
            flagged.insert(e);
          }
        const garc::SdViaGar want = garc::sd_via_gar(x, solver);
        CHECK(std::vector<std::uint32_t>(flagged.begin(), flagged.end()) == want.common);
      }
    }
}

TEST_CASE("sat-sd: sd/via-gar proved, mutants refuted and confirmed, and the same verdicts as enumeration") {
  require_cadical();
  SatOptions o;
  o.threads = 1;
  const Construction& c = find_construction("sd/via-gar");
  SatOutcome r = run_verify_sat(c, {{"solver", "via-sd"}, {"n", "8"}, {"domain", "orders"}}, o);
  CHECK(r.verdict == "proved");
  CHECK(r.report["instances"] == 277111189275649LL);
  CHECK(run_verify_sat(c, {}, o).verdict == "proved");  // solver=reference: Prop G.25 around the GAR reference (test_sat_reductions)
  const auto fixed = sdc::alg3_rules(sdc::Alg3Threshold::Fixed);
  // A circuit-only mutant is never reported.
  CHECK_THROWS_AS(solve_via_gar(Dom{"orders", 3, 3}, compare_b_off_by_one(), fixed), std::runtime_error);
  // Differential: per domain and oracle (the construction's and mutants, on both sides), SAT
  // proves exactly when every instance passes sd/via-gar's check.
  int verified = 0, failed = 0;
  for (const Dom& d : {Dom{"subsets", 2}, Dom{"orders", 2, 2}, Dom{"sized", 3, 0, 2, 1}, Dom{"sized", 3, 0, 1, 2}})
    for (const auto& rules : {fixed, compare_b_off_by_one(), store_b_short()}) {
      const sdc::SdDomain dom = enumerated(d);
      const garc::GarSolver solver = garc::gar_solver_via(garc::recurrent_oracle(d.n, rules));
      bool enum_ok = true;
      for (std::uint64_t k = 0; k < dom.count && enum_ok; ++k) enum_ok = !garc::sd_via_gar_failure(solver, dom.instance(k));
      const SatOutcome s = solve_via_gar(d, rules, rules);
      INFO(d.kind << " n=" << d.n);
      CHECK(s.verdict == (enum_ok ? "proved" : "refuted"));
      (enum_ok ? verified : failed)++;
      if (s.counterexample) {
        const auto& ci = s.counterexample->instance;
        CHECK(ci["from"] == "the SAT model");
        CHECK(garc::sd_via_gar_failure(solver, sd::Instance{d.n, ci["A"].get<std::vector<std::uint32_t>>(),
                                                             ci["B"].get<std::vector<std::uint32_t>>()})
                  .has_value());
      }
      if (rules.compare_b == fixed.compare_b && rules.store_b == fixed.store_b) {  // the registered check agrees
        auto given = d.params();
        given["solver"] = "via-sd";
        const Params p = Params::parse(c.params, given);
        DomainOptions dopt;
        dopt.force_exhaustive = true;
        CHECK(!run_domain(c.check(p, c.build(p), dopt), 1, "differential").first.has_value() == enum_ok);
      }
    }
  CHECK(verified > 0);
  CHECK(failed > 0);
}
