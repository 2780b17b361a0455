// The incremental SAT sweep (circuits/sat/sweep.h, issue 48 item 3) against the rounds of
// from-scratch miters and against exhaustive simulation, its passes, and its certified round:
//   - differential: seeded random circuits, each against a copy restructured in a way that keeps its
//     function (operations written otherwise, AND and XOR chains reassociated, every AND node
//     doubled) and against mutants of that copy (one operation changed; or XORed with a minterm of
//     the inputs, a difference random simulation rarely sees): SweepMode::Rounds and
//     SweepMode::Incremental give the same verdict, that verdict is exhaustive simulation's (every
//     input, through to_aig + eval64: a route that shares nothing with the sweep), and each
//     "differ" answer's witness makes the named output differ when both circuits are evaluated;
//   - the passes: mode "incremental", passes and calls counted; a conflict limit of 1 still proves
//     equal circuits, and on parity built as a chain against a tree it takes more than one pass;
//   - the certified round: under a hook that needs every answer and wants proofs, an equal pair is
//     proved by from-scratch miters whose DRAT proofs the hook checks (circuits/sat/drat_check.h);
//     under one that does not need every answer there is no such round;
//   - solve_by_goals on hand-made CNFs: a miter whose last clause is (x1 ∨ ¬x2), each goal
//     unsatisfiable given the rest, is Unsat with a DRAT refutation that checks, holding the unit
//     lemmas ¬x1 and x2 in the goals' order (with the sign of ¬x1 flipped, one byte, it does not
//     check); satisfiable ones give a model of the CNF, whichever goal is the satisfiable one.
//     (CaDiCaL 1.5.3 learns the unit ¬g itself when it refutes the assumption g, so the lemma that
//     solve_by_goals injects is redundant for its proofs; that the lemma is there is checked on
//     the last goal, whose unit only the injection writes.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "circuits/aig.h"
#include "circuits/aig_match.h"
#include "circuits/builder.h"
#include "circuits/gadgets_bits.h"
#include "circuits/sat/cadical_lib.h"
#include "circuits/sat/cnf.h"
#include "circuits/sat/drat_check.h"
#include "circuits/sat/incremental.h"
#include "circuits/sat/solve_hook.h"
#include "circuits/sat/solver.h"
#include "circuits/sat/sweep.h"
#include "tests/sat/sat_test_util.h"

using namespace cz;
namespace sat = cz::circuits::sat;
namespace g = cz::circuits::gadgets;
using circuits::Builder;
using circuits::Circuit;
using circuits::Wire;

