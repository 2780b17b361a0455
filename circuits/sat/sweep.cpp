#include "circuits/sat/sweep.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <unordered_map>

#include "circuits/aig_strash.h"
#include "circuits/sat/cnf.h"
#include "circuits/sat/solve_hook.h"

namespace cz::circuits::sat {

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Bit-parallel simulation of the joint AIG: words[w][i] holds 64 values of input i, val[w][v] the
// values of var v on them.
class Simulation {
 public:
  explicit Simulation(const JointAig& j) : j_(j), vars_(1 + j.inputs + j.ands.size()) {}

  void add_word(std::vector<std::uint64_t> in) {
    words_.push_back(std::move(in));
    val_.emplace_back(vars_);
    simulate(words_.size() - 1);
  }
  // One input (a solver's model) as the next free bit of the last word of witnesses; simulated at
  // the next settle() (a refinement adds an input and its I neighbours: one pass, not I + 1).
  void add_input(const std::vector<std::uint32_t>& bits) {
    if (free_bit_ == 64) {
      words_.emplace_back(j_.inputs, 0);
      val_.emplace_back(vars_);
      free_bit_ = 0;
      // the unused bits repeat bit 0's input, so they add no new values to a signature
    }
    dirty_ = std::min(dirty_, words_.size() - 1);
    std::vector<std::uint64_t>& in = words_.back();
    for (std::uint32_t i = 0; i < j_.inputs; ++i) {
      const std::uint64_t b = bits[i] & 1;
      if (free_bit_ == 0) in[i] = b ? ~std::uint64_t{0} : 0;
      else in[i] = (in[i] & ~(std::uint64_t{1} << free_bit_)) | (b << free_bit_);
    }
    ++free_bit_;
  }
  // Simulates the words inputs were added to since the last call.
  void settle() {
    for (std::size_t w = dirty_; w < words_.size(); ++w) simulate(w);
    dirty_ = words_.size();
  }
  std::size_t words() const { return words_.size(); }
  std::uint64_t lit(std::size_t w, std::uint32_t l) const { return val_[w][l >> 1] ^ ((l & 1) ? ~std::uint64_t{0} : 0); }
  std::uint64_t var(std::size_t w, std::uint32_t v) const { return val_[w][v]; }
  // The first input (one value per joint input) on which literals p and q differ, if any.
  bool differing_input(std::uint32_t p, std::uint32_t q, std::vector<std::uint32_t>& out) const {
    for (std::size_t w = 0; w < words_.size(); ++w)
      if (const std::uint64_t d = lit(w, p) ^ lit(w, q)) {
        const unsigned b = static_cast<unsigned>(__builtin_ctzll(d));
        out.assign(j_.inputs, 0);
        for (std::uint32_t i = 0; i < j_.inputs; ++i) out[i] = static_cast<std::uint32_t>((words_[w][i] >> b) & 1);
        return true;
      }
    return false;
  }

 private:
  void simulate(std::size_t w) {
    std::vector<std::uint64_t>& v = val_[w];
    const std::uint32_t I = j_.inputs;
    v[0] = 0;
    for (std::uint32_t i = 0; i < I; ++i) v[1 + i] = words_[w][i];
    for (std::size_t k = 0; k < j_.ands.size(); ++k) {
      const auto [a, b] = j_.ands[k];
      v[1 + I + k] = (v[a >> 1] ^ ((a & 1) ? ~std::uint64_t{0} : 0)) & (v[b >> 1] ^ ((b & 1) ? ~std::uint64_t{0} : 0));
    }
  }
  const JointAig& j_;
  std::size_t vars_;
  std::vector<std::vector<std::uint64_t>> words_, val_;
  unsigned free_bit_ = 64;
  std::size_t dirty_ = ~std::size_t{0};  // the first word not simulated since inputs were added (none: past the end)
};

// Each of b's new nodes paired with a node of a (var < first_b) of the same signature up to
// complement: the literal of a it should equal, or none (~0u).
std::vector<std::uint32_t> candidates(const JointAig& j, const Simulation& sim, std::uint32_t first_b) {
  const std::size_t vars = 1 + j.inputs + j.ands.size(), W = sim.words();
  auto flip = [&](std::uint32_t v) { return static_cast<std::uint32_t>(sim.var(0, v) & 1); };
  auto norm = [&](std::uint32_t v, std::size_t w) { return sim.var(w, v) ^ (flip(v) ? ~std::uint64_t{0} : 0); };
  auto hash = [&](std::uint32_t v) {
    std::uint64_t h = 0x84222325cbf29ce4ull;
    for (std::size_t w = 0; w < W; ++w) h = (h ^ norm(v, w)) * 0x100000001b3ull;
    return h;
  };
  auto same = [&](std::uint32_t u, std::uint32_t v) {
    for (std::size_t w = 0; w < W; ++w)
      if (norm(u, w) != norm(v, w)) return false;
    return true;
  };
  std::unordered_multimap<std::uint64_t, std::uint32_t> of_a;  // a's vars (constant and inputs included) by signature
  of_a.reserve(first_b);
  for (std::uint32_t u = 0; u < first_b; ++u) of_a.emplace(hash(u), u);
  std::vector<std::uint32_t> cand(vars, ~0u);
  for (std::uint32_t v = first_b; v < vars; ++v) {
    auto [lo, hi] = of_a.equal_range(hash(v));
    std::uint32_t best = ~0u;
    for (auto it = lo; it != hi; ++it)
      if (it->second < best && same(it->second, v)) best = it->second;  // the earliest of a's equal nodes
    if (best != ~0u) cand[v] = 2 * best + (flip(best) ^ flip(v));
  }
  return cand;
}

}  // namespace

