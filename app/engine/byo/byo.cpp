#include "app/engine/byo/byo.h"

#include <stdexcept>

#include "app/engine/byo/byo_mqar.h"
#include "circuits/eval.h"
#include "exact/rings.h"
#include "circuits/stats.h"
#include "model/eval.h"
#include "util/error.h"

namespace cz {

namespace {
std::string shape_str(std::size_t r, std::size_t c) { return std::to_string(r) + "×" + std::to_string(c); }

// "u[3][1]" -> (3, 1); nullopt for any other name.
std::optional<std::pair<std::size_t, std::size_t>> cell_of(const std::string& name, char letter) {
  if (name.size() < 6 || name[0] != letter || name[1] != '[' || name.back() != ']') return std::nullopt;
  std::size_t i = 0, j = 0, pos = 2;
  auto number = [&](std::size_t& out) {
    const std::size_t start = pos;
    while (pos < name.size() && name[pos] >= '0' && name[pos] <= '9' && pos - start < 9) out = out * 10 + (name[pos++] - '0');
    return pos > start;
  };
  if (!number(i) || pos + 1 >= name.size() || name[pos] != ']' || name[pos + 1] != '[') return std::nullopt;
  pos += 2;
  if (!number(j) || pos + 1 != name.size()) return std::nullopt;
  return std::make_pair(i, j);
}

// Positions (row-major index) of named cells, when every name is a distinct cell of an R×C grid
// with R·C = count; else the file order.
std::vector<std::size_t> placement(const std::vector<std::string>& names, char letter, std::size_t cols) {
  std::vector<std::size_t> pos(names.size());
  std::vector<char> seen(names.size(), 0);
  for (std::size_t k = 0; k < names.size(); ++k) {
    auto c = cell_of(names[k], letter);
    const std::size_t at = c ? c->first * cols + c->second : names.size();
    if (!c || c->second >= cols || at >= names.size() || seen[at]) {
      for (std::size_t q = 0; q < names.size(); ++q) pos[q] = q;
      return pos;
    }
    seen[at] = 1;
    pos[k] = at;
  }
  return pos;
}

// Columns of the named grid (1 + largest j), 0 when the names are not all cells.
std::size_t grid_cols(const std::vector<std::string>& names, char letter) {
  std::size_t cols = 0;
  for (const auto& n : names) {
    auto c = cell_of(n, letter);
    if (!c) return 0;
    cols = std::max(cols, c->second + 1);
  }
  return cols;
}
}  // namespace

ByoArtifact model_artifact(Model m, const std::string& file) {
  if (m.ring.rfind("Fp", 0) == 0)
    throw InputError("a model over " + m.ring + " computes modulo p; tasks are checked over the integers (give ring Z)", file);
  ByoArtifact a;
  a.kind = "model";
  a.file = file;
  a.format = "model-json";
  std::shared_ptr<const IntegerEvaluator> ev;
  try {
    ev = std::make_shared<const IntegerEvaluator>(m);
  } catch (const std::domain_error& e) {
    throw InputError(std::string("the model has a weight that is not an integer (") + e.what() + "); tasks are checked over Z", file);
  }
  a.fn = {m.N, m.d, m.N, m.d, file, [ev](const Matrix<std::int64_t>& u) { return (*ev)(u); }};
  const ParamCount pc = count_params(m);
  a.measured = {{"layers", static_cast<long long>(m.layers.size())}, {"inner_N", static_cast<long long>(m.inner_N)},
                {"inner_d", static_cast<long long>(m.inner_d)}, {"params_dense", static_cast<long long>(pc.dense)},
                {"params_nonzero", static_cast<long long>(pc.nonzero)}};
  a.model = std::move(m);
  return a;
}

ByoArtifact circuit_artifact(std::shared_ptr<const circuits::Circuit> c, const std::string& file, const std::string& format) {
  if (!c->integral_constants())
    throw InputError("the circuit has a constant that is not an integer; tasks are checked over Z", file);
  ByoArtifact a;
  a.kind = "circuit";
  a.file = file;
  a.format = format;
  const circuits::CircuitStats st = circuits::compute_stats(*c);
  a.circuit = circuits::to_json(st);
  a.measured = {{"size", static_cast<long long>(st.size)}, {"depth", static_cast<long long>(st.depth)},
                {"mul_depth", static_cast<long long>(st.mul_depth)}, {"width", static_cast<long long>(st.width)}};
  if (st.formal_degree != UINT64_MAX) a.measured["degree"] = static_cast<long long>(st.formal_degree);
  std::vector<std::string> in, out;
  for (std::size_t k = 0; k < c->num_inputs(); ++k) in.push_back(c->input_name(k));
  for (const auto& o : c->outputs()) out.push_back(o.name);
  // Each port once (issue 46 item 2): a task reads its ports by name, so a name given twice (an
  // output key0[0] and a negated copy named key0[0]) would let one method judge the first copy and
  // another the second. Refused for every task and every method (they all take the file from here).
  for (const auto* names : {&in, &out}) {
    std::map<std::string, std::size_t> first;
    for (std::size_t k = 0; k < names->size(); ++k) {
      const std::string& nm = (*names)[k];
      if (nm.empty()) continue;  // unnamed ports are placed by position
      auto [it, fresh] = first.emplace(nm, k);
      if (!fresh)
        throw InputError(std::string(names == &in ? "input" : "output") + " name '" + nm + "' is given twice (" +
                             (names == &in ? "inputs " : "outputs ") + std::to_string(it->second) + " and " + std::to_string(k) +
                             "); a task reads each port by name exactly once",
                         file);
    }
  }
  // The input shape: from the names when they are u[i][j]; else left to the task (0 = unknown).
  // The output placement is decided against the task's shape in run_task_check.
  const std::size_t di = grid_cols(in, 'u');
  a.fn.d = di;
  a.fn.N = di ? in.size() / di : 0;
  a.fn.where = file;
  a.circuit_ir = std::move(c);
  return a;
}

namespace {
// A task whose ports have their own names (TaskShapeNeed::in_names, out_names: sort, compare):
// the file's ports are exactly the task's, each once; a port the file lacks, or one the task does
// not have, is refused (every method places the file here).
CircuitPlacement place_named(const std::vector<std::string>& in, const std::vector<std::string>& out, const TaskShapeNeed& need,
                             const std::string& task, const std::string& file) {
  auto refuse = [&](const std::string& why) {
    throw InputError("the circuit has " + std::to_string(in.size()) + " inputs and " + std::to_string(out.size()) +
                         " outputs; task " + task + " needs " + need.text + ": " + why,
                     file);
  };
  auto place = [&](const std::vector<std::string>& names, const std::vector<std::string>& want, const char* what) {
    std::map<std::string, std::size_t> at;
    for (std::size_t k = 0; k < want.size(); ++k) at.emplace(want[k], k);
    std::vector<std::size_t> pos(names.size());
    std::vector<char> seen(want.size(), 0);
    for (std::size_t k = 0; k < names.size(); ++k) {
      auto it = at.find(names[k]);
      if (it == at.end())
        refuse(std::string(what) + " " + (names[k].empty() ? "#" + std::to_string(k) + " (unnamed)" : names[k]) +
               " is not one of the task's (ports are read by name)");
      if (seen[it->second]) refuse(std::string(what) + " " + names[k] + " appears twice");
      seen[it->second] = 1;
      pos[k] = it->second;
    }
    for (std::size_t k = 0; k < want.size(); ++k)
      if (!seen[k]) refuse("the file has no " + std::string(what) + " " + want[k] + " (the task reads every port)");
    return pos;
  };
  CircuitPlacement pl;
  pl.in_cols = need.d;
  pl.in_pos = place(in, need.in_names, "input");
  pl.out_cols = need.out_d;
  pl.out_pos = place(out, need.out_names, "output");
  return pl;
}
}  // namespace

CircuitPlacement place_circuit(const circuits::Circuit& c, const TaskShapeNeed& need, const std::string& task,
                               const std::string& file) {
  std::vector<std::string> in, out;
  for (std::size_t k = 0; k < c.num_inputs(); ++k) in.push_back(c.input_name(k));
  for (const auto& o : c.outputs()) out.push_back(o.name);
  const std::size_t di = grid_cols(in, 'u');
  const bool named = di != 0;
  auto refuse = [&](const std::string& why) {
    throw InputError("the circuit has " + std::to_string(in.size()) + " inputs and " + std::to_string(out.size()) +
                         " outputs; task " + task + " needs " + std::to_string(need.N * need.d) + " inputs u[i][j] and at most " +
                         std::to_string(need.out_N * need.out_d) + " outputs y[i][j] (cells it leaves out read as 0): " + need.text +
                         ": " + why,
                     file);
  };
  CircuitPlacement pl;
  pl.in_cols = need.d;
  if (!need.in_names.empty()) return place_named(in, out, need, task, file);
  if (named) {
    if (in.size() != need.N * need.d || di != need.d) refuse("its inputs u[i][j] form a different grid");
    pl.in_pos = placement(in, 'u', di);
  } else {
    if (in.size() != need.N * need.d) refuse("the file has no u[i][j] names: give -p N and -p d (its inputs are then taken row-major)");
    pl.in_pos.resize(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) pl.in_pos[k] = k;
  }
  // Outputs named y[i][j] are placed by name, and may leave cells out (the constructions' task
  // circuits output only the rows that are not zero by construction, e.g. mqar/dyadic's query rows):
  // such a cell reads as 0, and the task's check compares the whole out_N × out_d matrix, so a
  // missing cell that should not be 0 fails as it would if the file output a constant 0. Cells in
  // extra columns j >= out_d (mqar/dyadic's binary "found" flag) are no part of the task's output
  // and are not read; rows i >= out_N are refused.
  bool all_named = !out.empty();
  for (const auto& nm : out) all_named = all_named && cell_of(nm, 'y').has_value();
  pl.out_pos.assign(out.size(), SIZE_MAX);
  pl.out_cols = need.out_d;
  if (all_named) {
    // The task's optional columns (MQAR's found bit) are judged when the file has any of their cells.
    const std::size_t judged = need.out_d + need.out_optional;
    for (const auto& nm : out)
      if (const std::size_t j = cell_of(nm, 'y')->second; j >= need.out_d && j < judged) pl.out_cols = judged;
    const std::size_t cells = need.out_N * pl.out_cols;
    std::vector<char> seen(cells, 0);
    std::size_t extra = 0;
    for (std::size_t k = 0; k < out.size(); ++k) {
      const auto [i, j] = *cell_of(out[k], 'y');
      if (i >= need.out_N) refuse("output " + out[k] + " is outside the task's " + std::to_string(need.out_N) + " rows");
      if (j >= pl.out_cols) {
        ++extra;
        continue;
      }
      const std::size_t at = i * pl.out_cols + j;
      if (seen[at]) refuse("output " + out[k] + " appears twice");
      seen[at] = 1;
      pl.out_pos[k] = at;
    }
    const std::size_t missing = cells - (out.size() - extra);
    if (missing)
      pl.notes.push_back(std::to_string(missing) + " of the task's " + std::to_string(cells) +
                         " output cells are not outputs of the file: read as 0 and checked as such");
    if (pl.out_cols > need.out_d)
      pl.notes.push_back("the file outputs column " + std::to_string(need.out_d) + ": judged as task " + task + "'s " +
                         (need.optional_text.empty() ? std::string("optional column") : need.optional_text));
    if (extra)
      pl.notes.push_back(std::to_string(extra) + " output(s) in columns j >= " + std::to_string(judged) + " (beyond task " + task +
                         "'s output) are not read by this check");
  } else {
    const std::size_t cells = need.out_N * need.out_d;
    if (out.size() != cells) refuse("its outputs are not all named y[i][j], so they are taken row-major and must be exactly the task's cells");
    for (std::size_t k = 0; k < out.size(); ++k) pl.out_pos[k] = k;
  }
  return pl;
}

std::vector<std::string> input_names(const circuits::Circuit& c) {
  std::vector<std::string> v;
  for (std::size_t k = 0; k < c.num_inputs(); ++k) v.push_back(c.input_name(k));
  return v;
}

std::function<Matrix<Int>(const Matrix<std::int64_t>&)> placed_eval(std::shared_ptr<const circuits::Circuit> c,
                                                                   const CircuitPlacement& pl, std::size_t out_rows) {
  // int64 with every operation overflow-checked, exact over Z on overflow (as the constructions'
  // circuit checks evaluate: the same values, several times faster than Z throughout).
  std::shared_ptr<const circuits::Evaluator<RingI64>> fast;
  try {
    fast = std::make_shared<const circuits::Evaluator<RingI64>>(RingI64{}, *c);
  } catch (const std::exception&) {  // a constant beyond int64: Z throughout
  }
  return [c = std::move(c), fast, pl, out_rows, out_cols = pl.out_cols](const Matrix<std::int64_t>& u) {
    std::vector<std::int64_t> x(pl.in_pos.size());
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = u(pl.in_pos[k] / pl.in_cols, pl.in_pos[k] % pl.in_cols);
    std::vector<Int> y;
    bool done = false;
    if (fast) {
      try {
        for (std::int64_t v : (*fast)(x)) y.emplace_back(v);
        done = true;
      } catch (const Overflow&) {
        y.clear();
      }
    }
    if (!done) y = circuits::eval_integer(*c, x);
    Matrix<Int> m(out_rows, out_cols, Int(0));
    for (std::size_t k = 0; k < y.size(); ++k)
      if (pl.out_pos[k] != SIZE_MAX) m(pl.out_pos[k] / out_cols, pl.out_pos[k] % out_cols) = y[k];
    return m;
  };
}

Report run_task_check(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                      const DomainOptions& opts, const std::function<Check(const Params&, const TaskArtifact&)>& own_check) {
  if (!task.byo_unsupported.empty())
    throw InputError("task '" + task.name + "' cannot check a file yet: " + task.byo_unsupported, "--task " + task.name);
  // The methods by artifact kind (Task::methods), as `tasks --json` reports them.
  if (const std::string why = method_refusal(task, a.kind, "enumerate"); !why.empty()) throw InputError(why, "--task " + task.name);
  if (task.fill_from_artifact && a.fn.N && a.fn.d) task.fill_from_artifact(given, a.fn.N, a.fn.d);
  if (task.fill_from_inputs && a.circuit_ir) task.fill_from_inputs(given, input_names(*a.circuit_ir));
  const Params p = Params::parse(task.params, given);
  const TaskShapeNeed need = task.shape(p);
  ByoArtifact art = a;
  std::vector<std::string> shape_notes;
  if (art.kind == "circuit") {
    // A circuit states its shape through u[i][j] / y[i][j] names (as `export` writes them); one
    // without such names needs the right counts (taken row-major). place_circuit refuses the rest.
    const CircuitPlacement pl = place_circuit(*art.circuit_ir, need, task.name, a.file);
    shape_notes = pl.notes;
    art.fn.eval = placed_eval(art.circuit_ir, pl, need.out_N);
    art.fn.out_d = pl.out_cols;
  } else if (!(art.fn.N == need.N && art.fn.d == need.d)) {
    // A model states its shape.
    throw InputError("the model takes " + shape_str(art.fn.N, art.fn.d) + " inputs; task " + task.name + " needs " + need.text,
                     a.file);
  }
  art.fn.N = need.N;
  art.fn.d = need.d;
  art.fn.out_N = need.out_N;
  if (art.kind != "circuit") art.fn.out_d = need.out_d;

  Construction pseudo;
  pseudo.name = a.file;
  pseudo.task = task.name;
  Built built;
  built.model = art.model;
  built.circuit = art.circuit;
  built.notes.push_back("task " + task.name + ": your " + a.kind + " (" + a.format + ") against the independent reference " +
                        task.reference);
  for (const auto& n : shape_notes) built.notes.push_back(n);
  // The paper's claims for the task, from its built-in construction at the same parameters.
  if (!task.claims_from.empty()) {
    try {
      const Construction& k = find_construction(task.claims_from);
      std::map<std::string, std::string> kp;
      for (const auto& spec : k.params)
        if (given.count(spec.name)) kp[spec.name] = given.at(spec.name);
      const Built ref = k.build(Params::parse(k.params, kp));
      std::size_t unmeasured = 0;
      for (Claim c : ref.claims) {
        if (c.binding) continue;  // the built-in's own numbers, not the paper's
        auto m = art.measured.find(c.quantity);
        if (m == art.measured.end()) {  // e.g. a model's layer count beside a circuit file
          ++unmeasured;
          continue;
        }
        c.achieved = m->second;
        c.holds.reset();
        built.claims.push_back(evaluate(c));
      }
      if (unmeasured)
        built.notes.push_back(std::to_string(unmeasured) + " paper claim(s) of " + task.claims_from + " are about quantities a " +
                              a.kind + " does not have; not shown");
      built.notes.push_back("claims: the paper's, as stated for " + task.claims_from + " at these parameters (non-binding)");
    } catch (const std::exception& e) {
      built.notes.push_back("claims: none shown (" + task.claims_from + " does not build here: " + e.what() + ")");
    }
  }
  Check check = own_check ? own_check(p, art.fn) : task.check(p, art.fn, opts);
  if (task.name == "mqar" && art.model && !own_check) add_mqar_model_paths(p, *art.model, opts, check);  // byo_mqar.h
  if (!check.block) check.block = scalar_blocks(check.run);
  if (check.block_kind.empty()) check.block_kind = "adapter over run(k)";
  Report r = run_check(pseudo, p, built, check, opts);
  r.params = checked_params(task, p).to_json();  // what was checked, not the built-in's defaults
  return r;
}

}  // namespace cz
