// The cone of some Bit wires of a circuit, encoded into a CNF up to a CUT: wires the caller gives
// literals (free variables of a local miter, or literals of another encoding), circuit inputs
// (fresh free variables unless given) and 0/1 constants (folded). Local miters over such cones
// prove a stage of a circuit for EVERY value of its cut wires, which is sound however the stage
// shares gates with the rest (issue 27: stage-wise proofs past where one miter stalls).
#pragma once
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "circuits/builder.h"  // Wire
#include "circuits/circuit.h"
#include "circuits/sat/cnf.h"

namespace cz::circuits::sat {

class CutCone {
 public:
  // cap: the most gates encoded (a cone that is not cut within it is refused: why()).
  CutCone(const Circuit& c, Gates& g, std::size_t cap) : c_(c), g_(g), cap_(cap) {}
  // A cut wire's literal (a 0/1 constant gate keeps its value: the literal is ignored).
  void cut(GateId id, int lit);
  // A fresh variable for each wire not yet given one; returns their literals.
  std::vector<int> free(const std::vector<Wire>& ws);
  // The literal of Bit wire id; 0 with why() set when its cone has a Field gate, a constant that
  // is not 0/1, or more than cap gates above the cut.
  int lit(GateId id);
  std::vector<int> lits(const std::vector<Wire>& ws);  // empty (why set) on failure
  const std::string& why() const { return why_; }
  std::size_t encoded() const { return encoded_; }
  // Circuit inputs the cone reached that were not cut (they became free variables).
  std::size_t free_inputs() const { return free_inputs_; }

 private:
  int leaf(GateId id);
  const Circuit& c_;
  Gates& g_;
  std::size_t cap_;
  std::unordered_map<GateId, int> lit_;
  std::size_t encoded_ = 0, free_inputs_ = 0;
  std::string why_;
};

// Word helpers on literals (LSB first): [x == y], [x < y] as unsigned integers, s ? x : y.
int lits_equal(Gates& g, const std::vector<int>& x, const std::vector<int>& y);
int lits_less(Gates& g, const std::vector<int>& x, const std::vector<int>& y);
std::vector<int> lits_mux(Gates& g, int s, const std::vector<int>& x, const std::vector<int>& y);
// [x < y] with the gates of circuits::gadgets::less_than (MSB-first leaves (x_k xnor y_k, ¬x_k·y_k),
// a balanced tree of (e1·e2, l1 + e1·l2)): through Gates' hash-consing, a cone that reaches such a
// comparator on the same literals gets this very literal, so a miter that states an order fact
// with it does not ask the solver to prove two comparator encodings equal (issue 38: 2-5x on
// mqar/dyadic's pbs call miters).
int lits_less_gadget(Gates& g, const std::vector<int>& x, const std::vector<int>& y);

}  // namespace cz::circuits::sat
