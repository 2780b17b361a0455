#include "app/engine/byo.h"

#include <stdexcept>

#include "app/engine/byo_mqar.h"
#include "circuits/eval.h"
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
  // The shape: from the names when they are u[i][j] / y[i][j]; else left to the task (0 = unknown).
  const std::size_t di = grid_cols(in, 'u'), dout = grid_cols(out, 'y');
  a.fn.d = di;
  a.fn.N = di ? in.size() / di : 0;
  a.fn.out_d = dout;
  a.fn.out_N = dout ? out.size() / dout : 0;
  a.fn.where = file;
  const std::vector<std::size_t> in_pos = placement(in, 'u', di ? di : 1), out_pos = placement(out, 'y', dout ? dout : 1);
  const std::size_t n_in = in.size(), n_out = out.size();
  a.fn.eval = [c, in_pos, out_pos, n_in, n_out](const Matrix<std::int64_t>& u) {
    // run_task_check has matched the counts with the task's shapes; every task here keeps the
    // number of rows (out_N = N), so the output has n_out / N columns.
    std::vector<std::int64_t> x(n_in);
    const std::size_t cols = u.cols();
    for (std::size_t k = 0; k < n_in; ++k) x[k] = u(in_pos[k] / cols, in_pos[k] % cols);
    std::vector<Int> y = circuits::eval_integer(*c, x);
    Matrix<Int> m(u.rows(), n_out / (u.rows() ? u.rows() : 1), Int(0));
    const std::size_t mc = m.cols() ? m.cols() : 1;
    for (std::size_t k = 0; k < n_out; ++k) m(out_pos[k] / mc, out_pos[k] % mc) = y[k];
    return m;
  };
  return a;
}

Report run_task_check(const Task& task, std::map<std::string, std::string> given, const ByoArtifact& a,
                      const DomainOptions& opts) {
  if (!task.byo_unsupported.empty())
    throw InputError("task '" + task.name + "' cannot check a file yet: " + task.byo_unsupported, "--task " + task.name);
  if (task.fill_from_artifact && a.fn.N && a.fn.d) task.fill_from_artifact(given, a.fn.N, a.fn.d);
  const Params p = Params::parse(task.params, given);
  const TaskShapeNeed need = task.shape(p);
  ByoArtifact art = a;
  // A model states its shape; a circuit states it through u[i][j] / y[i][j] names (as `export`
  // writes them), and one without such names only needs the right counts (taken row-major).
  const bool named = art.fn.d != 0;
  bool fits = named && art.fn.N == need.N && art.fn.d == need.d;
  if (art.kind == "circuit") {
    const std::size_t have_in = art.circuit.value("inputs", std::size_t{0}), have_out = art.circuit.value("outputs", std::size_t{0});
    fits = (named ? fits : true) && have_in == need.N * need.d && have_out == need.out_N * need.out_d &&
           (art.fn.out_d == 0 || (art.fn.out_N == need.out_N && art.fn.out_d == need.out_d));
    if (!fits)
      throw InputError("the circuit has " + std::to_string(have_in) + " inputs and " + std::to_string(have_out) +
                           " outputs; task " + task.name + " needs " + std::to_string(need.N * need.d) + " inputs u[i][j] and " +
                           std::to_string(need.out_N * need.out_d) + " outputs y[i][j]: " + need.text +
                           (named ? "" : " (the file has no u[i][j] names: give -p N and -p d)"),
                       a.file);
  } else if (!fits) {
    throw InputError("the model takes " + shape_str(art.fn.N, art.fn.d) + " inputs; task " + task.name + " needs " + need.text,
                     a.file);
  }
  art.fn.N = need.N;
  art.fn.d = need.d;
  art.fn.out_N = need.out_N;
  art.fn.out_d = need.out_d;

  Construction pseudo;
  pseudo.name = a.file;
  pseudo.task = task.name;
  Built built;
  built.model = art.model;
  built.circuit = art.circuit;
  built.notes.push_back("task " + task.name + ": your " + a.kind + " (" + a.format + ") against the independent reference " +
                        task.reference);
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
  Check check = task.check(p, art.fn, opts);
  if (task.name == "mqar" && art.model) add_mqar_model_paths(p, *art.model, opts, check);  // byo_mqar.h
  if (!check.block) check.block = scalar_blocks(check.run);
  if (check.block_kind.empty()) check.block_kind = "adapter over run(k)";
  return run_check(pseudo, p, built, check, opts);
}

}  // namespace cz