namespace {

using test_sat::check;
using test_sat::doubled;
using test_sat::eval_at;
using test_sat::satisfies;

// CaDiCaL in this process (the incremental sweep and solve_by_goals need it); nullopt: skip.
std::optional<sat::SolverSpec> lib_spec() {
  if (!sat::cadical_library_linked()) return std::nullopt;
  std::optional<sat::SolverSpec> s = sat::find_solver("cadical");
  if (!s) return std::nullopt;
  s->in_process = true;
  return s;
}

std::uint64_t next(std::uint64_t& s) {
  s ^= s << 13, s ^= s >> 7, s ^= s << 17;
  return s;
}

// ---- random circuits ------------------------------------------------------------------------------

// One operation of a random circuit: operands index the pool (inputs, then earlier results), each
// possibly complemented.
struct Op {
  int kind = 0;  // 0 AND, 1 OR, 2 XOR, 3 MUX(x ? y : z), 4 AND3, 5 XOR3, 6 MAJ
  int x = 0, y = 0, z = 0;
  bool nx = false, ny = false, nz = false;
  bool alt = false;  // b writes it otherwise (the same function)
};

struct Program {
  int inputs = 0;
  std::vector<Op> ops;
  std::vector<int> outputs;  // pool indices
};

Program random_program(std::uint64_t seed) {
  std::uint64_t s = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
  next(s);
  Program p;
  p.inputs = 8 + static_cast<int>(next(s) % 7);          // 8..14
  const int n_ops = 150 + static_cast<int>(next(s) % 150);  // each 1 to 6 AIG nodes
  auto operand = [&](int pool) {
    // mostly recent results (depth), sometimes anything (reconvergence, inputs)
    if (next(s) % 3 == 0) return static_cast<int>(next(s) % static_cast<std::uint64_t>(pool));
    const int w = std::min(pool, 24);
    return pool - 1 - static_cast<int>(next(s) % static_cast<std::uint64_t>(w));
  };
  for (int k = 0; k < n_ops; ++k) {
    const int pool = p.inputs + k;
    Op o;
    o.kind = static_cast<int>(next(s) % 7);
    o.x = operand(pool), o.y = operand(pool), o.z = operand(pool);
    o.nx = next(s) & 1, o.ny = next(s) & 1, o.nz = next(s) & 1;
    o.alt = next(s) & 1;
    p.ops.push_back(o);
  }
  const int outs = 3 + static_cast<int>(next(s) % 4);
  for (int k = 0; k < outs; ++k) p.outputs.push_back(p.inputs + n_ops - 1 - 3 * k);
  return p;
}

// The ops the outputs depend on (indices into ops).
std::vector<int> cone_ops(const Program& p) {
  std::vector<char> need(static_cast<std::size_t>(p.inputs) + p.ops.size(), 0);
  for (int o : p.outputs) need[static_cast<std::size_t>(o)] = 1;
  std::vector<int> out;
  for (int k = static_cast<int>(p.ops.size()) - 1; k >= 0; --k) {
    if (!need[static_cast<std::size_t>(p.inputs + k)]) continue;
    out.push_back(k);
    const Op& o = p.ops[static_cast<std::size_t>(k)];
    for (int x : {o.x, o.y, o.z}) need[static_cast<std::size_t>(x)] = 1;
  }
  return out;
}

// How b differs from a (a mutant): op `at` gets `kind` (or its x operand complemented when kind < 0),
// or (minterm) its result XORed with the AND of every input, each in the polarity of bit i of `m`.
struct Mutation {
  int at = -1;
  int kind = -1;
  bool minterm = false;
  std::uint64_t m = 0;
};

// The program as a circuit: `restructured` writes each op marked alt otherwise (the same function).
Circuit realize(const Program& p, bool restructured, const Mutation& mu = {}) {
  Builder b;
  std::vector<Wire> pool;
  for (int i = 0; i < p.inputs; ++i) pool.push_back(b.input("x[" + std::to_string(i) + "]", circuits::Type::Bit));
  for (std::size_t k = 0; k < p.ops.size(); ++k) {
    Op o = p.ops[k];
    const bool mutated = static_cast<int>(k) == mu.at;
    if (mutated && !mu.minterm) {
      if (mu.kind < 0) o.nx = !o.nx;
      else o.kind = mu.kind;
    }
    auto lit = [&](int i, bool neg) { return neg ? g::not_(b, pool[static_cast<std::size_t>(i)]) : pool[static_cast<std::size_t>(i)]; };
    const Wire x = lit(o.x, o.nx), y = lit(o.y, o.ny), z = lit(o.z, o.nz);
    const bool alt = restructured && o.alt;
    Wire r;
    switch (o.kind) {
      case 0:  // x ∧ y  |  x ∧ ¬(x ∧ ¬y)
        r = alt ? g::and_(b, x, g::not_(b, g::and_(b, x, g::not_(b, y)))) : g::and_(b, x, y);
        break;
      case 1:  // x ∨ y  |  x ⊕ y ⊕ (x ∧ y)
        r = alt ? g::xor_(b, g::xor_(b, x, y), g::and_(b, x, y)) : g::or_(b, x, y);
        break;
      case 2:  // x ⊕ y  |  (x ∨ y) ∧ ¬(x ∧ y)
        r = alt ? g::and_(b, g::or_(b, x, y), g::not_(b, g::and_(b, x, y))) : g::xor_(b, x, y);
        break;
      case 3:  // x ? y : z  |  z ⊕ (x ∧ (y ⊕ z))
        r = alt ? g::xor_(b, z, g::and_(b, x, g::xor_(b, y, z))) : g::mux(b, x, y, z);
        break;
      case 4:  // (x ∧ y) ∧ z  |  x ∧ (y ∧ z)
        r = alt ? g::and_(b, x, g::and_(b, y, z)) : g::and_(b, g::and_(b, x, y), z);
        break;
      case 5:  // (x ⊕ y) ⊕ z  |  x ⊕ (y ⊕ z)
        r = alt ? g::xor_(b, x, g::xor_(b, y, z)) : g::xor_(b, g::xor_(b, x, y), z);
        break;
      default:  // (x ∧ y) ∨ (z ∧ (x ∨ y))  |  (x ∧ y) ∨ (x ∧ z) ∨ (y ∧ z)
        r = alt ? g::or_(b, g::or_(b, g::and_(b, x, y), g::and_(b, x, z)), g::and_(b, y, z))
                : g::or_(b, g::and_(b, x, y), g::and_(b, z, g::or_(b, x, y)));
        break;
    }
    if (mutated && mu.minterm) {
      Wire is = b.one();
      for (int i = 0; i < p.inputs; ++i) is = g::and_(b, is, (mu.m >> i) & 1 ? pool[static_cast<std::size_t>(i)] : g::not_(b, pool[static_cast<std::size_t>(i)]));
      r = g::xor_(b, r, is);
    }
    pool.push_back(r);
  }
  for (std::size_t k = 0; k < p.outputs.size(); ++k) b.output("o" + std::to_string(k), pool[static_cast<std::size_t>(p.outputs[k])]);
  return std::move(b).finish();
}

// Parity of n inputs: a chain over them in the order 0, step, 2·step, ... (mod n; step coprime to
// n), or a balanced tree in input order. The same function; the chain's nodes have no partner in
// the tree, so the output pair is asked with little help (hard for CDCL at small limits).
Circuit parity(int n, bool tree, int step = 1) {
  Builder b;
  std::vector<Wire> x;
  for (int i = 0; i < n; ++i) x.push_back(b.input("x[" + std::to_string(i) + "]", circuits::Type::Bit));
  Wire par = b.zero();
  if (!tree) {
    for (int k = 0; k < n; ++k) par = g::xor_(b, par, x[static_cast<std::size_t>((k * step) % n)]);
  } else {
    std::vector<Wire> level = x;
    while (level.size() > 1) {
      std::vector<Wire> up;
      for (std::size_t k = 0; k + 1 < level.size(); k += 2) up.push_back(g::xor_(b, level[k], level[k + 1]));
      if (level.size() % 2) up.push_back(level.back());
      level = up;
    }
    par = level[0];
  }
  b.output("par", par);
  return std::move(b).finish();
}

// ---- the independent route: every input, simulated ------------------------------------------------

// Whether a and b (same input and output names, in the same order) agree on all 2^inputs inputs.
bool same_exhaustively(const Circuit& a, const Circuit& b) {
  const circuits::Aig A = circuits::to_aig(a), B = circuits::to_aig(b);
  REQUIRE(A.input_names == B.input_names);
  REQUIRE(A.output_names == B.output_names);
  const std::uint32_t n = A.num_inputs;
  REQUIRE(n >= 6);
  for (std::uint64_t w = 0; w < (std::uint64_t{1} << (n - 6)); ++w) {
    std::vector<std::uint64_t> in(n, 0);
    for (std::uint32_t i = 0; i < n; ++i)
      for (unsigned k = 0; k < 64; ++k) in[i] |= (((w * 64 + k) >> i) & 1) << k;
    if (A.eval64(in) != B.eval64(in)) return false;
  }
  return true;
}

sat::SweepResult sweep(const Circuit& a, const Circuit& b, const sat::SolverSpec& s, sat::SweepMode mode, long conflicts = 30) {
  const circuits::JointAig j = circuits::joint_aig(a, b);
  REQUIRE(j.why.empty());
  sat::SweepOptions o;
  o.mode = mode;
  o.conflicts = conflicts;
  return sat::sat_sweep(j, s, o);
}

// ---- DRAT ----------------------------------------------------------------------------------------

// The certificate hook of --certify in miniature: every UNSAT answer's DRAT proof checked.
struct Certifier : sat::SolveHook {
  explicit Certifier(bool every) : every_(every) {}
  bool wants_proof(const sat::SolverSpec&) const override { return true; }
  bool needs_every_answer() const override { return every_; }
  void solved(const sat::SolverSpec&, const sat::Cnf& c, const sat::SolveResult& r, std::string&& drat, const std::string& what) override {
    const bool unsat = r.answer == sat::Answer::Unsat;
    const sat::DratResult d = unsat ? check(c, drat) : sat::DratResult{};
    std::lock_guard<std::mutex> lk(mu);
    if (!unsat) {
      ++sat_;
      sat_ok += satisfies(c, r.model);
      return;
    }
    ++unsat_;
    last_cnf = c, last_drat = drat;
    if (d.ok) ++checked;
    else failures.push_back(what + ": " + d.why);
  }
  bool every_;
  std::mutex mu;
  int unsat_ = 0, sat_ = 0, checked = 0, sat_ok = 0;
  std::vector<std::string> failures;
  sat::Cnf last_cnf;
  std::string last_drat;
};
struct HookIn {
  explicit HookIn(sat::SolveHook* h) { sat::set_solve_hook(h); }
  ~HookIn() { sat::set_solve_hook(nullptr); }
};

// holes+1.. pigeons: clause (guard ∨ pigeon p in some hole), (guard ∨ ¬p in h ∨ ¬q in h); guard 0:
// none. Unsatisfiable (with the guard false) when pigeons > holes.
void pigeons(sat::Cnf& cnf, int P, int H, int guard) {
  const int base = cnf.num_vars;
  for (int k = 0; k < P * H; ++k) cnf.new_var();
  auto v = [&](int p, int h) { return base + p * H + h + 1; };
  for (int p = 0; p < P; ++p) {
    if (guard) cnf.lits.push_back(guard);
    for (int h = 0; h < H; ++h) cnf.lits.push_back(v(p, h));
    cnf.lits.push_back(0);
    ++cnf.num_clauses;
  }
  for (int h = 0; h < H; ++h)
    for (int p = 0; p < P; ++p)
      for (int q = p + 1; q < P; ++q) {
        if (guard) cnf.add({guard, -v(p, h), -v(q, h)});
        else cnf.add({-v(p, h), -v(q, h)});
      }
}

// A miter in solve_by_goals' form: goal x1 (var 70) implies pigeons pa in ha holes, goal ¬x2 (var
// 200: a two-byte DRAT literal) implies pigeons pb in hb holes; the last clause is (x1 ∨ ¬x2).
struct GoalsMiter {
  sat::Cnf cnf;
  int x1 = 0, x2 = 0;
};
GoalsMiter goals_miter(int pa, int ha, int pb, int hb) {
  GoalsMiter m;
  while (m.cnf.num_vars < 70) m.cnf.new_var();
  m.x1 = 70;
  pigeons(m.cnf, pa, ha, -m.x1);  // x1 → pigeons
  while (m.cnf.num_vars < 200) m.cnf.new_var();
  m.x2 = 200;
  pigeons(m.cnf, pb, hb, m.x2);  // ¬x2 → pigeons
  m.cnf.add({m.x1, -m.x2});
  return m;
}

// The byte offset of the first addition step of a binary DRAT proof that is the unit clause
// {lit}, or npos.
std::size_t unit_step(const std::string& drat, int lit) {
  std::size_t k = 0;
  while (k < drat.size()) {
    const std::size_t at = k;
    const char kind = drat[k++];
    std::vector<int> c;
    for (;;) {
      std::uint64_t u = 0;
      int sh = 0;
      while (k < drat.size() && (static_cast<unsigned char>(drat[k]) & 128)) u |= std::uint64_t{static_cast<unsigned char>(drat[k++]) & 127u} << sh, sh += 7;
      if (k >= drat.size()) return std::string::npos;
      u |= std::uint64_t{static_cast<unsigned char>(drat[k++])} << sh;
      if (u == 0) break;
      c.push_back((u & 1) ? -static_cast<int>(u >> 1) : static_cast<int>(u >> 1));
    }
    if (kind == 'a' && c.size() == 1 && c[0] == lit) return at;
  }
  return std::string::npos;
}

}  // namespace

