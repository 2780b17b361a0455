#include "circuits/sat/sweep.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "circuits/sat/cadical_lib.h"
#include "circuits/sat/cnf.h"
#include "circuits/sat/solve_hook.h"
#include "circuits/sat/sweep_incremental.h"
#include "circuits/sat/sweep_round.h"

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

namespace {

// Rounds of from-scratch miters (every answer a solve(), so any solver, a process or the library).
SweepResult sweep_rounds(const JointAig& j, const SolverSpec& s, const SweepOptions& o) {
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  SweepResult res;
  const std::uint32_t I = j.inputs;
  const std::uint32_t first_b = static_cast<std::uint32_t>(1 + I + j.a_ands);
  const std::size_t vars = 1 + I + j.ands.size();
  res.b_nodes = vars - first_b;

  const std::size_t groups = std::max(1u, o.groups);
  std::vector<Cnf> proved(groups);  // each group's miter of the round before when it was UNSAT
  std::vector<std::string> proved_name(groups);  // ... and its name (check-proof finds its certificate by it)
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
    // differ: the outputs that differ on that one input (as the incremental sweep reports them).
    for (std::size_t k = 0; k < j.output_names.size() && res.witness.empty(); ++k)
      if (std::vector<std::uint32_t> in; sim.differing_input(j.out_a[k], j.out_b[k], in)) res.witness = in;
    if (!res.witness.empty()) {
      res.differ = outputs_differing_on(j, res.witness, 8);
      res.why = "an output differs on a simulated input";
      break;
    }
    if (round == o.max_rounds) {
      res.why = "no proof after " + std::to_string(o.max_rounds) + " rounds";
      break;
    }
    const std::vector<std::uint32_t> cand = candidates(j, sim, first_b);
    SweepRound sr = sweep_round(j, cand, groups);
    res.pairs = sr.pairs;
    if (sr.pairs == 0) {  // every output of b reduced to a's own: equal by structure
      res.equal = true;
      res.record = sweep_record(j, cand, round_names("sweep round " + std::to_string(round + 1), groups));
      break;
    }
    std::vector<Cnf>& cnfs = sr.cnfs;
    const std::vector<std::vector<int>>& in_vars = sr.in_vars;
    // A group whose miter is the very CNF proved UNSAT in the round before is not asked again.
    std::vector<const Cnf*> ask;
    std::vector<std::size_t> of;
    res.clauses = sr.clauses;
    for (std::size_t q = 0; q < groups; ++q)
      if (cnfs[q].num_clauses && !(cnfs[q].num_vars == proved[q].num_vars && cnfs[q].lits == proved[q].lits))
        ask.push_back(&cnfs[q]), of.push_back(q);
    if (ask.empty()) {
      res.equal = true;
      res.record = sweep_record(j, cand, proved_name);
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
        proved_name[of[k]] = bo.what(k);
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
      res.record = sweep_record(j, cand, proved_name);
      break;
    }
    if (unknown) break;
  }
  res.seconds = elapsed();
  return res;
}

}  // namespace

bool sweep_is_incremental(const SolverSpec& s, const SweepOptions& o) {
  if (o.mode == SweepMode::Rounds) return false;
  const bool can = s.in_process && cadical_library_linked() && !o.runner;
  if (o.mode == SweepMode::Incremental && !can)
    throw std::logic_error("sat_sweep: the incremental sweep needs CaDiCaL in this process and no batch runner");
  return can;
}

namespace {

// check-proof: the recorded sweep's final round rebuilt from its pairs and asked again (each answer
// replayed from the directory); no search.
SweepResult sweep_given(const JointAig& j, const SolverSpec& s, const SweepOptions& o, const SweepRecord& rec) {
  const auto t0 = Clock::now();
  SweepResult res;
  res.mode = "recorded";
  res.b_nodes = j.ands.size() - j.a_ands;
  if (!rec.equal) {
    res.why = "the sweep did not end equal when the directory was written";
    return res;
  }
  const RoundOutcome ro = prove_round(j, s, o, cand_of(j, rec), rec.names, false, o.timeout_s);
  res.pairs = ro.pairs, res.clauses = ro.clauses, res.miters = ro.miters, res.rounds = ro.miters ? 1 : 0;
  res.equal = ro.proved;
  res.why = ro.why;
  if (res.equal) res.record = rec;
  res.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return res;
}

}  // namespace

SweepResult sat_sweep(const JointAig& j, const SolverSpec& s, const SweepOptions& o) {
  if (!j.why.empty()) throw std::logic_error("sat_sweep: the ports do not correspond (" + j.why + ")");
  SolveHook* const h = solve_hook();
  const bool keep = h && h->needs_every_answer();
  if (keep)
    if (std::optional<SweepRecord> given = h->replay_sweep()) return sweep_given(j, s, o, *given);
  SweepResult r;
  if (sweep_is_incremental(s, o)) {
    r = sweep_incremental(j, s, o);
  } else {
    r = sweep_rounds(j, s, o);
    r.mode = "rounds";
  }
  if (keep) {
    SweepRecord rec = r.equal ? r.record : SweepRecord{};
    rec.vars = 1 + j.inputs + j.ands.size(), rec.first_b = 1 + j.inputs + j.a_ands;
    h->sweep_done(rec);
  }
  return r;
}

}  // namespace cz::circuits::sat
