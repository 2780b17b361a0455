#include "circuits/sat/sweep_round.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include "circuits/aig_strash.h"
#include "circuits/sat/incremental.h"
#include "circuits/sat/solve_hook.h"
#include "circuits/sat/sweep.h"
#include "util/error.h"

namespace cz::circuits::sat {

int ConeEncoder::lit(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ands, std::uint32_t l) {
  const std::uint32_t I = inputs_;
  L_.resize(1 + I + ands.size(), 0);
  stack_.assign(1, l >> 1);
  while (!stack_.empty()) {
    const std::uint32_t v = stack_.back();
    if (L_[v] == 0 && v == 0) L_[0] = gates_.f();
    if (L_[v] == 0 && v >= 1 && v <= I) L_[v] = in_var_[v - 1] = gates_.cnf().new_var();
    if (L_[v] != 0) {
      stack_.pop_back();
      continue;
    }
    const auto [a, b] = ands[v - 1 - I];
    if (L_[a >> 1] == 0) {
      stack_.push_back(a >> 1);
      continue;
    }
    if (L_[b >> 1] == 0) {
      stack_.push_back(b >> 1);
      continue;
    }
    L_[v] = gates_.and_((a & 1) ? -L_[a >> 1] : L_[a >> 1], (b & 1) ? -L_[b >> 1] : L_[b >> 1]);
    stack_.pop_back();
  }
  return (l & 1) ? -L_[l >> 1] : L_[l >> 1];
}

SweepRound sweep_round(const JointAig& j, const std::vector<std::uint32_t>& cand, std::size_t groups) {
  const std::uint32_t I = j.inputs;
  const std::uint32_t first_b = static_cast<std::uint32_t>(1 + I + j.a_ands);
  const std::size_t vars = 1 + I + j.ands.size(), b_nodes = vars - first_b;
  SweepRound out;
  // The speculatively reduced graph: a's nodes as they are, b's over the partners.
  AigStrash g(I);
  std::vector<std::uint32_t> R(vars);
  for (std::uint32_t v = 0; v < first_b; ++v) R[v] = 2 * v;
  for (std::size_t k = 0; k < j.a_ands; ++k)
    if (g.and_(j.ands[k].first, j.ands[k].second) != 2 * (1 + I + k)) throw std::logic_error("sat_sweep: a is not strashed");
  auto through = [&](std::uint32_t l) { return R[l >> 1] ^ (l & 1); };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::vector<std::size_t> group_of;
  for (std::uint32_t v = first_b; v < vars; ++v) {
    const auto [a, b] = j.ands[v - 1 - I];
    const std::uint32_t r = g.and_(through(a), through(b));
    if (cand[v] == ~0u) {
      R[v] = r;
      continue;
    }
    if (r != cand[v]) pairs.emplace_back(r, cand[v]), group_of.push_back((v - first_b) * groups / b_nodes);
    R[v] = cand[v];
  }
  for (std::size_t k = 0; k < j.output_names.size(); ++k)
    if (through(j.out_b[k]) != j.out_a[k]) pairs.emplace_back(through(j.out_b[k]), j.out_a[k]), group_of.push_back(groups - 1);
  out.pairs = pairs.size();
  out.cnfs.resize(groups);
  out.in_vars.assign(groups, std::vector<int>(I, 0));
  if (pairs.empty()) return out;
  // Each group's miter: the Tseitin encoding of the reduced graph's cone of its pairs and one clause
  // "some pair differs". All UNSAT: no input makes any pair differ (the clauses' union is the one
  // miter of every pair).
  const auto& ga = g.ands();
  for (std::size_t q = 0; q < groups; ++q) {
    Cnf& cnf = out.cnfs[q];
    ConeEncoder enc(cnf, I);
    Gates& gates = enc.gates();
    auto lit_of = [&](std::uint32_t l) { return enc.lit(ga, l); };
    std::vector<int> some;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      if (group_of[k] != q) continue;
      const int x = gates.xor_(lit_of(pairs[k].first), lit_of(pairs[k].second));
      if (x != gates.f()) some.push_back(x);
    }
    out.in_vars[q] = enc.in_var();
    if (some.empty()) {  // every pair one literal of the CNF's own hashing: equal by structure
      cnf = Cnf();
      continue;
    }
    cnf.lits.insert(cnf.lits.end(), some.begin(), some.end());
    cnf.lits.push_back(0);
    ++cnf.num_clauses;
  }
  for (const Cnf& c : out.cnfs) out.clauses += c.num_clauses;
  return out;
}

