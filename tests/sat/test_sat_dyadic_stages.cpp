// mqar/dyadic's circuit proved by stages (constructions/mqar/dyadic_stages.h):
//   - proved for fixed and merge in every encoding at n = 4 and 8, and through `verify --method
//     sat` (strategy "stages" in the report), where the monolithic miter proves too;
//   - never a proof for a wrong circuit: the E1/E6 variants and both mutants are not proved
//     (differential: at n = 4, c = 4 the stages prove exactly the configurations the exhaustive
//     enumeration verifies), and --method sat still refutes them through the fallback;
//   - a trace that does not describe the circuit is never a proof: answers swapped, a routing
//     step with another swap bit, a value row from another triple, a comparator dropped, a good
//     trace over a mutant's circuit;
//   - pbs blocks call by call (dyadic_pbs_stages.h, issue 38): the same differential, the same
//     tampered traces and tampered pbs calls (results of two queries exchanged, a key range from
//     another call, a mid moved, a call dropped) never a proof;
//   - every hypothesis of a pbs obligation (the order facts, issue 48's across queries included)
//     holds on the circuit's own values: the facts flipped, 67 checks fail.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "app/engine/sat/sat_path.h"
#include "circuits/eval.h"
#include "circuits/gadgets_bits.h"
#include "circuits/sat/cut_cone.h"
#include "constructions/mqar/dyadic_block.h"
#include "constructions/mqar/dyadic_pbs_stages.h"
#include "constructions/mqar/dyadic_check.h"
#include "constructions/mqar/dyadic_stages.h"
#include "tasks/mqar_domain.h"
#include "util/error.h"
#include "app/engine/engine.h"

using namespace cz;
using namespace cz::mqarc;
namespace sat = cz::circuits::sat;
using St = DyStageResult::Status;

namespace {

DyadicConfig config(std::size_t n, mqar::Encoding enc, std::size_t c, DyVariant v = DyVariant::PbsFixed) {
  DyadicConfig cfg;
  cfg.n = n;
  cfg.codec = mqar::make_codec(enc, c, 2);
  cfg.variant = v;
  cfg.found_output = enc == mqar::Encoding::Binary;
  return cfg;
}

// pbs: blocks of at least this many queries are proved call by call (0: never).
DyStageResult stages(const circuits::Circuit& c, const DyadicTrace& t, const DyadicConfig& cfg, std::size_t split = 4,
                     std::size_t pbs = 0) {
  const auto cad = sat::find_solver("cadical");
  REQUIRE_MESSAGE(cad, "cadical is not on PATH (scripts/setup.sh installs it)");
  DyStageOptions o;
  o.timeout_s = 120;
  o.split_block = split;
  o.pbs_call_block = pbs;
  return prove_dyadic_stages(c, t, cfg, *cad, o);
}

DyStageResult stages(const DyadicConfig& cfg, std::size_t split = 4, std::size_t pbs = 0) {
  DyadicTrace t;
  const DyadicCircuit dc = build_dyadic(cfg, &t);
  return stages(*dc.circuit, t, cfg, split, pbs);
}

// Every instance of the domain (n = 4, c = 4: 1.5e6 for binary) through the enumerating check.
bool verifies(const DyadicConfig& cfg) {
  auto dc = std::make_shared<const DyadicCircuit>(build_dyadic(cfg));
  return run_domain(dyadic_check(mqar::triples_exhaustive(cfg.n, cfg.codec.c), dc, cfg.codec), 2, "dyadic").failed == 0;
}

}  // namespace

