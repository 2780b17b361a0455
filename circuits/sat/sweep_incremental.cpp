#include "circuits/sat/sweep_incremental.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "circuits/aig_strash.h"
#include "circuits/sat/cnf.h"
#include "circuits/sat/incremental.h"
#include "circuits/sat/solve_hook.h"
#include "circuits/sat/sweep_round.h"
#include "util/error.h"
#include "util/seeded.h"

namespace cz::circuits::sat {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t kNone = ~0u;

// The values of every var of the joint AIG on one word of 64 inputs (in[i]: input i's 64 values).
std::vector<std::uint64_t> simulate(const JointAig& j, const std::vector<std::uint64_t>& in) {
  const std::uint32_t I = j.inputs;
  std::vector<std::uint64_t> v(1 + I + j.ands.size());
  v[0] = 0;
  for (std::uint32_t i = 0; i < I; ++i) v[1 + i] = in[i];
  auto lit = [&](std::uint32_t l) { return v[l >> 1] ^ ((l & 1) ? ~std::uint64_t{0} : 0); };
  for (std::size_t k = 0; k < j.ands.size(); ++k) v[1 + I + k] = lit(j.ands[k].first) & lit(j.ands[k].second);
  return v;
}

// Simulation classes of the joint AIG's vars, up to complement (ABC's equivalence classes), kept
// only while they hold a var of a and a var of b (the only pairs the sweep asks). Each word of
// values splits them; members stay in ascending order, so a class's first member is its earliest.
class Classes {
 public:
  Classes(std::size_t vars, std::uint32_t first_b) : id_(vars, 0), first_b_(first_b) {
    members_.emplace_back();
    for (std::uint32_t v = 0; v < vars; ++v) members_[0].push_back(v);
  }
  // flip[v]: v's value on the all-zeros input (bit 0 of the first word), so that v and ¬v share a class.
  void set_flip(const std::vector<std::uint64_t>& val0) {
    flip_.resize(val0.size());
    for (std::size_t v = 0; v < val0.size(); ++v) flip_[v] = static_cast<std::uint8_t>(val0[v] & 1);
  }
  std::uint8_t flip(std::uint32_t v) const { return flip_[v]; }
  void refine(const std::vector<std::uint64_t>& val) {
    auto key = [&](std::uint32_t v) { return val[v] ^ (flip_[v] ? ~std::uint64_t{0} : 0); };
    const std::size_t n = members_.size();
    std::vector<std::pair<std::uint64_t, std::uint32_t>> tmp;
    for (std::size_t c = 0; c < n; ++c) {
      std::vector<std::uint32_t>& m = members_[c];
      if (m.empty()) continue;
      const std::uint64_t k0 = key(m[0]);
      if (std::all_of(m.begin(), m.end(), [&](std::uint32_t v) { return key(v) == k0; })) continue;
      tmp.clear();
      for (std::uint32_t v : m) tmp.emplace_back(key(v), v);
      std::sort(tmp.begin(), tmp.end());  // by value, then by var: each group ascending
      std::vector<std::uint32_t> all;
      all.swap(m);
      for (std::size_t a = 0; a < tmp.size();) {
        std::size_t b = a;
        while (b < tmp.size() && tmp[b].first == tmp[a].first) ++b;
        std::vector<std::uint32_t> g;
        for (std::size_t k = a; k < b; ++k) g.push_back(tmp[k].second);
        std::sort(g.begin(), g.end());
        place(c, std::move(g), a == 0);
        a = b;
      }
    }
  }
  // The earliest var of a in v's class (kNone: none).
  std::uint32_t partner(std::uint32_t v) const {
    const std::uint32_t c = id_[v];
    if (c == kNone) return kNone;
    return members_[c].front() < first_b_ ? members_[c].front() : kNone;
  }
  bool together(std::uint32_t u, std::uint32_t v) const { return id_[u] != kNone && id_[u] == id_[v]; }

 private:
  // A group of a split class: kept (in place of class c when first, else as a new class) only when
  // it has a var of a and a var of b.
  void place(std::size_t c, std::vector<std::uint32_t> g, bool first) {
    const bool keep = g.size() >= 2 && g.front() < first_b_ && g.back() >= first_b_;
    if (!keep) {
      for (std::uint32_t v : g) id_[v] = kNone;
      return;
    }
    std::uint32_t cid = static_cast<std::uint32_t>(c);
    if (!first) {
      cid = static_cast<std::uint32_t>(members_.size());
      members_.emplace_back();
    }
    for (std::uint32_t v : g) id_[v] = cid;
    members_[cid] = std::move(g);
  }
  std::vector<std::uint32_t> id_;
  std::vector<std::vector<std::uint32_t>> members_;
  std::vector<std::uint8_t> flip_;
  std::uint32_t first_b_;
};

}  // namespace