std::vector<std::string> outputs_differing_on(const JointAig& j, const std::vector<std::uint32_t>& input, std::size_t most) {
  const std::uint32_t I = j.inputs;
  std::vector<std::uint8_t> v(1 + I + j.ands.size(), 0);
  for (std::uint32_t i = 0; i < I && i < input.size(); ++i) v[1 + i] = static_cast<std::uint8_t>(input[i] & 1);
  auto lit = [&](std::uint32_t l) { return static_cast<std::uint8_t>(v[l >> 1] ^ (l & 1)); };
  for (std::size_t k = 0; k < j.ands.size(); ++k) v[1 + I + k] = lit(j.ands[k].first) & lit(j.ands[k].second);
  std::vector<std::string> out;
  for (std::size_t k = 0; k < j.output_names.size() && out.size() < most; ++k)
    if (lit(j.out_a[k]) != lit(j.out_b[k])) out.push_back(j.output_names[k]);
  return out;
}

std::vector<std::string> round_names(const std::string& label, std::size_t groups) {
  std::vector<std::string> n;
  for (std::size_t q = 0; q < groups; ++q) n.push_back(label + ", group " + std::to_string(q + 1) + " of " + std::to_string(groups));
  return n;
}

SweepRecord sweep_record(const JointAig& j, const std::vector<std::uint32_t>& cand, std::vector<std::string> names) {
  SweepRecord r;
  r.equal = true;
  r.vars = 1 + j.inputs + j.ands.size();
  r.first_b = 1 + j.inputs + j.a_ands;
  r.names = std::move(names);
  for (std::size_t v = r.first_b; v < cand.size(); ++v)
    if (cand[v] != ~0u) r.pairs.emplace_back(static_cast<std::uint32_t>(v), cand[v]);
  return r;
}

std::vector<std::uint32_t> cand_of(const JointAig& j, const SweepRecord& r) {
  const std::string where = "the certificate index's sweep";
  const std::size_t vars = 1 + j.inputs + j.ands.size(), first_b = 1 + j.inputs + j.a_ands;
  if (r.vars != vars || r.first_b != first_b)
    throw InputError("a sweep of other circuits (" + std::to_string(r.vars) + " nodes, " + std::to_string(r.first_b) + " of the first; these have " +
                         std::to_string(vars) + ", " + std::to_string(first_b) + ")",
                     where);
  if (r.names.empty() || r.names.size() > 4096) throw InputError("a sweep's round has 1 to 4096 miters, not " + std::to_string(r.names.size()), where);
  std::vector<std::uint32_t> cand(vars, ~0u);
  for (const auto& [v, l] : r.pairs) {
    if (v < first_b || v >= vars) throw InputError("a pair's node " + std::to_string(v) + " is not one of the second circuit's", where);
    if (l >= 2 * first_b) throw InputError("a pair's literal " + std::to_string(l) + " is not one of the first circuit's", where);
    if (cand[v] != ~0u) throw InputError("node " + std::to_string(v) + " is paired twice", where);
    cand[v] = l;
  }
  return cand;
}

RoundOutcome prove_round(const JointAig& j, const SolverSpec& s, const SweepOptions& o, const std::vector<std::uint32_t>& cand,
                         const std::vector<std::string>& names, bool sat_is_broken, double timeout_s) {
  const std::size_t groups = names.size();
  const auto t0 = std::chrono::steady_clock::now();
  auto left = [&] { return timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  RoundOutcome out;
  const SweepRound sr = sweep_round(j, cand, groups);
  out.pairs = sr.pairs;
  out.clauses = sr.clauses;
  std::vector<const Cnf*> ask;
  std::vector<std::size_t> of;
  for (std::size_t q = 0; q < groups; ++q)
    if (sr.cnfs[q].num_clauses) ask.push_back(&sr.cnfs[q]), of.push_back(q);
  auto what = [&](std::size_t k) { return names[of[k]]; };
  std::vector<SolveResult> rs(ask.size());
  std::vector<std::string> second_why(ask.size());
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex mu;
  auto work = [&] {
    for (std::size_t k; (k = next++) < ask.size();) {
      try {
        MiterLabel name(what(k));
        rs[k] = solve_by_goals(s, *ask[k], left(), o.cancel);
        if (rs[k].answer == Answer::Unsat && o.second) second_why[k] = confirm_unsat(*o.second, *ask[k], left(), what(k), o.cancel);
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu);
        if (!error) error = std::current_exception();
        next = ask.size();
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < std::min<std::size_t>(std::max(1u, o.threads), ask.size()); ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  out.miters = ask.size();
  for (std::size_t k = 0; k < rs.size(); ++k) {
    if (rs[k].answer == Answer::Unsat && second_why[k].empty()) continue;
    if (rs[k].answer == Answer::Unsat) {
      out.why = second_why[k];
      return out;
    }
    if (rs[k].answer == Answer::Unknown) {
      out.why = rs[k].why.empty() ? std::string("no answer") : rs[k].why;
      return out;
    }
    if (sat_is_broken)
      throw InputError("CaDiCaL answered SAT on the " + what(k) + " after proving each of its pairs incrementally (a broken solver)", s.binary);
    out.why = "a pair of " + what(k) + " differs";
    return out;
  }
  out.proved = true;
  return out;
}

}  // namespace cz::circuits::sat
