// A reference checker circuit (issue 27): the task's meaning as a small all-Bit circuit, written
// from the task's definition (src/tasks semantics), never from a construction. It reads the task's
// input bits and the answer a circuit under test gives, and says whether the input is in the
// task's domain and whether the answer is right:
//   inputs : the task inputs (named as the circuits under test name them: u[r][j], x[k], k3[b]),
//            then one input "got:NAME" per output NAME of the circuit under test;
//   outputs: "domain" (the domain conditions: distinct keys, tokens below c, valid one-hot rows),
//            then "ok:GROUP" per group of the answer (e.g. one per MQAR output cell), whose AND
//            is "the whole answer is right". Groups come in families (an MQAR query's cells, a
//            comparator's output word), so a prover may take one miter per group, per family or
//            for all.
// A miter (circuits/sat/miter.h) asks for an input with domain = 1 and some ok = 0.
// The checkers use only the Boolean gadgets (NOT AND OR XOR XNOR MUX): no comparator, sorter or
// search gadget that a construction uses.
#pragma once
#include <string>
#include <vector>

#include "circuits/circuit.h"

namespace cz::circuits::reference {

struct Checker {
  Circuit circuit;
  std::size_t task_inputs = 0;      // inputs [0, task_inputs) are the task's; the rest are got:NAME
  std::vector<std::string> groups;  // names of the ok outputs, in output order (outputs 1..)
  std::vector<std::string> family;  // family of each group (e.g. "query 3")
  // Case splits (cube-and-conquer): outputs after the ok outputs, "case:FAMILY:k", each a
  // condition of the task's own meaning (MQAR: q_i = k_j). A prover may split a family's miter
  // into one miter per case (case k = 1) plus one with every case 0: the cubes cover every input.
  struct Case {
    std::string family;
    std::size_t output;  // index into circuit.outputs()
  };
  std::vector<Case> cases;
};

// Position of each artifact output among the checker's got inputs: throws InputError when a name
// is not one the task has (where = `where`).
std::size_t got_input(const Checker& ch, const std::string& output_name, const std::string& where);

}  // namespace cz::circuits::reference