TEST_CASE("dyadic stages: proved in every encoding, both block searches") {
  for (auto [enc, c] : std::vector<std::pair<mqar::Encoding, std::size_t>>{
           {mqar::Encoding::Binary, 5}, {mqar::Encoding::OneHot, 8}, {mqar::Encoding::PHot, 9}})
    for (auto v : {DyVariant::PbsFixed, DyVariant::Merge})
      for (std::size_t n : {4, 8}) {
        const DyadicConfig cfg = config(n, enc, std::max<std::size_t>(c, n), v);
        INFO(mqar::to_string(enc) << " " << to_string(v) << " n=" << n);
        const DyStageResult r = stages(cfg);
        CHECK_MESSAGE(r.status == St::Proved, r.why);
        CHECK(r.blocks == n - 1);
        CHECK(r.leaf_words == 2 * n);
      }
  // Blocks as one miter each, or one miter per query: the same verdict, more miters.
  const DyadicConfig cfg = config(8, mqar::Encoding::Binary, 8);
  const DyStageResult whole = stages(cfg, 1000), each = stages(cfg, 1);
  CHECK(whole.status == St::Proved);
  CHECK(each.status == St::Proved);
  CHECK(each.miters > whole.miters);
}

TEST_CASE("dyadic stages: a proof exactly where enumeration verifies (n = 4, c = 4)") {
  struct Case {
    DyVariant v;
    DyPrefix prefix;
    DyMutant mutant;
  };
  std::size_t wrong = 0;
  for (const Case& k : std::vector<Case>{{DyVariant::PbsFixed, DyPrefix::Msb, DyMutant::None},
                                         {DyVariant::Merge, DyPrefix::Msb, DyMutant::None},
                                         {DyVariant::PbsPaper, DyPrefix::Msb, DyMutant::None},
                                         {DyVariant::PbsDeadZero, DyPrefix::Msb, DyMutant::None},
                                         {DyVariant::PbsFixed, DyPrefix::Lsb, DyMutant::None},
                                         {DyVariant::Merge, DyPrefix::Lsb, DyMutant::None},
                                         {DyVariant::PbsFixed, DyPrefix::Msb, DyMutant::FlipComparator},
                                         {DyVariant::PbsFixed, DyPrefix::Msb, DyMutant::BlockOffByOne},
                                         {DyVariant::Merge, DyPrefix::Msb, DyMutant::BlockOffByOne},
                                         {DyVariant::PbsFixed, DyPrefix::Msb, DyMutant::PbsTopFromOne}}) {
    DyadicConfig cfg = config(4, mqar::Encoding::OneHot, 4, k.v);
    cfg.prefix = k.prefix;
    cfg.mutant = k.mutant;
    const bool ok = verifies(cfg);
    const DyStageResult r = stages(cfg), whole = stages(cfg, 1000), calls = stages(cfg, 4, 1);
    CHECK((whole.status == St::Proved) == ok);
    INFO(to_string(k.v) << " prefix " << (k.prefix == DyPrefix::Msb ? "msb" : "lsb") << " mutant " << static_cast<int>(k.mutant)
                        << ": " << r.why << " / call by call: " << calls.why);
    CHECK((r.status == St::Proved) == ok);
    CHECK((calls.status == St::Proved) == ok);
    if (k.v != DyVariant::Merge && calls.status != St::NotRecognised) CHECK(calls.pbs_blocks == 3);
    if (!ok) {
      ++wrong;
      CHECK(r.status != St::Undecided);  // a local miter SAT or the structure refused, not a time-out
    }
  }
  CHECK(wrong == 8);  // E1 (paper, dead-zero), E6 (twice) and four mutants: each is wrong here
}