SweepResult sat_sweep(const JointAig& j, const SolverSpec& s, const SweepOptions& o) {
  if (!j.why.empty()) throw std::logic_error("sat_sweep: the ports do not correspond (" + j.why + ")");
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  SweepResult res;
  const std::uint32_t I = j.inputs;
  const std::uint32_t first_b = static_cast<std::uint32_t>(1 + I + j.a_ands);
  const std::size_t vars = 1 + I + j.ands.size();
  res.b_nodes = vars - first_b;

  const std::size_t groups = std::max(1u, o.groups);
  std::vector<Cnf> proved(groups);  // each group's miter of the round before when it was UNSAT
  Simulation sim(j);
  std::uint64_t seed = o.seed;
  for (unsigned w = 0; w < o.words; ++w) {
    std::vector<std::uint64_t> in(I);
    for (auto& x : in) x = splitmix(seed) & (w == 0 ? ~std::uint64_t{1} : ~std::uint64_t{0});  // input 0: all zeros
    sim.add_word(std::move(in));
  }

  for (unsigned round = 0;; ++round) {
    sim.settle();
    // An output that differs on a simulated input: the circuits differ (that input shows it).
    for (std::size_t k = 0; k < j.output_names.size(); ++k)
      if (std::vector<std::uint32_t> in; sim.differing_input(j.out_a[k], j.out_b[k], in)) {
        if (res.differ.empty()) res.witness = in;
        if (res.differ.size() < 8) res.differ.push_back(j.output_names[k]);
      }
    if (!res.differ.empty()) {
      res.why = "an output differs on a simulated input";
      break;
    }
    if (round == o.max_rounds) {
      res.why = "no proof after " + std::to_string(o.max_rounds) + " rounds";
      break;
    }
    const std::vector<std::uint32_t> cand = candidates(j, sim, first_b);
    // The speculatively reduced graph: a's nodes as they are, b's over the partners.
    AigStrash g(I);
    std::vector<std::uint32_t> R(vars);
    for (std::uint32_t v = 0; v < first_b; ++v) R[v] = 2 * v;
    for (std::size_t k = 0; k < j.a_ands; ++k)
      if (g.and_(j.ands[k].first, j.ands[k].second) != 2 * (1 + I + k)) throw std::logic_error("sat_sweep: a is not strashed");
    auto through = [&](std::uint32_t l) { return R[l >> 1] ^ (l & 1); };
    // A pair's group: its node's place among b's nodes (the outputs' pairs in the last), so that a
    // group the refinements did not touch gives the same miter as in the round before.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    std::vector<std::size_t> group_of;
    for (std::uint32_t v = first_b; v < vars; ++v) {
      const auto [a, b] = j.ands[v - 1 - I];
      const std::uint32_t r = g.and_(through(a), through(b));
      if (cand[v] == ~0u) {
        R[v] = r;
        continue;
      }
      if (r != cand[v]) pairs.emplace_back(r, cand[v]), group_of.push_back((v - first_b) * groups / res.b_nodes);
      R[v] = cand[v];
    }
    for (std::size_t k = 0; k < j.output_names.size(); ++k)
      if (through(j.out_b[k]) != j.out_a[k]) pairs.emplace_back(through(j.out_b[k]), j.out_a[k]), group_of.push_back(groups - 1);
    res.pairs = pairs.size();
    if (pairs.empty()) {  // every output of b reduced to a's own: equal by structure
      res.equal = true;
      break;
    }
    // The miters: the pairs in topological order cut into groups, each group's miter the Tseitin
    // encoding of the reduced graph's cone of its pairs and one clause "some pair differs". All
    // UNSAT: no input makes any pair differ (the clauses' union is the one miter of every pair). Each
    // SAT answer gives an input that splits a pair of its group: several per round.
    std::vector<Cnf> cnfs(groups);
    std::vector<std::vector<int>> in_vars(groups, std::vector<int>(I, 0));
    const auto& ga = g.ands();
    for (std::size_t q = 0; q < groups; ++q) {
      Cnf& cnf = cnfs[q];
      Gates gates(cnf);
      std::vector<int> L(1 + I + ga.size(), 0);
      std::vector<int>& in_var = in_vars[q];
      std::vector<std::uint32_t> stack;
      auto lit_of = [&](std::uint32_t l) -> int {
        stack.assign(1, l >> 1);
        while (!stack.empty()) {
          const std::uint32_t v = stack.back();
          if (L[v] == 0 && v == 0) L[0] = gates.f();
          if (L[v] == 0 && v >= 1 && v <= I) L[v] = in_var[v - 1] = cnf.new_var();
          if (L[v] != 0) {
            stack.pop_back();
            continue;
          }
          const auto [a, b] = ga[v - 1 - I];
          if (L[a >> 1] == 0) {
            stack.push_back(a >> 1);
            continue;
          }
          if (L[b >> 1] == 0) {
            stack.push_back(b >> 1);
            continue;
          }
          L[v] = gates.and_((a & 1) ? -L[a >> 1] : L[a >> 1], (b & 1) ? -L[b >> 1] : L[b >> 1]);
          stack.pop_back();
        }
        return (l & 1) ? -L[l >> 1] : L[l >> 1];
      };
      std::vector<int> some;
      for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (group_of[k] != q) continue;
        const int x = gates.xor_(lit_of(pairs[k].first), lit_of(pairs[k].second));
        if (x != gates.f()) some.push_back(x);
      }
      if (some.empty()) {  // every pair one literal of the CNF's own hashing: equal by structure
        cnf = Cnf();
        continue;
      }
      cnf.lits.insert(cnf.lits.end(), some.begin(), some.end());
      cnf.lits.push_back(0);
      ++cnf.num_clauses;
    }
    // A group whose miter is the very CNF proved UNSAT in the round before is not asked again.
    std::vector<const Cnf*> ask;
    std::vector<std::size_t> of;
    res.clauses = 0;
    for (const Cnf& c : cnfs) res.clauses += c.num_clauses;
    for (std::size_t q = 0; q < groups; ++q)
      if (cnfs[q].num_clauses && !(cnfs[q].num_vars == proved[q].num_vars && cnfs[q].lits == proved[q].lits))
        ask.push_back(&cnfs[q]), of.push_back(q);
    if (ask.empty()) {
      res.equal = true;
      break;
    }
    BatchOptions bo;
    bo.timeout_s = o.timeout_s - elapsed();
    bo.threads = std::max(1u, o.threads);
    bo.cancel = o.cancel;
    bo.runner = o.runner;
    bo.second = o.second;
    bo.what = [&](std::size_t k) {
      return "sweep round " + std::to_string(round + 1) + ", group " + std::to_string(of[k] + 1) + " of " + std::to_string(groups);
    };
    const std::vector<SolveResult> rs = solve_batch(s, ask, bo);
    res.miters += ask.size();
    ++res.rounds;
    bool all_unsat = true, unknown = false;
    for (std::size_t k = 0; k < rs.size(); ++k) {
      if (rs[k].answer == Answer::Unsat) {
        proved[of[k]] = cnfs[of[k]];
        continue;
      }
      all_unsat = false;
      if (rs[k].answer == Answer::Unknown) {
        unknown = true;
        res.why = rs[k].why.empty() ? std::string("no answer") : rs[k].why;
        continue;
      }
      // SAT: its input, simulated on the true circuits, splits the first pair of the group it
      // makes differ; its neighbours at distance 1 (ABC's resimulation) split the pairs whose
      // nodes differ one bit away (a comparator-heavy circuit's random simulation misses them).
      ++res.refinements;
      std::vector<std::uint32_t> bits(I, 0);
      for (std::uint32_t i = 0; i < I; ++i)
        if (const int v = in_vars[of[k]][i]; v != 0) bits[i] = rs[k].model[static_cast<std::size_t>(v)] == 1;
      sim.add_input(bits);
      for (std::uint32_t i = 0; i < I; ++i) {
        bits[i] ^= 1;
        sim.add_input(bits);
        bits[i] ^= 1;
      }
    }
    if (all_unsat) {
      res.equal = true;
      break;
    }
    if (unknown) break;
  }
  res.seconds = elapsed();
  return res;
}

}  // namespace cz::circuits::sat
