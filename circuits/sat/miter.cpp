#include "circuits/sat/miter.h"

#include <unordered_map>

#include "util/error.h"

namespace cz::circuits::sat {

namespace {
// One variable per task input (m.task_vars) and, per artifact input, the task input of its name.
std::vector<std::size_t> task_vars_for(Miter& m, const Circuit& artifact, const reference::Checker& ch, const std::string& where) {
  for (std::size_t k = 0; k < ch.task_inputs; ++k) m.task_vars.push_back(m.cnf.new_var());
  std::unordered_map<std::string, std::size_t> task_input;
  for (std::size_t k = 0; k < ch.task_inputs; ++k) task_input.emplace(ch.circuit.input_name(k), k);
  std::vector<std::size_t> art_to_task(artifact.num_inputs());
  for (std::size_t k = 0; k < artifact.num_inputs(); ++k) {
    auto it = task_input.find(artifact.input_name(k));
    if (it == task_input.end())
      throw InputError("the circuit's input " + artifact.input_name(k) + " is not an input of the task", where);
    art_to_task[k] = it->second;
  }
  return art_to_task;
}
}  // namespace

Miter build_miter(const Circuit& artifact, const reference::Checker& ch, const std::vector<std::size_t>& groups,
                  const std::string& where, const std::vector<std::size_t>& assumed,
                  const std::vector<std::pair<std::size_t, bool>>& fixed) {
  Miter m;
  Gates g(m.cnf);
  const std::vector<std::size_t> art_to_task = task_vars_for(m, artifact, ch, where);
  // got:NAME input of the checker -> artifact output (by name).
  std::unordered_map<std::string, std::size_t> art_out;
  for (std::size_t k = 0; k < artifact.outputs().size(); ++k) art_out.emplace(artifact.outputs()[k].name, k);
  for (const auto& o : artifact.outputs()) reference::got_input(ch, o.name, where);  // unknown names refused
  Tseitin art(g, artifact, [&](std::size_t k) { return m.task_vars[art_to_task[k]]; });
  Tseitin ref(g, ch.circuit, [&](std::size_t k) -> int {
    if (k < ch.task_inputs) return m.task_vars[k];
    const std::string name = ch.circuit.input_name(k).substr(4);
    auto it = art_out.find(name);
    if (it == art_out.end())  // the checker reads an output the circuit lacks
      throw InputError("the circuit has no output " + name + " (the task's answer needs it)", where);
    return art.output_lit(it->second);
  });
  m.cnf.add({ref.output_lit(0)});  // the input is in the task's domain
  for (std::size_t gi : assumed) m.cnf.add({ref.output_lit(1 + gi)});
  for (auto [out, value] : fixed) m.cnf.add({value ? ref.output_lit(out) : -ref.output_lit(out)});
  std::vector<int> wrong;          // some ok of the chosen groups is 0
  for (std::size_t gi : groups) wrong.push_back(-ref.output_lit(1 + gi));
  m.cnf.lits.insert(m.cnf.lits.end(), wrong.begin(), wrong.end());
  m.cnf.lits.push_back(0);
  ++m.cnf.num_clauses;
  m.artifact_gates = art.gates_encoded();
  m.checker_gates = ref.gates_encoded();
  return m;
}

Miter build_domain_miter(const Circuit& artifact, const reference::Checker& ch, std::size_t bad, const std::string& where) {
  Miter m;
  Gates g(m.cnf);
  const std::vector<std::size_t> art_to_task = task_vars_for(m, artifact, ch, where);
  Tseitin art(g, artifact, [&](std::size_t k) { return m.task_vars[art_to_task[k]]; });
  // The domain output reads task inputs only; a got input it reached would be a checker bug.
  Tseitin ref(g, ch.circuit, [&](std::size_t k) -> int {
    if (k < ch.task_inputs) return m.task_vars[k];
    throw std::logic_error("build_domain_miter: the checker's domain reads an answer input");
  });
  m.cnf.add({ref.output_lit(0)});
  m.cnf.add({art.output_lit(bad)});
  m.artifact_gates = art.gates_encoded();
  m.checker_gates = ref.gates_encoded();
  return m;
}

std::vector<int> task_inputs_of(const Miter& m, const std::vector<signed char>& model) {
  std::vector<int> bits;
  for (int v : m.task_vars) bits.push_back(static_cast<std::size_t>(v) < model.size() ? model[static_cast<std::size_t>(v)] : 0);
  return bits;
}

}  // namespace cz::circuits::sat