TEST_CASE("sweep incremental: rounds and incremental agree with exhaustive simulation on random circuits and mutants") {
  const auto s = lib_spec();
  if (!s) {
    MESSAGE("no CaDiCaL library in this build: the incremental sweep cannot run");
    return;
  }
  int cases = 0, equal = 0, differ = 0, by_sat = 0;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    const Program p = random_program(seed);
    const Circuit a = realize(p, false);
    const bool twice = seed % 3 == 0;
    auto written = [&](Circuit c) { return twice ? doubled(c) : std::move(c); };
    std::vector<std::pair<std::string, Circuit>> bs;
    bs.emplace_back("restructured", written(realize(p, true)));
    // Mutants: one op of the outputs' cone changed (its kind, an operand's polarity, or XORed with a
    // minterm: the last differs on one input of 2^inputs when it reaches an output, and an output's
    // own op XORed with one always does).
    const std::vector<int> cone = cone_ops(p);
    std::uint64_t r = seed * 0x9e3779b97f4a7c15ull + 17;
    for (int k = 0; k < 4; ++k) {
      Mutation mu;
      mu.at = cone[next(r) % cone.size()];
      if (k == 0) mu.kind = (p.ops[static_cast<std::size_t>(mu.at)].kind + 1 + static_cast<int>(next(r) % 6)) % 7;
      if (k == 1) mu.kind = -1;
      if (k >= 2) mu.minterm = true, mu.m = next(r);
      if (k == 3) mu.at = p.outputs[next(r) % p.outputs.size()] - p.inputs;
      bs.emplace_back("mutant " + std::to_string(k) + " at op " + std::to_string(mu.at), written(realize(p, true, mu)));
    }
    for (const auto& [what, b] : bs) {
      INFO("seed " << seed << ", " << what << ", " << p.inputs << " inputs, " << p.ops.size() << " ops");
      const bool truth = same_exhaustively(a, b);
      const sat::SweepResult rr = sweep(a, b, *s, sat::SweepMode::Rounds);
      const sat::SweepResult ri = sweep(a, b, *s, sat::SweepMode::Incremental);
      INFO("rounds: " << rr.why << ", incremental: " << ri.why);
      CHECK(rr.mode == "rounds");
      CHECK(ri.mode == "incremental");
      CHECK(rr.equal == truth);
      CHECK(ri.equal == truth);
      ++cases;
      if (truth) {
        ++equal;
        CHECK(ri.why.empty());
        CHECK(ri.differ.empty());
        continue;
      }
      ++differ;
      by_sat += ri.why == "an output differs on a simulated input" && ri.refinements > 0;
      for (const sat::SweepResult* res : {&rr, &ri}) {
        INFO("mode " << res->mode);
        REQUIRE(!res->differ.empty());
        REQUIRE(res->witness.size() == static_cast<std::size_t>(p.inputs));
        const auto ea = eval_at(a, res->witness), eb = eval_at(b, res->witness);
        CHECK(ea != eb);
        CHECK(ea.at(res->differ[0]) != eb.at(res->differ[0]));
      }
      // The incremental sweep names only outputs that differ on its witness.
      const auto ea = eval_at(a, ri.witness), eb = eval_at(b, ri.witness);
      for (const std::string& o : ri.differ) CHECK(ea.at(o) != eb.at(o));
    }
  }
  MESSAGE(cases << " pairs: " << equal << " equal, " << differ << " differ (" << by_sat
                << " found after SAT answers refined the classes)");
  // Both verdicts occur, and some differences were past the first random simulation.
  CHECK(equal >= 16);
  CHECK(differ >= 16);
  CHECK(by_sat >= 4);
}

