// One round of SAT sweeping's speculative reduction (sweep.h): the reduced graph of b over the
// pairs `cand` proposes, and the miters that ask whether any pair, or any output, differs. Shared by
// the rounds of from-scratch miters and by the certified final round of the incremental sweep.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "circuits/aig_match.h"
#include "circuits/sat/cnf.h"
#include "circuits/sat/solve_hook.h"
#include "circuits/sat/solver.h"

namespace cz::circuits::sat {

// The Tseitin literals of a strashed AIG's nodes (aig_strash.h: vars 1..inputs the inputs, then the
// AND nodes), encoded into cnf on demand: only the cone of each literal asked for, iteratively.
class ConeEncoder {
 public:
  ConeEncoder(Cnf& cnf, std::uint32_t inputs) : gates_(cnf), inputs_(inputs), in_var_(inputs, 0) {}
  // The CNF literal of AIG literal l; ands: the AIG's AND nodes (it may have grown since the last call).
  int lit(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ands, std::uint32_t l);
  Gates& gates() { return gates_; }
  // The CNF variable of each input (0: not in any cone asked for yet).
  const std::vector<int>& in_var() const { return in_var_; }

 private:
  Gates gates_;
  std::uint32_t inputs_;
  std::vector<int> in_var_, L_;
  std::vector<std::uint32_t> stack_;
};

struct SweepRound {
  std::vector<Cnf> cnfs;                 // one per group; an empty Cnf: every pair of it equal by structure
  std::vector<std::vector<int>> in_vars;  // per group: the CNF variable of each joint input (0: not in the cone)
  std::size_t pairs = 0;                  // pairs that are not one literal of the reduced graph (outputs included)
  std::size_t clauses = 0;                // the miters' clauses together
};

// cand[v] for each of b's new vars v (>= first_b = 1 + inputs + a_ands): the literal of a it is to
// equal, or ~0u (b's own node, kept). A pair's group: its node's place among b's nodes, the outputs'
// pairs in the last group, so that a group the refinements did not touch gives the same miter as in
// the round before. pairs == 0: every output of b reduced to a's own (equal by structure).
SweepRound sweep_round(const JointAig& j, const std::vector<std::uint32_t>& cand, std::size_t groups);

struct SweepOptions;

struct RoundOutcome {
  bool proved = false;      // every group's miter UNSAT (certified by the hook where one is installed)
  std::string why;          // not proved: why (a time limit, --confirm's second solver, a pair that differs)
  std::size_t miters = 0;   // miters asked
  std::size_t pairs = 0, clauses = 0;
};

// The round over cand in names.size() miters, each asked by solve_by_goals (incremental.h: pair by
// pair in one solver where CaDiCaL runs in this process, else one solve(); the hook replays or
// certifies each) under its name; o.threads miters at once, o.second re-solving each UNSAT answer. A
// SAT answer: InputError naming the solver when sat_is_broken (the pairs were each proved already),
// else not proved.
RoundOutcome prove_round(const JointAig& j, const SolverSpec& s, const SweepOptions& o, const std::vector<std::uint32_t>& cand,
                         const std::vector<std::string>& names, bool sat_is_broken, double timeout_s);

// The names of the outputs (the first `most`) whose two literals differ on one joint input.
std::vector<std::string> outputs_differing_on(const JointAig& j, const std::vector<std::uint32_t>& input, std::size_t most);

// A round's miter names: "<label>, group q of G".
std::vector<std::string> round_names(const std::string& label, std::size_t groups);

// What check-proof needs to rebuild an equal sweep's final round (solve_hook.h), and back: the cand
// of a record (InputError, where "the certificate index", when it is not of j's shape: a var
// outside b's nodes, a literal outside a's, a var twice, no names).
SweepRecord sweep_record(const JointAig& j, const std::vector<std::uint32_t>& cand, std::vector<std::string> names);
std::vector<std::uint32_t> cand_of(const JointAig& j, const SweepRecord& r);

}  // namespace cz::circuits::sat
