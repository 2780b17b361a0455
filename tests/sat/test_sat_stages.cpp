// --method sat on circuit/sort by stages (circuits/sat/sort_stages.h, app/engine/sat/sat_stages.h):
//   - proved at small n exactly where the monolithic miter proves, both networks, both 0-1 checks;
//   - mutants built here with their own traces: a comparator whose swap condition is inverted,
//     one that does not swap the payload, Batcher n=8 with one comparator removed; each is caught
//     by the step that must catch it and comes back refuted with a counterexample that fails this
//     file's own plain check of the circuit evaluated exactly;
//   - a trace that does not describe the circuit is not recognised (never a proof);
//   - the 0-1 check's two methods agree on random networks, and every failing vector is unsorted.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "app/engine/sat/sat_problem.h"
#include "app/engine/sat/sat_stages.h"
#include "circuits/builder.h"
#include "circuits/eval.h"
#include "circuits/gadgets_bits.h"
#include "circuits/gadgets_sort.h"
#include "circuits/reference/sort_ref.h"
#include "circuits/sat/sort_stages.h"
#include "constructions/circuits/sort_build.h"

using namespace cz;
namespace sat = cz::circuits::sat;
namespace g = cz::circuits::gadgets;
using St = sat::StageResult::Status;

namespace {

enum class Mutant { None, Inverted, NoPayloadSwap, PassThrough };

struct Traced {
  std::shared_ptr<const circuits::Circuit> c;
  g::NetworkTrace trace;
};

// A comparator network on n keys of d bits with index payloads, built here (not by gadgets_sort)
// so that comparator `bad` can be a mutant; outputs and trace as circuit/sort has them.
Traced build(std::size_t n, std::size_t d, const g::Network& net, std::size_t bad = ~std::size_t{0}, Mutant kind = Mutant::None) {
  const std::size_t w = circ::sort_payload_bits(n);
  circuits::Builder b;
  std::vector<g::Item> pos;
  for (std::size_t i = 0; i < n; ++i) pos.push_back({g::input_bits(b, "k" + std::to_string(i), d), g::const_bits(b, i, w)});
  Traced t;
  t.trace.initial = pos;
  for (std::size_t k = 0; k < net.size(); ++k) {
    auto [i, j] = net[k];
    const g::Item x = pos[i], y = pos[j];
    circuits::Wire s = g::less_than(b, x.key, y.key);
    if (k == bad && kind == Mutant::Inverted) s = g::not_(b, s);
    g::Item lo{g::mux_bits(b, s, x.key, y.key), g::mux_bits(b, s, x.payload, y.payload)};
    g::Item hi{g::mux_bits(b, s, y.key, x.key), g::mux_bits(b, s, y.payload, x.payload)};
    if (k == bad && kind == Mutant::NoPayloadSwap) lo.payload = x.payload, hi.payload = y.payload;
    if (k == bad && kind == Mutant::PassThrough) lo = x, hi = y;  // no comparator at all
    pos[i] = lo, pos[j] = hi;
    t.trace.steps.push_back({i, j, lo, hi});
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < d; ++k) b.output("key" + std::to_string(i) + "[" + std::to_string(k) + "]", pos[i].key[k]);
    for (std::size_t k = 0; k < w; ++k) b.output("idx" + std::to_string(i) + "[" + std::to_string(k) + "]", pos[i].payload[k]);
  }
  t.c = std::make_shared<const circuits::Circuit>(std::move(b).finish());
  return t;
}