TEST_CASE("dyadic stages: a trace that does not describe the circuit is never a proof") {
  const DyadicConfig cfg = config(8, mqar::Encoding::Binary, 16);
  DyadicTrace good;
  const DyadicCircuit dc = build_dyadic(cfg, &good);
  REQUIRE(stages(*dc.circuit, good, cfg).status == St::Proved);
  auto expect_no_proof = [&](const DyadicTrace& t, const char* what) {
    const DyStageResult r = stages(*dc.circuit, t, cfg);
    INFO(what << ": " << r.why);
    CHECK(r.status != St::Proved);
  };
  {
    DyadicTrace t = good;  // the top block's first two answers swapped
    std::swap(t.nodes[0].res[0], t.nodes[0].res[1]);
    expect_no_proof(t, "answers swapped");
  }
  {
    DyadicTrace t = good;  // a routing-back step driven by another comparator's swap bit
    for (auto& nd : t.nodes)
      if (nd.unroute.size() >= 2) {
        std::swap(nd.unroute[0].s, nd.unroute[1].s);
        break;
      }
    expect_no_proof(t, "swap bits exchanged");
  }
  {
    DyadicTrace t = good;  // triple 0's value row read from triple 1
    t.vw[0] = t.vw[1];
    expect_no_proof(t, "value row of another triple");
  }
  {
    DyadicTrace t = good;  // one comparator of the largest key merge dropped
    auto& km = t.nodes[static_cast<std::size_t>(dyadic_tree(8, DyPrefix::Msb)[0].left)].key_merge;
    REQUIRE(km.size() > 1);
    km.erase(km.begin());
    expect_no_proof(t, "comparator dropped");
  }
  {
    DyadicConfig bad = cfg;  // the good trace over the flipped-comparator mutant's circuit
    bad.mutant = DyMutant::FlipComparator;
    const DyadicCircuit mc = build_dyadic(bad);
    const DyStageResult r = stages(*mc.circuit, good, cfg);
    INFO(r.why);
    CHECK(r.status != St::Proved);
  }
}

// The call-by-call proof assumes "keys ascending" with lits_less_gadget while the key sort stage
// proves integer order: the comparators must be integer order, bit for bit (LSB first). On
// constant literals Gates folds each to its value, so this walks the formula itself.
TEST_CASE("dyadic stages: the miters' word comparisons are integer order") {
  for (std::size_t w = 1; w <= 5; ++w)
    for (unsigned x = 0; x < (1u << w); ++x)
      for (unsigned y = 0; y < (1u << w); ++y) {
        sat::Cnf cnf;
        sat::Gates g(cnf);
        std::vector<int> a, b;
        for (std::size_t k = 0; k < w; ++k) a.push_back((x >> k) & 1 ? g.t() : g.f()), b.push_back((y >> k) & 1 ? g.t() : g.f());
        INFO("w=" << w << " x=" << x << " y=" << y);
        CHECK(sat::lits_less_gadget(g, a, b) == (x < y ? g.t() : g.f()));
        CHECK(sat::lits_less(g, a, b) == (x < y ? g.t() : g.f()));
        CHECK(sat::lits_equal(g, a, b) == (x == y ? g.t() : g.f()));
      }
}