TEST_CASE("sweep incremental: passes and calls, and a conflict limit of 1 still proves equal circuits") {
  const auto s = lib_spec();
  if (!s) return;
  // Parity as a chain in a scrambled order against a tree: at 1 conflict a node pair and 100 the
  // outputs, the first pass leaves the output undecided; later passes (x10 each) prove it.
  const Circuit chain = parity(16, false, 5), tree = parity(16, true);
  REQUIRE(same_exhaustively(chain, tree));
  const sat::SweepResult r1 = sweep(chain, tree, *s, sat::SweepMode::Incremental, 1);
  const sat::SweepResult r30 = sweep(chain, tree, *s, sat::SweepMode::Incremental, 30);
  INFO("limit 1: " << r1.passes << " passes, " << r1.calls << " calls; limit 30: " << r30.passes << " passes, " << r30.calls << " calls");
  for (const sat::SweepResult* r : {&r1, &r30}) {
    CHECK(r->equal);
    CHECK(r->why.empty());
    CHECK(r->mode == "incremental");
    CHECK(r->passes >= 1);
    CHECK(r->calls >= 1);
    CHECK(r->miters == r->calls);  // no certified round without a hook
    CHECK(!r->certified_round);
    CHECK(r->merged <= r->b_nodes);
  }
  CHECK(r1.passes > 1);  // the limit matters here
  CHECK(r1.passes > r30.passes);
  // The rounds have no passes and no incremental calls.
  const sat::SweepResult rr = sweep(chain, tree, *s, sat::SweepMode::Rounds);
  CHECK(rr.equal);
  CHECK(rr.mode == "rounds");
  CHECK(rr.passes == 0);
  CHECK(rr.calls == 0);
  // Random restructured pairs at a limit of 1: still equal (pairs left unmerged in the first pass are
  // asked again with more), and more than one pass somewhere.
  std::size_t more = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Program p = random_program(seed);
    const Circuit a = realize(p, false), b = doubled(realize(p, true));
    const sat::SweepResult r = sweep(a, b, *s, sat::SweepMode::Incremental, 1);
    INFO("seed " << seed << ": " << r.why);
    CHECK(r.equal);
    CHECK(r.passes >= 1);
    CHECK(r.calls >= 1);
    CHECK(r.merged >= 1);
    more += r.passes > 1;
  }
  CHECK(more >= 1);
  // Auto picks the incremental sweep for CaDiCaL in this process, the rounds for a process.
  CHECK(sat::sweep_is_incremental(*s, sat::SweepOptions{}));
  sat::SolverSpec proc = *s;
  proc.in_process = false;
  CHECK(!sat::sweep_is_incremental(proc, sat::SweepOptions{}));
  sat::SweepOptions inc;
  inc.mode = sat::SweepMode::Incremental;
  CHECK_THROWS_AS(sat::sweep_is_incremental(proc, inc), std::logic_error);
}