// This file's own plain check: the circuit evaluated exactly on the task input bits (k0[0..d),
// k1[...], ...) must give the sorted keys and an index permutation with key[idx[i]] = sorted[i].
bool sorts(const circuits::Circuit& c, std::size_t n, std::size_t d, const std::vector<std::int64_t>& in) {
  const std::size_t w = circ::sort_payload_bits(n);
  const std::vector<Int> got = circuits::eval_integer(c, in);
  std::vector<std::uint64_t> key(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t b = 0; b < d; ++b) key[i] |= static_cast<std::uint64_t>(in[i * d + b]) << b;
  std::vector<std::uint64_t> sorted = key;
  std::sort(sorted.begin(), sorted.end());
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t k = 0, ix = 0;
    for (std::size_t b = 0; b < d; ++b) k |= static_cast<std::uint64_t>(got[i * (d + w) + b] == Int(1)) << b;
    for (std::size_t b = 0; b < w; ++b) ix |= static_cast<std::uint64_t>(got[i * (d + w) + d + b] == Int(1)) << b;
    if (k != sorted[i] || ix >= n || seen[ix] || key[ix] != k) return false;
    seen[ix] = true;
  }
  return true;
}

SatProblem problem(const Traced& t, std::size_t n, std::size_t d) {
  SatProblem pr;
  pr.artifact = t.c;
  pr.checker = circuits::reference::sort_checker(n, d, sat_output_names(*t.c), "test");
  pr.instances = sat_power(Int(2), n * d);
  pr.domain_text = "test";
  pr.confirm = [a = t.c, n, d, names = sat_task_input_names(pr.checker)](const std::vector<int>& bits) -> std::optional<Failure> {
    const auto in = sat_artifact_inputs(*a, names, bits);
    if (sorts(*a, n, d, in)) return std::nullopt;
    Failure f;
    f.input = in;
    return f;
  };
  return pr;
}

sat::StageResult stages(const Traced& t, std::size_t n, std::size_t d, const std::string& zero_one = "auto") {
  const auto cadical = sat::find_solver("cadical");
  REQUIRE_MESSAGE(cadical, "cadical is not on PATH (scripts/setup.sh installs it)");
  sat::StageOptions o;
  o.zero_one = zero_one;
  return sat::prove_sort_stages(*t.c, t.trace, {n, d, circ::sort_payload_bits(n)}, *cadical, o);
}

// The engine's verdict by stages, and for a refutation: its counterexample fails the plain check.
SatOutcome by_stages(const Traced& t, std::size_t n, std::size_t d) {
  SatProblem pr = problem(t, n, d);
  SatOptions o;
  o.threads = 1;
  return sat_sort_by_stages(pr, t.trace, n, d, o, nlohmann::json::object());
}

SatOutcome refuted_for_real(const Traced& t, std::size_t n, std::size_t d) {
  SatOutcome out = by_stages(t, n, d);
  CHECK(out.verdict == "refuted");
  CHECK(out.exit_code == 1);
  REQUIRE(out.counterexample);
  const auto in = out.counterexample->input.get<std::vector<std::int64_t>>();
  CHECK_FALSE(sorts(*t.c, n, d, in));
  return out;
}

}  // namespace

TEST_CASE("sat stages: proved where the monolithic miter proves, both networks") {
  const std::pair<std::size_t, std::size_t> sizes[] = {{1, 1}, {2, 1}, {3, 1}, {5, 1}, {8, 1}, {2, 3}, {5, 3}, {6, 2}};
  for (const char* net : {"oddeven", "bitonic"})
    for (auto [n, d] : sizes) {
      CAPTURE(net);
      CAPTURE(n);
      CAPTURE(d);
      std::map<std::string, std::string> p{{"n", std::to_string(n)}, {"d", std::to_string(d)}, {"network", net}};
      SatOptions o;
      o.threads = 1;
      o.strategy = "stages";
      const SatOutcome s = run_verify_sat(find_construction("circuit/sort"), p, o);
      CHECK(s.verdict == "proved");
      CHECK(s.report["sat"]["strategy"] == "stages");
      CHECK(s.report["sat"]["method"] == "0-1 principle");
      CHECK(s.report["sat"]["stages"]["local_miters"] == s.report["sat"]["stages"]["comparators"]);
      CHECK(s.report["instances"] == (std::int64_t{1} << (n * d)));
      o.strategy = "monolithic";
      const SatOutcome m = run_verify_sat(find_construction("circuit/sort"), p, o);
      CHECK(m.verdict == s.verdict);
      CHECK(m.report["sat"]["strategy"] == "monolithic");
      CHECK(m.report["domain_description"] == s.report["domain_description"]);
    }
}

