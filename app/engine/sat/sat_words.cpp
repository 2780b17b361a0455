// --method sat for tasks compare and sort (src/verify/task_words.cpp): circuit/compare,
// circuit/sort and a user's circuit file (`verify --circuit F --task compare|sort --method sat`),
// proved against the reference checkers (circuits/reference/compare_ref.h, sort_ref.h); a SAT model
// is confirmed by the task's own verdict (Task::judge, the enumerating check's) on the circuit
// evaluated exactly, placed by the same rule as the enumerating check (byo.h place_circuit).
#include "app/engine/sat/sat_words.h"

#include "app/engine/sat/sat_path.h"
#include "app/engine/sat/sat_problem.h"
#include "app/engine/sat/sat_stages.h"

#include <algorithm>
#include <stdexcept>

#include "circuits/reference/compare_ref.h"
#include "circuits/reference/sort_ref.h"
#include "util/error.h"

namespace cz {

namespace ref = circuits::reference;

namespace {

// The task's own verdict (Task::judge) on one input in the checker's order (compare: x[0..d),
// y[0..d); sort: k0[0..d), k1...: the task input u row-major), the circuit placed as the
// enumerating check places it and evaluated exactly.
std::function<std::optional<Failure>(const std::vector<int>&)> judged_by_task(const Task& t, const Params& p,
                                                                             std::shared_ptr<const circuits::Circuit> c,
                                                                             const std::string& where) {
  const TaskShapeNeed need = t.shape(p);
  const CircuitPlacement pl = place_circuit(*c, need, t.name, where);
  auto eval = placed_eval(std::move(c), pl, need.out_N);
  return [eval, judge = t.judge, p, rows = need.N, cols = need.d](const std::vector<int>& bits) {
    Matrix<std::int64_t> u(rows, cols, 0);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t k = 0; k < cols; ++k) u(r, k) = bits[r * cols + k];
    return judge(p, u, eval(u));
  };
}

// The task's parameters at a construction's values (circuit/compare: d; circuit/sort: n, d).
Params task_params_of(const Task& t, const Params& p) {
  std::map<std::string, std::string> given;
  for (const auto& spec : t.params) given[spec.name] = p.s(spec.name);
  return Params::parse(t.params, given);
}

// circuit/compare and circuit/sort: the ordinary check enumerates "input i = bit i of the instance
// number"; when the inputs fit its exhaustive domain (<= 32 bits), the SAT instance is that index
// of the construction's own check. Beyond, the task's verdict (judged_by_task).
std::function<std::optional<Failure>(const std::vector<int>&)> builtin_confirm(const Construction& c, const Params& p, const Built& bt,
                                                                               std::vector<std::string> names) {
  const Task& t = find_task(c.task);
  auto judged = judged_by_task(t, task_params_of(t, p), bt.circuit_ir, c.name);
  return [&c, p, bt, names = std::move(names), judged](const std::vector<int>& bits) -> std::optional<Failure> {
    if (bits.size() > 32) return judged(bits);
    const auto in = sat_artifact_inputs(*bt.circuit_ir, names, bits);
    DomainOptions o;
    o.force_exhaustive = true;
    const Check check = c.check(p, bt, o);
    std::uint64_t k = 0;
    for (std::size_t i = 0; i < in.size(); ++i) k |= static_cast<std::uint64_t>(in[i]) << i;
    return sat_engine_failure(check, k);
  };
}

std::string compare_text(std::size_t d, const Int& count) {
  return "every pair (x, y) of " + std::to_string(d) + "-bit words: 2^" + std::to_string(2 * d) + " = " + count.str() + " inputs";
}
std::string sort_text(std::size_t n, std::size_t d, const Int& count) {
  return "every vector of " + std::to_string(n) + " keys of " + std::to_string(d) + " bits: 2^" + std::to_string(n * d) + " = " +
         count.str() + " inputs (ties in any index order)";
}

}  // namespace

SatProblem sat_compare_problem(const Construction& c, const Params& p, const Built& bt) {
  SatProblem pr;
  pr.artifact = bt.circuit_ir;
  const std::size_t d = p.u("d");
  pr.checker = ref::compare_checker(d, sat_output_names(*pr.artifact), c.name);
  pr.instances = sat_power(Int(2), 2 * d);
  pr.domain_text = compare_text(d, pr.instances);
  pr.confirm = builtin_confirm(c, p, bt, sat_task_input_names(pr.checker));
  return pr;
}

SatProblem sat_sort_problem(const Construction& c, const Params& p, const Built& bt) {
  SatProblem pr;
  pr.artifact = bt.circuit_ir;
  const std::size_t n = p.u("n"), d = p.u("d");
  pr.checker = ref::sort_checker(n, d, sat_output_names(*pr.artifact), c.name);
  pr.instances = sat_power(Int(2), n * d);
  pr.domain_text = sort_text(n, d, pr.instances);
  pr.confirm = builtin_confirm(c, p, bt, sat_task_input_names(pr.checker));
  return pr;
}

SatOutcome run_words_task_sat(const std::string& task_name, std::map<std::string, std::string> given, const ByoArtifact& a,
                              std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o) {
  if (task_name != "compare" && task_name != "sort") throw std::logic_error("run_words_task_sat: task " + task_name);
  const Task& t = find_task(task_name);
  circuit = sat_bit_circuit(std::move(circuit), a.file);
  // The parameters the file does not fix come from its input names (compare: d from x[k]; sort:
  // n and d from k<i>[b]), as the enumerating check takes them (byo.cpp run_task_check).
  if (t.fill_from_inputs) t.fill_from_inputs(given, input_names(*circuit));
  const Params p = Params::parse(t.params, given);
  const std::size_t d = p.u("d"), n = t.name == "sort" ? p.u("n") : 2;
  // The shape rule of the enumerating check (place_circuit): the file's ports are exactly the
  // task's, each once, by name; a port it lacks or one the task does not have is refused.
  auto confirm = judged_by_task(t, p, circuit, a.file);
  SatProblem pr;
  pr.artifact = circuit;
  pr.checker = t.name == "compare" ? ref::compare_checker(d, sat_output_names(*circuit), a.file)
                                   : ref::sort_checker(n, d, sat_output_names(*circuit), a.file);
  pr.instances = sat_power(Int(2), n * d);
  pr.domain_text = t.name == "compare" ? compare_text(d, pr.instances) : sort_text(n, d, pr.instances);
  pr.confirm = confirm;
  Built bt;
  bt.circuit = a.circuit;
  nlohmann::json head = sat_head_of(a.file, checked_params(t, p), bt);
  head["task"] = t.name;
  head["artifact"] = {{"kind", a.kind}, {"file", a.file}, {"format", a.format}};
  // circuit/sort's own circuit (an export of it): its stages (as for mqar/dyadic, sat_stages.h).
  SatOptions rest = o;  // less the seconds a SAT sweep spent (--timeout is for the whole run)
  if (t.name == "sort")
    if (std::optional<SatOutcome> out = run_task_sat_as_sort(n, d, pr, rest, head)) return std::move(*out);
  return solve_sat_problem(pr, rest, head);
}

SatOutcome run_circuit_task_sat(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                                std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o) {
  if (const std::string why = method_refusal(task, "circuit", "sat"); !why.empty()) throw InputError(why, "--method sat");
  if (task.name == "compare" || task.name == "sort") return run_words_task_sat(task.name, std::move(given), a, std::move(circuit), o);
  return run_task_sat(task, std::move(given), a, std::move(circuit), o);
}

}  // namespace cz