SweepResult sweep_incremental(const JointAig& j, const SolverSpec& s, const SweepOptions& o) {
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const auto deadline = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::min(o.timeout_s, 1e9)));
  SweepResult res;
  res.mode = "incremental";
  const std::uint32_t I = j.inputs;
  const std::uint32_t first_b = static_cast<std::uint32_t>(1 + I + j.a_ands);
  const std::size_t vars = 1 + I + j.ands.size();
  res.b_nodes = vars - first_b;
  auto done = [&]() -> SweepResult {
    res.seconds = elapsed();
    return res;
  };

  // An output pair that differs on some input of a word: the circuits differ; the first such input
  // is the witness and the outputs (the first 8) that differ on it are named.
  Classes cl(vars, first_b);
  auto outputs_differ = [&](const std::vector<std::uint64_t>& in, const std::vector<std::uint64_t>& val) {
    auto lit = [&](std::uint32_t l) { return val[l >> 1] ^ ((l & 1) ? ~std::uint64_t{0} : 0); };
    std::uint64_t any = 0;
    for (std::size_t k = 0; k < j.output_names.size(); ++k) any |= lit(j.out_a[k]) ^ lit(j.out_b[k]);
    if (!any) return false;
    const unsigned b = static_cast<unsigned>(__builtin_ctzll(any));
    res.witness.assign(I, 0);
    for (std::uint32_t i = 0; i < I; ++i) res.witness[i] = static_cast<std::uint32_t>((in[i] >> b) & 1);
    for (std::size_t k = 0; k < j.output_names.size() && res.differ.size() < 8; ++k)
      if (((lit(j.out_a[k]) ^ lit(j.out_b[k])) >> b) & 1) res.differ.push_back(j.output_names[k]);
    res.why = "an output differs on a simulated input";
    return true;
  };
  std::uint64_t counter = 0;
  for (unsigned w = 0; w < std::max(1u, o.words); ++w) {
    std::vector<std::uint64_t> in(I);
    for (auto& x : in) x = splitmix64(o.seed * 0x9e3779b97f4a7c15ull + ++counter) & (w == 0 ? ~std::uint64_t{1} : ~std::uint64_t{0});
    const std::vector<std::uint64_t> val = simulate(j, in);
    if (w == 0) cl.set_flip(val);
    if (outputs_differ(in, val)) return done();
    cl.refine(val);
  }

  IncrementalSolver solver(deadline, o.cancel);
  Cnf cnf;
  // The reduced graph: a's nodes as they are, b's over their fanins' representatives.
  AigStrash g(I);
  for (std::size_t k = 0; k < j.a_ands; ++k)
    if (g.and_(j.ands[k].first, j.ands[k].second) != 2 * (1 + I + k)) throw std::logic_error("sat_sweep: a is not strashed");
  std::vector<std::uint32_t> R(vars), cand(vars, kNone);
  for (std::uint32_t v = 0; v < first_b; ++v) R[v] = 2 * v;
  auto through = [&](std::uint32_t l) { return R[l >> 1] ^ (l & 1); };
  ConeEncoder enc(cnf, I);
  auto lit_of = [&](std::uint32_t l) { return enc.lit(g.ands(), l); };
  const std::vector<int>& in_var = enc.in_var();
  // Do x and y (CNF literals) differ on some input? Unsat: never; Sat: the solver's model is one.
  std::string why;
  auto differ = [&](int x, int y, long conflicts) {
    solver.sync(cnf);
    Answer a = solver.solve({x, -y}, conflicts, &why);
    if (a == Answer::Unsat) a = solver.solve({-x, y}, conflicts, &why);
    return a;
  };
  // A SAT answer's input and 63 neighbours (one input of its cone flipped each, ABC's resimulation)
  // as one word, simulated on the true circuits; the classes split by it. true: an output differs.
  std::size_t rotate = 0;
  auto resimulate = [&]() {
    std::vector<std::uint64_t> in(I, 0);
    std::vector<std::uint32_t> cone;
    for (std::uint32_t i = 0; i < I; ++i)
      if (in_var[i] != 0) {
        cone.push_back(i);
        if (solver.value(in_var[i])) in[i] = ~std::uint64_t{0};
      }
    for (unsigned bit = 1; bit < 64 && !cone.empty(); ++bit) in[cone[(rotate++) % cone.size()]] ^= std::uint64_t{1} << bit;
    const std::vector<std::uint64_t> val = simulate(j, in);
    if (outputs_differ(in, val)) return true;
    cl.refine(val);
    return false;
  };
  auto stopped = [&](const std::string& w) {
    res.why = w == "time limit" ? "time limit (" + std::to_string(o.timeout_s) + " s)" : w;
    res.calls = res.miters = solver.calls();
    return done();
  };

  // Passes with growing limits (ABC's cec does the same): a node pair gets `limit` conflicts, the
  // outputs 100 times as many (none in the last pass). An output left undecided sends the sweep round
  // again with ten times the limit: pairs proved before are proved again at once (their clauses are
  // in the solver), so a pass costs little more than the pairs it newly decides.
  enum class Outputs { Proved, Differ, Undecided, Stopped };
  auto pass = [&](long limit, bool last) -> Outputs {
    res.merged = res.unresolved = res.pairs = 0;
    for (std::uint32_t v = first_b; v < vars; ++v) {
      const auto [a, b] = j.ands[v - 1 - I];
      const std::uint32_t r = g.and_(through(a), through(b));
      R[v] = r, cand[v] = kNone;
      for (;;) {
        const std::uint32_t p = cl.partner(v);
        if (p == kNone) break;
        const std::uint32_t c = 2 * p + (cl.flip(p) ^ cl.flip(v));
        if (r == c) {  // the same node of the reduced graph: equal by structure
          R[v] = cand[v] = c;
          break;
        }
        const int x = lit_of(r), y = lit_of(c);
        const Answer ans = x == y ? Answer::Unsat : differ(x, y, limit);
        if (ans == Answer::Unsat) {
          R[v] = cand[v] = c;
          ++res.merged, ++res.pairs;
          if (x != y) cnf.add({-x, y}), cnf.add({x, -y});  // implied: helps the questions after
          break;
        }
        if (ans == Answer::Unknown) {
          if (why != "conflict limit") return Outputs::Stopped;
          ++res.unresolved;
          break;
        }
        ++res.refinements;
        if (resimulate()) return Outputs::Differ;
        if (cl.together(v, p)) throw std::logic_error("sat_sweep: a SAT answer did not split its pair");
      }
    }
    // Each output of b against a's of the same name.
    bool undecided = false;
    for (std::size_t k = 0; k < j.output_names.size(); ++k) {
      const std::uint32_t ob = through(j.out_b[k]), oa = j.out_a[k];
      if (ob == oa) continue;
      ++res.pairs;
      const int x = lit_of(ob), y = lit_of(oa);
      if (x == y) continue;
      const Answer ans = differ(x, y, last ? -1 : 100 * limit);
      if (ans == Answer::Unsat) {
        cnf.add({-x, y}), cnf.add({x, -y});
        continue;
      }
      if (ans == Answer::Unknown) {
        if (why != "conflict limit") return Outputs::Stopped;
        undecided = true;
        continue;
      }
      ++res.refinements;
      if (!resimulate()) throw std::logic_error("sat_sweep: an output's SAT answer does not make the outputs differ");
      return Outputs::Differ;
    }
    return undecided ? Outputs::Undecided : Outputs::Proved;
  };
  for (long limit = std::max(1L, o.conflicts);; limit *= 10) {
    const bool last = limit >= 100000;
    ++res.passes;
    const Outputs out = pass(limit, last);
    if (out == Outputs::Proved) break;
    if (out == Outputs::Differ) return stopped(res.why);
    if (out == Outputs::Stopped) return stopped(why);
  }
  res.calls = res.miters = solver.calls();
  res.clauses = cnf.num_clauses;
  res.incremental_seconds = elapsed();

  // Certified: the speculative reduction over exactly the merged pairs, each group's miter from
  // scratch in a fresh solver (the hook sees, checks and keeps each answer); the verdict rests on
  // that round alone, and the pairs are recorded for check-proof (solve_hook.h SweepRecord).
  if (const SolveHook* h = solve_hook(); (h && h->needs_every_answer()) || o.second) {
    const std::size_t groups = std::max({1u, o.certified_groups, o.threads});
    const std::vector<std::string> names = round_names("sweep's certified round", groups);
    const RoundOutcome ro = prove_round(j, s, o, cand, names, true, o.timeout_s - elapsed());
    res.certified_round = true;
    res.pairs = ro.pairs;
    res.clauses = ro.clauses;
    res.miters += ro.miters;
    res.rounds = ro.miters ? 1 : 0;
    if (!ro.proved) return stopped(ro.why);
    res.record = sweep_record(j, cand, names);
  }
  res.equal = true;
  return done();
}

}  // namespace cz::circuits::sat