TEST_CASE("dyadic stages: pbs blocks call by call") {
  // n = 16: the top block has 8 queries; every block call by call, or only the top one.
  const DyadicConfig cfg = config(16, mqar::Encoding::Binary, 64);
  DyadicTrace good;
  const DyadicCircuit dc = build_dyadic(cfg, &good);
  const DyStageResult all = stages(*dc.circuit, good, cfg, 4, 1), top = stages(*dc.circuit, good, cfg, 4, 8);
  CHECK_MESSAGE(all.status == St::Proved, all.why);
  CHECK_MESSAGE(top.status == St::Proved, top.why);
  CHECK(all.pbs_blocks == 15);
  CHECK(top.pbs_blocks == 1);
  // The top block: 8 answers, one miter per call and query below it, i.e. 1 + the query's depth
  // in the recursion (mids 3; 1, 5; 0, 2, 4, 6; 7): 1 + 2·2 + 4·3 + 4 = 21, and the order lemmas.
  CHECK(top.pbs_obligations == 8 + 21 + 1);
  CHECK(all.miters > top.miters);
  auto expect_no_proof = [&](const DyadicTrace& t, const char* what) {
    const DyStageResult r = stages(*dc.circuit, t, cfg, 4, 8);
    INFO(what << ": " << r.why);
    CHECK(r.status != St::Proved);
  };
  auto& calls = good.nodes[0].pbs_calls;
  REQUIRE(calls.size() == 8);
  const std::size_t topc = calls.size() - 1;  // post-order: the top call last
  REQUIRE(calls[topc].t - calls[topc].s == 8);
  {
    DyadicTrace t = good;  // the top call's results of two queries exchanged
    std::swap(t.nodes[0].pbs_calls[topc].C[1], t.nodes[0].pbs_calls[topc].C[6]);
    expect_no_proof(t, "results exchanged");
  }
  {
    DyadicTrace t = good;  // a call's key range taken from its sibling
    auto& cs = t.nodes[0].pbs_calls;
    std::size_t a = cs.size(), b = cs.size();
    for (std::size_t k = 0; k < cs.size(); ++k)
      if (cs[k].t - cs[k].s == 1) (a == cs.size() ? a : b) = k;
    REQUIRE(b < cs.size());
    std::swap(cs[a].X, cs[b].X);
    expect_no_proof(t, "key range of another call");
  }
  {
    DyadicTrace t = good;  // the top call's mid moved
    t.nodes[0].pbs_calls[topc].mid += 1;
    expect_no_proof(t, "mid moved");
  }
  {
    DyadicTrace t = good;  // a call dropped
    t.nodes[0].pbs_calls.erase(t.nodes[0].pbs_calls.begin());
    expect_no_proof(t, "call dropped");
  }
  {
    DyadicConfig bad = cfg;  // the good trace over a mutant's circuit (every key range off by one)
    bad.mutant = DyMutant::BlockOffByOne;
    DyadicTrace mt;
    const DyadicCircuit mc = build_dyadic(bad, &mt);
    const DyStageResult r = stages(*mc.circuit, mt, bad, 4, 8);
    INFO(r.why);
    CHECK(r.status != St::Proved);
  }
  {
    // Every block's top call searching from key 1 (its own trace, every block call by call): each
    // call's obligation holds under Pre, so only the obligation on the top call's key range (x = 0,
    // y+1 = m on the circuit's wires) can refute it.
    DyadicConfig bad = cfg;
    bad.mutant = DyMutant::PbsTopFromOne;
    DyadicTrace mt;
    const DyadicCircuit mc = build_dyadic(bad, &mt);
    const DyStageResult r = stages(*mc.circuit, mt, bad, 4, 1);
    INFO(r.why);
    CHECK(r.status == St::Failed);
    CHECK(r.why.find("key range") != std::string::npos);
  }
}

TEST_CASE("dyadic stages: verify --method sat takes them by default and falls back for wrong circuits") {
  REQUIRE(sat::find_solver("cadical"));
  SatOptions o;
  o.threads = 1;
  const Construction& dy = find_construction("mqar/dyadic");
  SatOutcome r = run_verify_sat(dy, {{"n", "8"}, {"c", "16"}}, o);
  CHECK(r.verdict == "proved");
  CHECK(r.report["sat"]["strategy"] == "stages");
  CHECK(r.report["sat"]["stages"]["blocks"] == 7);
  o.strategy = "monolithic";
  SatOutcome m = run_verify_sat(dy, {{"n", "8"}, {"c", "16"}}, o);
  CHECK(m.verdict == "proved");
  CHECK(m.report["sat"]["strategy"] == "monolithic");
  o.strategy = "auto";
  SatOutcome p = run_verify_sat(dy, {{"n", "8"}, {"c", "16"}, {"variant", "paper"}}, o);
  CHECK(p.verdict == "refuted");
  REQUIRE(p.counterexample);
  CHECK(p.report["sat"]["stages"]["failed"].get<std::string>().find("block") != std::string::npos);
  o.strategy = "stages";
  CHECK_THROWS_AS(run_verify_sat(dy, {{"n", "4"}, {"c", "4"}, {"queries", "each"}}, o), InputError);
}

