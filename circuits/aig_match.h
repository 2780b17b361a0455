// Are two circuits the same Boolean function, output by output, by structure alone? Both are
// lowered to one structurally hashed AIG (aig_strash.h: ABC's strash), the second's inputs
// identified with the first's by name: an output of the second that reaches the very literal of the
// first's output of the same name computes the same function of those inputs on every input.
// This is a proof (hash-consing is sound: equal literals are equal nodes), never a refutation:
// different literals may still be equivalent functions (then a SAT miter or another route decides).
// Used to recognise a user's circuit file as a construction's circuit (issue 38 item 4: an
// exported mqar/dyadic circuit is proved by the construction's stages; app/engine).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "circuits/circuit.h"

namespace cz::circuits {

struct AigMatch {
  std::string why;                  // non-empty: the ports do not correspond by name (what differs)
  std::size_t outputs = 0;          // outputs compared (every output, by name)
  std::size_t same = 0;             // ... that are the same literal of the joint AIG
  std::vector<std::string> differ;  // the names of the first (at most 8) that are not
  std::size_t ands_a = 0, ands_b = 0, ands_joint = 0;  // AND nodes of a, of b, of the two together
  bool equal() const { return why.empty() && outputs > 0 && same == outputs; }
};

// The two circuits as one strashed AIG: a's nodes first (vars 1..inputs its inputs, then its
// a_ands AND nodes, each kept: a is strashed already), then b's over a's inputs by name. Literals
// as in aig_strash.h; var >= 1 + inputs + a_ands is a node of b's that a does not have.
struct JointAig {
  std::string why;  // non-empty: the ports do not correspond by name (what differs); nothing else set
  std::uint32_t inputs = 0;
  std::size_t a_ands = 0, b_ands = 0;  // AND nodes of a and of b (each lowered alone)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ands;  // the joint AIG's AND nodes
  std::vector<std::string> output_names;                      // by name, each once
  std::vector<std::uint32_t> out_a, out_b;                    // the literal of each name's output in a and in b
};
JointAig joint_aig(const Circuit& a, const Circuit& b);

// a and b must have all-Bit outputs (to_aig's precondition: std::invalid_argument otherwise). The
// ports correspond when both have the same input names and the same output names, each once.
AigMatch aig_match(const Circuit& a, const Circuit& b);
// The same from the joint AIG already built (its why, if any, becomes the match's).
AigMatch aig_match(const JointAig& j);

}  // namespace cz::circuits
