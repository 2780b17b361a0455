// --method sat for tasks compare and sort: circuit/compare, circuit/sort and a user's circuit file
// (`verify --circuit F --task compare|sort --method sat`), the tasks' plain meaning as C++ that
// confirms a SAT model on the circuit evaluated exactly.
#include "app/engine/sat_path.h"
#include "app/engine/sat_problem.h"
#include "app/engine/sat_stages.h"

#include <algorithm>
#include <stdexcept>

#include "circuits/eval.h"
#include "circuits/reference/compare_ref.h"
#include "circuits/reference/parse_cell.h"
#include "circuits/reference/sort_ref.h"
#include "util/error.h"

namespace cz {

namespace ref = circuits::reference;

namespace {

// The plain meaning of tasks compare and sort (as the constructions' ordinary checks state it),
// on the task input bits in the checker's order (compare: x[0..d), y[0..d); sort: k0[0..d), k1...)
// and the circuit's exact outputs (by name).
bool compare_accept(std::size_t d, const circuits::Circuit& a, const std::vector<int>& bits, const std::vector<Int>& got) {
  int cmp = 0;  // plain comparison, most significant bit first
  for (std::size_t k = d; k-- > 0;)
    if (bits[k] != bits[d + k]) {
      cmp = bits[k] < bits[d + k] ? -1 : 1;
      break;
    }
  for (std::size_t m = 0; m < a.outputs().size(); ++m) {
    const std::string& nm = a.outputs()[m].name;
    long long want = 0;
    if (nm == "lt") want = cmp < 0;
    else if (nm == "eq") want = cmp == 0;
    else {
      const std::size_t k = std::stoul(nm.substr(4));
      const bool mn = nm.rfind("min", 0) == 0;
      want = bits[((cmp <= 0) == mn ? 0 : d) + k];
    }
    if (!(got[m] == Int(want))) return false;
  }
  return true;
}

bool sort_accept(std::size_t n, std::size_t d, const circuits::Circuit& a, const std::vector<int>& bits, const std::vector<Int>& got) {
  std::vector<std::uint64_t> key(n, 0), outk(n, 0), outi(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < d; ++t) key[i] |= static_cast<std::uint64_t>(bits[i * d + t]) << t;
  for (std::size_t m = 0; m < a.outputs().size(); ++m) {
    const std::string& nm = a.outputs()[m].name;
    const std::size_t br = nm.find('[');
    const std::size_t i = std::stoul(nm.substr(3, br - 3)), t = std::stoul(nm.substr(br + 1));
    if (!(got[m] == Int(0) || got[m] == Int(1))) return false;
    (nm[0] == 'k' ? outk : outi)[i] |= static_cast<std::uint64_t>(got[m] == Int(1)) << t;
  }
  std::vector<std::uint64_t> sorted = key;
  std::sort(sorted.begin(), sorted.end());
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (outk[i] != sorted[i] || outi[i] >= n || seen[outi[i]] || key[outi[i]] != outk[i]) return false;
    seen[outi[i]] = true;
  }
  return true;
}

// The circuit evaluated exactly on one input and judged by `accept`: the failure, or nullopt.
std::optional<Failure> eval_failure(const circuits::Circuit& a, const std::vector<std::int64_t>& in,
                                    const std::function<bool(const std::vector<Int>&)>& accept) {
  const std::vector<Int> got = circuits::eval_integer(a, in);
  if (accept(got)) return std::nullopt;
  Failure f;
  nlohmann::json bits = nlohmann::json::array();
  for (auto b : in) bits.push_back(b);
  f.instance = {{"input_bits", bits}};
  f.input = bits;
  nlohmann::json g = nlohmann::json::array();
  for (const auto& v : got) g.push_back(v.str());
  f.got = g;
  f.message = "the circuit's answer (evaluated exactly) is wrong on this input";
  return f;
}

// circuit/compare and circuit/sort: the ordinary check enumerates "input i = bit i of the instance
// number"; when the inputs fit its exhaustive domain (<= 32 bits), the SAT instance is that index
// of the construction's own check. Beyond, the circuit is evaluated exactly against the plain C++
// semantics above (as the ordinary check's reference states them).
std::optional<Failure> bits_failure(const Construction& c, const Params& p, const Built& bt, const std::vector<std::int64_t>& in,
                                    const std::function<bool(const std::vector<Int>&)>& accept) {
  if (in.size() <= 32) {
    DomainOptions o;
    o.force_exhaustive = true;
    const Check check = c.check(p, bt, o);
    std::uint64_t k = 0;
    for (std::size_t i = 0; i < in.size(); ++i) k |= static_cast<std::uint64_t>(in[i]) << i;
    return sat_engine_failure(check, k);
  }
  return eval_failure(*bt.circuit_ir, in, accept);
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
  pr.checker = ref::compare_checker(d, sat_output_names(*pr.artifact), "circuit/compare");
  pr.instances = sat_power(Int(2), 2 * d);
  pr.domain_text = compare_text(d, pr.instances);
  pr.confirm = [&c, p, bt, d, a = pr.artifact, names = sat_task_input_names(pr.checker)](const std::vector<int>& bits) {
    const auto in = sat_artifact_inputs(*a, names, bits);
    return bits_failure(c, p, bt, in, [&](const std::vector<Int>& got) { return compare_accept(d, *a, bits, got); });
  };
  return pr;
}

SatProblem sat_sort_problem(const Construction& c, const Params& p, const Built& bt) {
  SatProblem pr;
  pr.artifact = bt.circuit_ir;
  const std::size_t n = p.u("n"), d = p.u("d");
  pr.checker = ref::sort_checker(n, d, sat_output_names(*pr.artifact), "circuit/sort");
  pr.instances = sat_power(Int(2), n * d);
  pr.domain_text = sort_text(n, d, pr.instances);
  pr.confirm = [&c, p, bt, n, d, a = pr.artifact, names = sat_task_input_names(pr.checker)](const std::vector<int>& bits) {
    const auto in = sat_artifact_inputs(*a, names, bits);
    return bits_failure(c, p, bt, in, [&](const std::vector<Int>& got) { return sort_accept(n, d, *a, bits, got); });
  };
  return pr;
}

SatOutcome run_words_task_sat(const std::string& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                              std::shared_ptr<const circuits::Circuit> circuit, const SatOptions& o) {
  if (task != "compare" && task != "sort") throw std::logic_error("run_words_task_sat: task " + task);
  circuit = sat_bit_circuit(std::move(circuit), a.file);
  // The parameters the file does not fix come from its input names, as a primitive task takes N
  // and d from the file: compare x[k], y[k] (d = the number of x bits); sort k<i>[b] (n keys,
  // d bits each). -p gives them explicitly; the shape rule below then holds the file to them.
  std::size_t max_i = 0, max_b = 0, xs = 0;
  for (std::size_t k = 0; k < circuit->num_inputs(); ++k) {
    const std::string& nm = circuit->input_name(k);
    std::size_t v = 0;
    if (task == "compare" && ref::parse_bit(nm, "x", v)) ++xs;
    if (task == "sort" && nm.size() > 1 && nm[0] == 'k') {
      const auto br = nm.find('[');
      if (br != std::string::npos && br > 1 && ref::parse_bit(nm.substr(br), "", v)) {
        try {
          max_i = std::max<std::size_t>(max_i, std::stoul(nm.substr(1, br - 1)) + 1);
        } catch (const std::exception&) {
        }
        max_b = std::max(max_b, v + 1);
      }
    }
  }
  if (task == "compare" && !given.count("d") && xs) given["d"] = std::to_string(xs);
  if (task == "sort" && !given.count("n") && max_i) given["n"] = std::to_string(max_i);
  if (task == "sort" && !given.count("d") && max_b) given["d"] = std::to_string(max_b);
  // The built-in construction's parameter ranges (circuit/compare: d; circuit/sort: n, d; its
  // `network` is the construction's choice, not the task's).
  std::vector<ParamSpec> specs;
  for (const auto& ps : find_construction(task == "compare" ? "circuit/compare" : "circuit/sort").params)
    if (ps.name == "d" || ps.name == "n") specs.push_back(ps);
  const Params p = Params::parse(specs, given);
  const std::size_t d = p.u("d"), n = task == "sort" ? p.u("n") : 2;
  // The shape rule: the file's inputs are exactly the task's (every bit once, by name, as
  // circuit/compare and circuit/sort name theirs); its outputs are then checked by the reference
  // checker (compare: any of lt, eq, min[k], max[k]; sort: every key<i>[b] and idx<i>[b]), which
  // refuses a name it does not know.
  {
    std::vector<std::string> want, have;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t t = 0; t < d; ++t)
        want.push_back(task == "compare" ? std::string(i ? "y[" : "x[") + std::to_string(t) + "]"
                                         : "k" + std::to_string(i) + "[" + std::to_string(t) + "]");
    for (std::size_t k = 0; k < circuit->num_inputs(); ++k) have.push_back(circuit->input_name(k));
    std::sort(want.begin(), want.end());
    std::sort(have.begin(), have.end());
    if (want != have || circuit->outputs().empty())
      throw InputError("the circuit has " + std::to_string(circuit->num_inputs()) + " inputs and " +
                           std::to_string(circuit->outputs().size()) + " outputs; task " + task + " needs " +
                           (task == "compare" ? std::to_string(2 * d) + " inputs x[k], y[k] (k < d = " + std::to_string(d) +
                                                    ") and outputs among lt, eq, min[k], max[k]"
                                              : std::to_string(n * d) + " inputs k<i>[b] (i < n = " + std::to_string(n) +
                                                    ", b < d = " + std::to_string(d) + ") and the outputs key<i>[b], idx<i>[b]"),
                       a.file);
  }
  SatProblem pr;
  pr.artifact = circuit;
  pr.checker = task == "compare" ? ref::compare_checker(d, sat_output_names(*circuit), a.file)
                                 : ref::sort_checker(n, d, sat_output_names(*circuit), a.file);
  pr.instances = sat_power(Int(2), n * d);
  pr.domain_text = task == "compare" ? compare_text(d, pr.instances) : sort_text(n, d, pr.instances);
  // A SAT model is confirmed by evaluating the file's circuit exactly on that input and judging it
  // by the task's plain meaning (compare_accept / sort_accept).
  pr.confirm = [task, n, d, a = circuit, names = sat_task_input_names(pr.checker)](const std::vector<int>& bits) {
    const auto in = sat_artifact_inputs(*a, names, bits);
    return eval_failure(*a, in, [&](const std::vector<Int>& got) {
      return task == "compare" ? compare_accept(d, *a, bits, got) : sort_accept(n, d, *a, bits, got);
    });
  };
  Built bt;
  bt.circuit = a.circuit;
  nlohmann::json head = sat_head_of(a.file, p, bt);
  head["task"] = task;
  head["artifact"] = {{"kind", a.kind}, {"file", a.file}, {"format", a.format}};
  // circuit/sort's own circuit (an export of it): its stages (as for mqar/dyadic, sat_stages.h).
  SatOptions rest = o;  // less the seconds a SAT sweep spent (--timeout is for the whole run)
  if (task == "sort")
    if (std::optional<SatOutcome> out = run_task_sat_as_sort(n, d, pr, rest, head)) return std::move(*out);
  return solve_sat_problem(pr, rest, head);
}

}  // namespace cz