TEST_CASE("sat stages: the construction's traced circuit is recognised and both 0-1 checks prove it") {
  for (bool bitonic : {false, true})
    for (std::size_t n : {7, 16}) {
      g::NetworkTrace t;
      Traced tr{std::make_shared<const circuits::Circuit>(circ::build_sort_circuit(n, 2, bitonic, &t)), t};
      const sat::StageStructure st = sat::check_sort_structure(*tr.c, t, {n, 2, circ::sort_payload_bits(n)});
      CHECK_MESSAGE(st.ok, st.why);
      for (const char* z : {"exhaustive", "sat"}) {
        const sat::StageResult r = stages(tr, n, 2, z);
        CHECK_MESSAGE(r.status == St::Proved, r.why);
        CHECK(r.zero_one_method == z);
      }
    }
}

TEST_CASE("sat stages: an inverted swap condition fails its local miter and is refuted") {
  const auto net = g::odd_even_merge_pairs(6);
  for (std::size_t bad : {std::size_t{0}, net.size() / 2, net.size() - 1}) {
    CAPTURE(bad);
    const Traced t = build(6, 2, net, bad, Mutant::Inverted);
    const sat::StageResult r = stages(t, 6, 2);
    CHECK(r.status == St::LocalFailed);
    CHECK(r.failed_step == bad);
    const SatOutcome out = refuted_for_real(t, 6, 2);
    CHECK(out.report["sat"]["stages"]["failed"].get<std::string>().find("comparator " + std::to_string(bad)) == 0);
  }
}

TEST_CASE("sat stages: at 32 keys x 8 bits an inverted last comparator is refuted without the monolithic miter") {
  // The prefix miter finds a circuit input on which it misbehaves; nothing after it can mend it.
  const auto net = g::odd_even_merge_pairs(32);
  const Traced t = build(32, 8, net, net.size() - 1, Mutant::Inverted);
  const SatOutcome out = refuted_for_real(t, 32, 8);
  CHECK(out.report["sat"]["strategy"] == "stages");
  CHECK(out.report["sat"]["stages"]["prefix_miters"] == 1);
}

TEST_CASE("sat stages: a comparator wrong only on unreachable values is proved on the circuit's inputs") {
  // (0, 1) twice, the second a pass-through: its local miter is SAT (a.key > b.key for free
  // leaves), but after the first (0, 1) its inputs are always in order, so its prefix miter is
  // UNSAT and the proof goes on. The same pass-through in place of a needed comparator is refuted.
  g::Network net = g::odd_even_merge_pairs(4);
  net.insert(net.begin() + 1, net[0]);
  const Traced t = build(4, 3, net, 1, Mutant::PassThrough);
  const sat::StageResult r = stages(t, 4, 3);
  CHECK_MESSAGE(r.status == St::Proved, r.why);
  CHECK(r.prefix_miters == 1);
  CHECK(r.prefix_unsat == 1);
  CHECK(by_stages(t, 4, 3).verdict == "proved");
  const Traced needed = build(4, 3, g::odd_even_merge_pairs(4), 2, Mutant::PassThrough);
  CHECK(stages(needed, 4, 3).status == St::LocalFailed);
  refuted_for_real(needed, 4, 3);
}

TEST_CASE("sat stages: a comparator that does not swap the payload fails its local miter and is refuted") {
  const auto net = g::bitonic_pairs(8);
  for (std::size_t bad : {std::size_t{1}, net.size() - 2}) {
    CAPTURE(bad);
    const Traced t = build(8, 2, net, bad, Mutant::NoPayloadSwap);
    const sat::StageResult r = stages(t, 8, 2);
    CHECK(r.status == St::LocalFailed);
    CHECK(r.failed_step == bad);
    CHECK_FALSE(r.witness.empty());  // a lost index is never mended: the witness itself refutes
    CHECK(refuted_for_real(t, 8, 2).report["sat"]["strategy"] == "stages");
  }
}