TEST_CASE("sweep incremental: under a hook that needs every answer, the certified round's DRAT proofs check") {
  const auto s = lib_spec();
  if (!s) return;
  for (std::uint64_t seed : {1, 3, 6}) {
    const Program p = random_program(seed);
    const Circuit a = realize(p, false), b = doubled(realize(p, true));
    Certifier cert(true);
    sat::SweepResult r;
    {
      HookIn in(&cert);
      r = sweep(a, b, *s, sat::SweepMode::Incremental);
    }
    INFO("seed " << seed << ": " << r.why);
    for (const std::string& f : cert.failures) INFO(f);
    CHECK(r.equal);
    CHECK(r.mode == "incremental");
    CHECK(r.certified_round);
    CHECK(r.rounds == 1);
    CHECK(r.pairs >= 1);
    CHECK(cert.unsat_ >= 1);               // the hook saw the round's answers ...
    CHECK(cert.checked == cert.unsat_);    // ... each with a DRAT refutation that checks
    CHECK(cert.failures.empty());
    CHECK(cert.sat_ == 0);
    CHECK(r.miters == r.calls + static_cast<std::size_t>(cert.unsat_));
  }
  // A mutant under the same hook: the incremental phase finds the difference, no round runs.
  const Program p = random_program(2);
  Mutation mu;
  mu.at = p.outputs[0] - p.inputs, mu.minterm = true, mu.m = 0x2b5;
  const Circuit a = realize(p, false), b = realize(p, true, mu);
  REQUIRE(!same_exhaustively(a, b));
  Certifier cert(true);
  sat::SweepResult r;
  {
    HookIn in(&cert);
    r = sweep(a, b, *s, sat::SweepMode::Incremental);
  }
  CHECK(!r.equal);
  CHECK(!r.certified_round);
  REQUIRE(!r.differ.empty());
  CHECK(eval_at(a, r.witness).at(r.differ[0]) != eval_at(b, r.witness).at(r.differ[0]));
}

