// Miters of a circuit under test against a reference checker (circuits/reference/checker.h): one
// CNF that is satisfiable exactly when some input of the task's domain gets a wrong answer from
// the circuit in the chosen group(s) of outputs. The circuit's inputs are matched to the task's
// by name; its outputs feed the checker's got:NAME inputs. Only the cones of the chosen ok
// outputs are encoded (circuits/sat/cnf.h), so one miter per group (e.g. per MQAR query) encodes
// that query's cone only.
#pragma once
#include <vector>

#include "circuits/reference/checker.h"
#include "circuits/sat/cnf.h"

namespace cz::circuits::sat {

struct Miter {
  Cnf cnf;
  std::vector<int> task_vars;  // variable of task input k (k < checker.task_inputs)
  std::size_t artifact_gates = 0, checker_gates = 0;  // Bit gates encoded from each side
};

// groups: indices into checker.groups; the miter asks for domain ∧ ¬(∧ ok[g] for g in groups).
// assumed: groups already proved (UNSAT miters) on the same domain, added as constraints ok[g] = 1:
// they hold on every domain input, so the miter stays satisfiable exactly when it was, and the
// solver may use them as lemmas. fixed: checker outputs (by index) held at a value: a cube.
// Throws InputError (where) when the circuit has an input the task does not, or an output name it
// does not know; std::logic_error when the circuit is not all-Bit.
Miter build_miter(const Circuit& artifact, const reference::Checker& checker, const std::vector<std::size_t>& groups,
                  const std::string& where, const std::vector<std::size_t>& assumed = {},
                  const std::vector<std::pair<std::size_t, bool>>& fixed = {});

// A property miter: satisfiable exactly when some input of the checker's domain sets the
// artifact's output `bad` (by index) to 1 (the checker's got inputs are not read: only its
// "domain" output, which depends on the task inputs alone). Used to prove per-layer bounds.
Miter build_domain_miter(const Circuit& artifact, const reference::Checker& checker, std::size_t bad, const std::string& where);

// The task input bits of a SAT model of the miter.
std::vector<int> task_inputs_of(const Miter& m, const std::vector<signed char>& model);

}  // namespace cz::circuits::sat