TEST_CASE("sat stages: Batcher n=8 minus one comparator fails the 0-1 check and is refuted by its vector") {
  const auto full = g::odd_even_merge_pairs(8);
  for (std::size_t drop = 0; drop < full.size(); drop += 3) {  // every third: 0, 3, ..., 18 (the last)
    CAPTURE(drop);
    g::Network net = full;
    net.erase(net.begin() + static_cast<std::ptrdiff_t>(drop));
    const Traced t = build(8, 2, net);
    for (const char* z : {"exhaustive", "sat"}) {
      const sat::StageResult r = stages(t, 8, 2, z);
      CHECK(r.status == St::ZeroOneFailed);
      CHECK(r.zero_one_input.size() == 8);
    }
    const SatOutcome out = refuted_for_real(t, 8, 2);
    CHECK(out.report["sat"]["strategy"] == "stages");  // the 0-1 vector itself, no monolithic miter
  }
}

TEST_CASE("sat stages: a trace that does not describe the circuit is never a proof") {
  const auto full = g::odd_even_merge_pairs(8);
  g::Network less = full;
  less.pop_back();
  const Traced small = build(8, 2, less), whole = build(8, 2, full);
  // The full network's trace on the circuit that lacks its last comparator: the outputs are not
  // the traced final wires.
  const Traced lie{small.c, whole.trace};
  CHECK(stages(lie, 8, 2).status == St::NotRecognised);
  // A comparator's wires moved to other positions, an initial key bit that is not its input, a
  // sentinel that is not above the keys, a shape of another n: not recognised.
  Traced t = whole;
  std::swap(t.trace.steps[3].i, t.trace.steps[3].j);
  CHECK(stages(t, 8, 2).status != St::Proved);
  t = whole;
  std::swap(t.trace.initial[0].key[0], t.trace.initial[1].key[0]);
  CHECK(stages(t, 8, 2).status == St::NotRecognised);
  t = whole;
  t.trace.initial.push_back(t.trace.initial[0]);
  CHECK(stages(t, 8, 2).status == St::NotRecognised);
  CHECK(stages(whole, 7, 2).status == St::NotRecognised);
  // ... and the engine then falls back to the monolithic miter, which refutes the short network.
  SatProblem pr = problem(lie, 8, 2);
  SatOptions o;
  o.threads = 1;
  const SatOutcome out = sat_sort_by_stages(pr, lie.trace, 8, 2, o, nlohmann::json::object());
  CHECK(out.verdict == "refuted");
  CHECK(out.report["sat"]["strategy"] == "monolithic");
}

TEST_CASE("sat stages: the 0-1 check's exhaustive and SAT methods agree on random networks") {
  const auto cadical = sat::find_solver("cadical");
  REQUIRE(cadical);
  std::mt19937_64 rng(27);
  int caught = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 2 + rng() % 7, m = n + rng() % 3;
    g::Network net = trial % 2 ? g::odd_even_merge_pairs(m) : g::Network{};
    for (std::size_t k = rng() % 25; k-- > 0;) {
      std::size_t i = rng() % m, j = rng() % m;
      if (i != j) net.emplace_back(i, j);
    }
    CAPTURE(trial);
    const auto ex = sat::zero_one_counterexample(net, m, n, "exhaustive", *cadical, 60, 2);
    const auto sv = sat::zero_one_counterexample(net, m, n, "sat", *cadical, 60, 1);
    CHECK(ex.has_value() == sv.has_value());
    for (const auto& v : {ex, sv}) {
      if (!v) continue;
      ++caught;
      std::vector<int> x(m, 1);  // positions >= n held at 1
      std::copy(v->begin(), v->end(), x.begin());
      for (auto [i, j] : net) {
        const int a = x[i], b = x[j];
        x[i] = std::min(a, b), x[j] = std::max(a, b);
      }
      CHECK_FALSE(std::is_sorted(x.begin(), x.end()));
    }
  }
  CHECK(caught > 10);
}