TEST_CASE("sweep incremental: a hook that does not need every answer gets no certified round") {
  const auto s = lib_spec();
  if (!s) return;
  const Program p = random_program(1);
  const Circuit a = realize(p, false), b = doubled(realize(p, true));
  Certifier cert(false);
  sat::SweepResult r;
  {
    HookIn in(&cert);
    r = sweep(a, b, *s, sat::SweepMode::Incremental);
  }
  CHECK(r.equal);
  CHECK(!r.certified_round);
  CHECK(r.rounds == 0);
  CHECK(r.miters == r.calls);
  CHECK(cert.unsat_ == 0);  // nothing went through solve_by_goals
  CHECK(cert.sat_ == 0);
  // --confirm's second solver alone asks for the round (sweep.h).
  const circuits::JointAig j = circuits::joint_aig(a, b);
  sat::SweepOptions o;
  o.mode = sat::SweepMode::Incremental;
  o.second = &*s;
  const sat::SweepResult rc = sat::sat_sweep(j, *s, o);
  CHECK(rc.equal);
  CHECK(rc.certified_round);
}

TEST_CASE("sweep incremental: solve_by_goals refutes a miter goal by goal with a DRAT proof that checks") {
  const auto s = lib_spec();
  if (!s) return;
  // Unsat: x1 → 5 pigeons in 4 holes, ¬x2 → 4 pigeons in 3 holes, last clause (x1 ∨ ¬x2).
  {
    const GoalsMiter m = goals_miter(5, 4, 4, 3);
    Certifier cert(true);
    sat::SolveResult r;
    {
      HookIn in(&cert);
      sat::MiterLabel label("goals");
      r = sat::solve_by_goals(*s, m.cnf, 60);
    }
    for (const std::string& f : cert.failures) INFO(f);
    CHECK(r.answer == sat::Answer::Unsat);
    REQUIRE(cert.unsat_ == 1);
    CHECK(cert.checked == 1);
    CHECK(cert.last_cnf.lits == m.cnf.lits);
    const std::string drat = cert.last_drat;
    const sat::DratResult d = check(m.cnf, drat);
    CHECK_MESSAGE(d.ok, d.why);
    // The unit lemmas ¬x1 and x2 (= ¬(¬x2)) are steps of the proof, in the goals' order (x2 only
    // from solve_by_goals' injection: CaDiCaL's own trace has the unit ¬x2 it propagates, then the
    // empty clause); with the sign of ¬x1 flipped (one byte: the low bit of its first varint byte)
    // the proof does not check.
    const std::size_t at1 = unit_step(drat, -m.x1), at2 = unit_step(drat, m.x2);
    REQUIRE(at1 != std::string::npos);
    CHECK(at2 != std::string::npos);
    CHECK(at1 < at2);
    std::string flipped = drat;
    flipped[at1 + 1] = static_cast<char>(flipped[at1 + 1] ^ 1);
    REQUIRE(unit_step(flipped, m.x1) == at1);
    const sat::DratResult f = check(m.cnf, flipped);
    CHECK(!f.ok);
    MESSAGE("the flipped proof: " << f.why);
  }
  // Sat: the second goal is satisfiable (3 pigeons in 3 holes), after the first is refuted; and the
  // first satisfiable. A model of the CNF either way.
  for (const auto& [pa, pb] : {std::pair{5, 3}, std::pair{3, 4}}) {
    INFO(pa << " pigeons behind x1, " << pb << " behind not x2");
    const GoalsMiter m = goals_miter(pa, pa == 5 ? 4 : 3, pb, 3);
    Certifier cert(true);
    sat::SolveResult r;
    {
      HookIn in(&cert);
      r = sat::solve_by_goals(*s, m.cnf, 60);
    }
    REQUIRE(r.answer == sat::Answer::Sat);
    REQUIRE(r.model.size() == static_cast<std::size_t>(m.cnf.num_vars) + 1);
    CHECK(satisfies(m.cnf, r.model));
    CHECK((r.model[static_cast<std::size_t>(m.x1)] == 1 || r.model[static_cast<std::size_t>(m.x2)] == 0));
    if (pa == 5) CHECK(r.model[static_cast<std::size_t>(m.x1)] == 0);  // x1 is refuted
    CHECK(cert.sat_ == 1);
    CHECK(cert.sat_ok == 1);
    CHECK(cert.unsat_ == 0);
  }
}