// Every hypothesis of a pbs obligation (dyadic_pbs_stages.h) must hold on the circuit's own values:
// a fact that is not an instance of integer order (say [K_j < Q_p] => [K_j < Q_p'] with p' < p)
// would make some obligation vacuous, i.e. a proof of nothing. So on every input of a standalone
// block (8 keys, 8 queries, 4-bit words) with keys strictly ascending and queries ascending, each
// obligation's CNF without its last clause (the unit "it fails"), its free variables fixed to the
// wires' values, must be satisfiable; with that clause, unsatisfiable (it holds there).
TEST_CASE("dyadic stages: pbs obligations' hypotheses hold on the circuit's values") {
  namespace g = cz::circuits::gadgets;
  constexpr std::size_t kW = 4, m = 8;
  circuits::Builder b;
  std::vector<dy::Rec> Qs, Ks;
  for (std::size_t i = 0; i < m; ++i) Qs.push_back({g::input_bits(b, "q" + std::to_string(i), kW), {}});
  for (std::size_t j = 0; j < m; ++j) Ks.push_back({g::input_bits(b, "k" + std::to_string(j), kW), g::input_bits(b, "v" + std::to_string(j), 1)});
  std::vector<PbsCallTrace> calls;
  const std::vector<dy::Bits> res = block_pbs(b, Qs, Ks, PbsVariant::Fixed, nullptr, &calls);
  for (const auto& w : res)
    for (auto x : w) b.output("r", x);
  const circuits::Circuit c = std::move(b).finish();
  std::vector<std::vector<circuits::Wire>> K, Q;
  for (const auto& k : Ks) {
    K.push_back(k.key);
    K.back().insert(K.back().end(), k.load.begin(), k.load.end());
  }
  for (const auto& q : Qs) Q.push_back(q.key);
  std::vector<PbsObligation> obs;  // with the facts across queries, then as before them
  for (bool across : {true, false}) {
    const std::string why = pbs_call_obligations(c, K, kW, Q, calls, res, across ? "block" : "block (within)", obs, across);
    REQUIRE_MESSAGE(why.empty(), why);
  }
  REQUIRE(obs.size() > 4 * m);
  const auto cad = sat::find_solver("cadical");
  REQUIRE(cad);
  const circuits::Evaluator<RingI64> ev(RingI64{}, c);
  std::mt19937_64 rng(48);
  std::size_t checked = 0;
  for (int round = 0; round < 6; ++round) {
    // Keys: 8 distinct of 0..15 ascending; queries: 8 of 0..15 ascending (repeats allowed), drawn
    // near the keys so that equal, between and outside all occur.
    std::vector<int> keys(16);
    std::iota(keys.begin(), keys.end(), 0);
    std::shuffle(keys.begin(), keys.end(), rng);
    keys.resize(m);
    std::sort(keys.begin(), keys.end());
    std::vector<int> qs;
    for (std::size_t i = 0; i < m; ++i) qs.push_back(rng() % 3 == 0 ? keys[rng() % m] : static_cast<int>(rng() % 16));
    std::sort(qs.begin(), qs.end());
    std::vector<std::int64_t> in;
    for (int x : qs)
      for (std::size_t t = 0; t < kW; ++t) in.push_back((x >> t) & 1);
    for (std::size_t j = 0; j < m; ++j) {
      for (std::size_t t = 0; t < kW; ++t) in.push_back((keys[j] >> t) & 1);
      in.push_back(static_cast<std::int64_t>(rng() & 1));
    }
    std::vector<std::int64_t> v;
    ev.eval_all(in, v);
    for (const PbsObligation& ob : obs) {
      if (ob.cut.empty()) continue;  // the order lemmas: free words, no wires
      INFO(ob.what << " keys " << keys[0] << ".." << keys[m - 1] << " round " << round);
      sat::Cnf hyp = ob.cnf;
      REQUIRE(hyp.lits.size() >= 2);
      REQUIRE(hyp.lits.back() == 0);
      const int bad = hyp.lits[hyp.lits.size() - 2];
      REQUIRE((hyp.lits.size() == 2 || hyp.lits[hyp.lits.size() - 3] == 0));  // a unit clause
      hyp.lits.resize(hyp.lits.size() - 2);
      --hyp.num_clauses;
      for (const auto& [id, lit] : ob.cut) {
        REQUIRE((v[id] == 0 || v[id] == 1));
        hyp.add({v[id] == 1 ? lit : -lit});
      }
      CHECK(sat::solve(*cad, hyp, 60).answer == sat::Answer::Sat);
      hyp.add({bad});
      CHECK(sat::solve(*cad, hyp, 60).answer == sat::Answer::Unsat);
      ++checked;
    }
  }
  CHECK(checked >= 6 * 4 * m);
}
