#include "verify/mqar_check.h"

#include <algorithm>
#include <memory>

#include "tasks/mqar_reference.h"
#include "tasks/zoology.h"
#include "util/error.h"
#include "verify/model_check.h"

namespace cz {

namespace {
std::string answer_str(const std::optional<std::int64_t>& a) { return a ? "token " + std::to_string(*a) : "null"; }

std::string decoded_str(const mqar::Decoded& d) {
  switch (d.kind) {
    case mqar::Decoded::Null: return "null";
    case mqar::Decoded::Token: return "token " + std::to_string(d.token);
    case mqar::Decoded::Invalid: return "not a codeword";
  }
  return "?";
}

Failure make_failure(const mqar::Instance& x, const mqar::Codec& codec, const MqarRun& r, const Matrix<Int>& want,
                     std::string message) {
  Failure f;
  f.instance = mqar::to_json(x);
  if (x.N() * codec.d <= 4096) f.input = int_matrix_json(mqar::encode(codec, x));
  if (!r.info.is_null()) f.instance["artifact"] = r.info;
  f.expected = int_matrix_json(want);
  f.got = int_matrix_json(r.output);
  f.message = std::move(message);
  return f;
}
}  // namespace

Check mqar_check(const mqar::Domain& dom, const MqarSolver& solver) {
  Check c;
  c.domain = dom.exhaustive ? "exhaustive" : "sampled";
  c.instances = dom.count;
  c.description = dom.description;
  c.preconditions = dom.preconditions;
  c.run = [dom, solver](std::uint64_t k) -> std::optional<Failure> {
    mqar::Instance x = dom.instance(k);
    MqarRun r = solver.run(x);
    const auto answers = mqar::reference_answers(x);
    // The found column d is judged where the artifact has it (tasks/mqar.h expected_answer).
    const bool found_col = r.output.cols() == solver.codec.d + 1;
    Matrix<Int> want = map_matrix(mqar::expected_answer(solver.codec, x, answers, found_col), [](std::int64_t v) { return Int(v); });
    if (r.output == want) return std::nullopt;
    if (r.output.rows() != want.rows() || r.output.cols() != want.cols())
      return make_failure(x, solver.codec, r, want, "output shape differs from N x d");
    for (std::size_t p = 0; p < want.rows(); ++p)
      for (std::size_t j = 0; j < want.cols(); ++j)
        if (!(r.output(p, j) == want(p, j))) {
          std::string msg = "row " + std::to_string(p) + ": ";
          auto q = std::find(x.query_rows.begin(), x.query_rows.end(), p);
          if (j == solver.codec.d)
            msg += "found bit output[" + std::to_string(p) + "][" + std::to_string(j) + "] = " + r.output(p, j).str() + ", want " +
                   want(p, j).str() +
                   (q != x.query_rows.end() ? " (query answer " + answer_str(answers[static_cast<std::size_t>(q - x.query_rows.begin())]) + ")"
                                            : " (not a query row)");
          else if (q != x.query_rows.end())
            msg += "query answers " + decoded_str(mqar::decode_row(solver.codec, r.output, p)) + ", want " +
                   answer_str(answers[static_cast<std::size_t>(q - x.query_rows.begin())]);
          else
            msg += "non-query row is not zero (output[" + std::to_string(p) + "][" + std::to_string(j) +
                   "] = " + r.output(p, j).str() + ")";
          return make_failure(x, solver.codec, r, want, msg);
        }
    return std::nullopt;
  };
  if (solver.block && dom.triples_n) {
    c.block = [dom, block = solver.block, run = c.run] { return block(dom, run); };
    c.block_kind = "batched";
  } else {
    c.block = scalar_blocks(c.run);
    c.block_kind = "adapter over run(k)";
  }
  return c;
}

namespace {
std::map<std::string, MqarSolverFactory>& solvers() {
  static std::map<std::string, MqarSolverFactory> m;
  return m;
}
}  // namespace

bool register_mqar_solver(const std::string& construction, MqarSolverFactory f) {
  solvers()[construction] = std::move(f);
  return true;
}

const MqarSolverFactory* find_mqar_solver(const std::string& construction) {
  auto it = solvers().find(construction);
  return it == solvers().end() ? nullptr : &it->second;
}

namespace {
bool in_schema(const std::vector<ParamSpec>& schema, const std::string& name) {
  return std::any_of(schema.begin(), schema.end(), [&](const ParamSpec& p) { return p.name == name; });
}

// The batch read and checked, and `given` filled from it where the schema has the parameter and
// `given` does not say (layout=zoology, N = the row length, c = 1 + the largest token or label,
// kv = the most labels in a row).
struct NpyPrepared {
  std::map<std::string, std::string> given;
  bool user_kv = false;
  zoology::Batch batch;
  std::int64_t top = 0;
};
NpyPrepared prepare_npy(const std::vector<ParamSpec>& schema, std::map<std::string, std::string> given,
                        const std::string& inputs_path, const std::string& labels_path) {
  zoology::Batch batch = zoology::read_npy_pair(inputs_path, labels_path);
  if (batch.rows == 0 || batch.cols == 0) throw InputError("the batch is empty", inputs_path);
  std::int64_t top = 0;
  for (std::int64_t v : batch.inputs) {
    if (v < 0) throw InputError("negative token " + std::to_string(v), inputs_path);
    top = std::max(top, v);
  }
  for (std::int64_t v : batch.labels) {
    if (v < 0 && v != -100) throw InputError("label " + std::to_string(v) + " (want a token or -100)", labels_path);
    top = std::max(top, v);
  }
  if (in_schema(schema, "layout")) {
    if (given.count("layout") && given["layout"] != "zoology")
      throw InputError("zoology batches use layout=zoology", "-p layout=" + given["layout"]);
    given["layout"] = "zoology";
  }
  if (in_schema(schema, "N")) {
    if (given.count("N") && given["N"] != std::to_string(batch.cols))
      throw InputError("the batch has N = " + std::to_string(batch.cols), "-p N=" + given["N"]);
    given["N"] = std::to_string(batch.cols);
  }
  if (in_schema(schema, "c") && !given.count("c")) given["c"] = std::to_string(top + 1);
  const bool user_kv = given.count("kv") > 0;
  if (in_schema(schema, "kv") && !user_kv) {  // the parameter (for building) = the most labels in a row
    std::size_t most = 1;
    for (std::size_t r = 0; r < batch.rows; ++r) {
      std::size_t n = 0;
      for (std::size_t p = 0; p < batch.cols; ++p) n += batch.label(r, p) != -100;
      most = std::max(most, n);
    }
    given["kv"] = std::to_string(most);
  }
  return NpyPrepared{std::move(given), user_kv, std::move(batch), top};
}
}  // namespace

std::map<std::string, std::string> npy_given(const std::vector<ParamSpec>& schema, std::map<std::string, std::string> given,
                                             const std::string& inputs_path, const std::string& labels_path) {
  return prepare_npy(schema, std::move(given), inputs_path, labels_path).given;
}

NpyCheck npy_check(const Construction& c, std::map<std::string, std::string> given, const std::string& inputs_path,
                   const std::string& labels_path) {
  const MqarSolverFactory* factory = find_mqar_solver(c.name);
  if (!factory) throw InputError("construction '" + c.name + "' does not answer MQAR batches", "--from-npy");
  Built built;
  NpyCheck out = npy_batch_check(c.params, std::move(given), inputs_path, labels_path, [&](const Params& params) {
    built = c.build(params);
    return (*factory)(params, built);
  });
  built.metrics.update(out.built.metrics);
  out.built = std::move(built);
  return out;
}

NpyCheck npy_batch_check(const std::vector<ParamSpec>& schema, std::map<std::string, std::string> given,
                         const std::string& inputs_path, const std::string& labels_path,
                         const std::function<MqarSolver(const Params&)>& make_solver) {
  NpyPrepared prep = prepare_npy(schema, std::move(given), inputs_path, labels_path);
  zoology::Batch batch = std::move(prep.batch);
  const std::int64_t top = prep.top;
  Params params = Params::parse(schema, prep.given);
  std::optional<std::size_t> kv;  // K per example: -p kv when given, else its number of labels
  if (prep.user_kv && in_schema(schema, "kv")) kv = params.u("kv");
  const std::size_t vocab = in_schema(schema, "c") ? params.u("c") : static_cast<std::size_t>(top + 1);
  if (static_cast<std::size_t>(top) >= vocab)
    throw InputError("the batch holds token " + std::to_string(top) + " >= c", "-p c=" + params.s("c"));
  auto xs = std::make_shared<std::vector<mqar::Instance>>();
  for (std::size_t r = 0; r < batch.rows; ++r) xs->push_back(zoology::instance_from_row(batch, r, vocab, kv, inputs_path));
  Built built;
  MqarSolver solver = make_solver(params);

  // The reference against the labels, once (cheap), so its disagreements are counted separately.
  std::uint64_t labelled = 0, ref_disagree = 0;
  for (std::size_t r = 0; r < xs->size(); ++r) {
    auto ans = mqar::reference_answers((*xs)[r]);
    for (std::size_t i = 0; i < ans.size(); ++i) {
      ++labelled;
      if (!ans[i] || *ans[i] != batch.label(r, (*xs)[r].query_rows[i])) ++ref_disagree;
    }
  }
  auto shared_batch = std::make_shared<const zoology::Batch>(std::move(batch));
  Check check;
  check.domain = "batch";
  check.instances = xs->size();
  check.description = std::to_string(xs->size()) + " examples from " + inputs_path + " / " + labels_path +
                      " (zoology layout, N=" + std::to_string(shared_batch->cols) + ", c=" + std::to_string(vocab) + ")";
  check.preconditions = {"K per example = " + (kv ? "-p kv=" + std::to_string(*kv) : std::string("its number of labelled positions")),
                         "queries are the labelled positions; pairs at rows 2j, 2j+1 for j < K",
                         "compared at labelled positions only: artifact answer = label and reference answer = label"};
  check.run = [xs, shared_batch, solver](std::uint64_t k) -> std::optional<Failure> {
    const mqar::Instance& x = (*xs)[static_cast<std::size_t>(k)];
    MqarRun run = solver.run(x);
    auto ans = mqar::reference_answers(x);
    for (std::size_t i = 0; i < x.query_rows.size(); ++i) {
      const std::size_t p = x.query_rows[i];
      const std::int64_t label = shared_batch->label(static_cast<std::size_t>(k), p);
      mqar::Decoded got = mqar::decode_row(solver.codec, run.output, p);
      const bool art_ok = got.kind == mqar::Decoded::Token && got.token == label;
      const bool ref_ok = ans[i] && *ans[i] == label;
      if (art_ok && ref_ok) continue;
      Failure f;
      f.instance = mqar::to_json(x);
      f.instance["example"] = k;
      if (!run.info.is_null()) f.instance["artifact"] = run.info;
      f.expected = label;
      f.got = {{"artifact", decoded_str(got)}, {"reference", answer_str(ans[i])}};
      f.message = "position " + std::to_string(p) + ": label token " + std::to_string(label) +
                  (art_ok ? "" : ", artifact answers " + decoded_str(got)) +
                  (ref_ok ? "" : ", reference solver answers " + answer_str(ans[i]) + " (reference disagrees with the label)");
      return f;
    }
    return std::nullopt;
  };

  built.metrics["batch_labelled_positions"] = labelled;
  built.metrics["batch_reference_label_disagreements"] = ref_disagree;
  return NpyCheck{std::move(params), std::move(built), std::move(check)};
}

}  // namespace cz
