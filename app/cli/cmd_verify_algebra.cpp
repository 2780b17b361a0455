// `verify NAME --method algebra` (issue 37; contract.md "verify --method algebra").
#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "app/engine/algebra/algebra.h"
#include "app/engine/algebra/algebra_arch.h"
#include "app/engine/algebra/algebra_equiv.h"
#include "app/engine/algebra/algebra_operator.h"
#include "app/engine/algebra/algebra_task.h"
#include "verify/task.h"
#include "model/model_json.h"
#include "app/report/algebra_report.h"
#include "app/report/human_format.h"
#include "util/error.h"

namespace cz::cli {

namespace {

// A model given as a file, or as JSON text (Python's dict, named by `file` in messages).
Model model_file_or_text(const std::string& file, const std::string& text) {
  if (text.empty()) return read_model_file(file);
  JsonLimits limits;
  limits.max_values = kModelMaxValues;
  return model_from_json(parse_json_input(text, file, limits), file);
}

}  // namespace

namespace {
// `verify --model FILE [--task arch] --method algebra`: the file's architecture layers, each
// against its stored expansion, on every N'×d' state (app/engine/algebra/algebra_arch.h).
int verify_arch_algebra(const VerifyOptions& o, const AlgebraOptions& a) {
  if (!o.task.empty() && o.task != "arch")
    throw InputError("--method algebra on a --model file proves its architecture layers (--task arch), not task '" + o.task + "'",
                     "--task");
  if (!o.params.empty()) throw InputError("--task arch takes no -p parameters", "-p " + o.params[0]);
  check_outputs({{"--json", o.json_path}}, {{"--model", o.model_file}});
  const Model m = user_model(o);
  const AlgebraOutcome r = run_arch_algebra(m, o.model_file, a);
  const nlohmann::json j = algebra_report_json(r);
  std::ostream& human = human_stream(o.json_path, o.capture);
  // The ring the identities were proved in (issue 46 item 5): F_p for a model over Fp:<p>.
  const std::string field = j.value("field", std::string("Q"));
  human << o.model_file << "  --task arch  " << r.verdict << "  on every state in " << field << "^(" << m.inner_N << "×" << m.inner_d
        << "): each architecture layer's expansion, recompiled from the file's weights on reading, against the architecture's own "
           "evaluation (a check of the compiler at those weights)\n";
  for (const auto& l : j["arch_layers"]) {
    human << "  layer " << l["layer"] << " (" << l["kind"].get<std::string>() << ", " << l["expansion_layers"] << " BaseConv layers): "
          << l["verdict"].get<std::string>() << "\n";
    const std::size_t zero = l["algebra"].is_object() ? l["algebra"].value("zero_outputs", std::size_t{0}) : 0;
    if (zero)
      human << "  warning: " << zero << " output entr" << (zero == 1 ? "y is" : "ies are")
            << " the zero polynomial on both sides (vacuous: they do not depend on the state)\n";
  }
  if (r.counterexample)
    error_stream(o.capture) << "counterexample (confirmed by exact evaluation over " << field << "): " << r.counterexample->message
                            << "\n  instance: " << r.counterexample->instance.dump() << "\n";
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return r.exit_code;
}

// `verify --model FILE --task KIND --operator OP --method algebra` (issue 47 item 3): the user's
// model against the operator's own exact evaluation on every input (app/engine/algebra/algebra_operator.h).
int verify_operator_algebra(const VerifyOptions& o, const AlgebraOptions& a, const Task& t) {
  if (o.model_file.empty() || !o.circuit_file.empty() || !o.program_file.empty() || !o.name.empty() || o.all)
    throw InputError("task " + t.name + " with --method algebra proves one --model FILE against the --operator FILE", "--task " + t.name);
  const bool enumerating = o.exhaustive || o.samples >= 0 || !o.from_npy.empty() || o.device != "cpu" || o.scalar;
  if (enumerating)
    throw InputError("--method algebra proves every input; drop --exhaustive/--samples/--from-npy/--device/--scalar", "--method algebra");
  check_outputs({{"--json", o.json_path}}, {{"--model", o.model_file}, {"--operator", o.operator_file}});
  const auto op = user_operator(o, t);
  const Model m = user_model(o);
  const AlgebraOutcome r = run_operator_algebra(m, o.model_file, *op, o.operator_file, a);
  const nlohmann::json j = algebra_report_json(r);
  std::ostream& human = human_stream(o.json_path, o.capture);
  const auto& al = j["algebra"];
  std::ostringstream head;
  head << o.model_file << "  --task " << t.name << " --operator " << o.operator_file << "  " << r.verdict << "  on "
       << shorten_numbers(j["instances"].get<std::string>()) << "  (route " << al["route"].get<std::string>() << ", " << al["symbols"]
       << " symbols" << (al.contains("weight_symbols") ? " (" + al["weight_symbols"].dump() + " of them weights)" : std::string()) << ", "
       << fields_text(al["terms"]) << " terms, degree " << al["degree"] << ", " << fields_text(al["seconds"]) << " s)";
  print_wrapped(human, "", head.str(), 4);
  print_wrapped(human, "  domain: ", shorten_numbers(j["domain_description"].get<std::string>()), 4);
  if (al.contains("steps"))
    for (const auto& s : al["steps"])
      human << "  step " << s["step"].get<std::string>() << ": " << s["identity"].get<std::string>() << "  "
            << (s["holds"].get<bool>() ? "holds" : "FAILS") << "\n";
  if (al.contains("undecided")) human << "  undecided: " << al["undecided"].get<std::string>() << "\n";
  if (const std::size_t zero = al.value("zero_outputs", std::size_t{0}); zero)
    human << "  warning: " << zero << " output entr" << (zero == 1 ? "y is" : "ies are")
          << " the zero polynomial on both sides (vacuous: they do not depend on the input)\n";
  if (r.counterexample)
    error_stream(o.capture) << "counterexample (confirmed by exact evaluation of your model and the operator over Q): " << r.counterexample->message
                            << "\n  instance: " << r.counterexample->instance.dump() << "\n";
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return r.exit_code;
}
// `verify --model FILE --task T --method algebra` for a polynomial-map task (the primitives): the
// user's model against the task's semantics on every input (app/engine/algebra/algebra_task.h).
int verify_task_algebra(const VerifyOptions& o, const AlgebraOptions& a, const Task& t) {
  if (!o.circuit_file.empty() || !o.program_file.empty() || !o.name.empty() || o.all)
    throw InputError("task " + t.name + " with --method algebra proves one --model FILE", "--task " + t.name);
  if (o.exhaustive || o.samples >= 0 || !o.from_npy.empty() || o.device != "cpu" || o.scalar)
    throw InputError("--method algebra proves every input; drop --exhaustive/--samples/--from-npy/--device/--scalar", "--method algebra");
  check_outputs({{"--json", o.json_path}}, {{"--model", o.model_file}});
  const Model m = user_model(o);
  const AlgebraOutcome r = run_task_algebra(t, parse_params(o.params), m, o.model_file, a);
  const nlohmann::json j = algebra_report_json(r);
  std::ostream& human = human_stream(o.json_path, o.capture);
  const auto& al = j["algebra"];
  std::ostringstream head;
  head << o.model_file << "  --task " << t.name << "  " << r.verdict << "  on " << shorten_numbers(j["instances"].get<std::string>())
       << "  (route " << al["route"].get<std::string>() << ", " << fields_text(al["symbols"]) << " symbols, " << fields_text(al["terms"]) << " terms, degree "
       << al["degree"] << ")";
  print_wrapped(human, "", head.str(), 4);
  print_wrapped(human, "  domain: ", shorten_numbers(j["domain_description"].get<std::string>()), 4);
  if (const std::size_t zero = al.value("zero_outputs", std::size_t{0}); zero)
    human << "  warning: " << zero << " output entr" << (zero == 1 ? "y is" : "ies are")
          << " the zero polynomial on both sides (vacuous: they do not depend on the input)\n";
  if (r.counterexample)
    error_stream(o.capture) << "counterexample (confirmed by exact evaluation of your model and the task over Q): " << r.counterexample->message
                            << "\n  instance: " << r.counterexample->instance.dump() << "\n";
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return r.exit_code;
}
// `verify --model A --equiv-model B --method algebra` (issue 47 item 2): model against model on
// every input (app/engine/algebra/algebra_equiv.h).
int verify_equiv_algebra(const VerifyOptions& o, const AlgebraOptions& a) {
  if (o.model_file.empty()) throw InputError("--equiv-model compares two models: give the first as --model FILE", "--equiv-model");
  if (!o.task.empty() || !o.operator_file.empty() || !o.circuit_file.empty() || !o.program_file.empty() || !o.name.empty() || o.all)
    throw InputError("--equiv-model compares the --model file with a second model, not with a task, operator, circuit, program or "
                     "construction: drop --task/--operator/--circuit/--program/NAME",
                     "--equiv-model");
  if (!o.params.empty()) throw InputError("--equiv-model takes no -p parameters (the shapes are the files')", "-p " + o.params[0]);
  if (o.exhaustive || o.samples >= 0 || !o.shard.empty() || !o.checkpoint.empty() || !o.from_npy.empty() || o.device != "cpu" || o.scalar)
    throw InputError("--method algebra proves every input; drop --exhaustive/--samples/--shard/--checkpoint/--from-npy/--device/--scalar",
                     "--method algebra");
  check_outputs({{"--json", o.json_path}}, {{"--model", o.model_file}, {"--equiv-model", o.equiv_model_file}});
  const Model m = user_model(o);
  const Model e = model_file_or_text(o.equiv_model_file, o.equiv_model_text);
  const AlgebraOutcome r = run_equiv_algebra(m, o.model_file, e, o.equiv_model_file, a);
  const nlohmann::json j = algebra_report_json(r);
  std::ostream& human = human_stream(o.json_path, o.capture);
  const auto& al = j["algebra"];
  std::ostringstream head;
  head << o.model_file << "  --equiv-model " << o.equiv_model_file << "  " << r.verdict << "  on "
       << shorten_numbers(j["instances"].get<std::string>()) << "  (route " << al["route"].get<std::string>() << ", "
       << fields_text(al["symbols"]) << " symbols, " << fields_text(al["terms"]) << " + " << fields_text(al["reference_terms"])
       << " terms, degree " << al["degree"] << ", " << fields_text(al["seconds"]) << " s)";
  print_wrapped(human, "", head.str(), 4);
  print_wrapped(human, "  domain: ", shorten_numbers(j["domain_description"].get<std::string>()), 4);
  if (al.contains("undecided")) human << "  undecided: " << al["undecided"].get<std::string>() << "\n";
  if (const std::size_t zero = al.value("zero_outputs", std::size_t{0}); zero)
    human << "  warning: " << zero << " output entr" << (zero == 1 ? "y is" : "ies are")
          << " the zero polynomial in both models (vacuous: they do not depend on the input)\n";
  if (r.counterexample)
    error_stream(o.capture) << "counterexample (confirmed by exact evaluation of both models over " << j["field"].get<std::string>()
                            << "): " << r.counterexample->message << "\n  instance: " << r.counterexample->instance.dump() << "\n";
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return r.exit_code;
}
}  // namespace

std::shared_ptr<const ArchLayer> user_operator(const VerifyOptions& o, const Task& t) {
  if (o.operator_file.empty())
    throw InputError("task " + t.name + " checks a model against an operator given by its weights: add " + t.operator_file, "--operator");
  if (o.model_file.empty()) throw InputError("task " + t.name + " checks a --model FILE against the --operator FILE", "--task " + t.name);
  const Model f = model_file_or_text(o.operator_file, o.operator_text);
  auto op = operator_of(f, o.operator_file, t.name);
  std::map<std::string, std::string> given = parse_params(o.params);
  (void)Params::parse(t.params, given);  // names and ranges, as every task's -p
  check_operator_params(given, *op, o.operator_file);
  return op;
}

int cmd_verify_algebra(const VerifyOptions& o) {
  AlgebraOptions a;
  a.budget_bytes = o.algebra_budget;
  a.route = o.algebra_route;
  a.symbols = o.algebra_symbols;
  a.seed = o.seed;
  if (!o.equiv_model_file.empty()) return verify_equiv_algebra(o, a);  // issue 47 item 2: model against model
  if (!o.operator_file.empty() || (!o.task.empty() && o.task != "arch" && !find_task(o.task).operator_file.empty())) {
    if (o.task.empty()) throw InputError("--operator needs --task, the operator's kind (see `circuitzoo tasks`)", "--operator");
    const Task& t = find_task(o.task);
    if (t.operator_file.empty()) throw InputError("--operator is for the operator tasks (see `circuitzoo tasks`), not task " + t.name, "--operator");
    return verify_operator_algebra(o, a, t);
  }
  if (!o.model_file.empty() && !o.task.empty() && o.task != "arch" && algebra_task_covers(find_task(o.task)))
    return verify_task_algebra(o, a, find_task(o.task));
  if (!o.model_file.empty() && o.circuit_file.empty() && o.program_file.empty() && o.name.empty() && !o.all)
    return verify_arch_algebra(o, a);
  if (!o.model_file.empty() || !o.circuit_file.empty() || !o.program_file.empty() || !o.task.empty())
    throw InputError("--method algebra proves a built-in construction NAME (sim/*, primitive/*) or the architecture layers of one "
                     "--model FILE (--task arch), not --circuit/--program/--task",
                     "--method algebra");
  if (o.all || o.name.empty()) throw InputError("--method algebra proves one construction NAME", "--method algebra");
  const bool enumerating = o.exhaustive || o.samples >= 0 || !o.shard.empty() || !o.checkpoint.empty() || !o.from_npy.empty() ||
                           o.device != "cpu" || o.scalar;
  if (enumerating)
    throw InputError("--method algebra proves every input; drop --exhaustive/--samples/--shard/--checkpoint/--from-npy/--device/--scalar",
                     "--method algebra");
  check_outputs({{"--json", o.json_path}});
  const AlgebraOutcome r = run_verify_algebra(find_construction(o.name), parse_params(o.params), a);
  const nlohmann::json j = algebra_report_json(r);
  std::ostream& human = human_stream(o.json_path, o.capture);
  const auto& al = j["algebra"];
  // Human lines (issue 39): the parameters the construction uses instead of the params JSON.
  const std::string name = j["construction"].get<std::string>();
  std::ostringstream head;
  head << name << "  " << params_text(name, j["params"], false) << "  " << r.verdict << "  on " << shorten_numbers(j["instances"].get<std::string>())
       << "  (route " << al["route"].get<std::string>() << ", " << fields_text(al["symbols"]) << " symbols"
       << (al.contains("weight_symbols") ? " (" + al["weight_symbols"].dump() + " of them weights)" : std::string()) << ", " << fields_text(al["terms"]) << " terms, degree "
       << al["degree"] << ", " << fields_text(al["seconds"]) << " s)";
  print_wrapped(human, "", head.str(), 4);
  print_wrapped(human, "  domain: ", shorten_numbers(j["domain_description"].get<std::string>()), 4);
  if (al.contains("steps"))
    for (const auto& s : al["steps"])
      human << "  step " << s["step"].get<std::string>() << ": " << s["identity"].get<std::string>() << "  "
            << (s["holds"].get<bool>() ? "holds" : "FAILS") << " (" << fields_text(s["symbols"]) << " symbols, " << fields_text(s["terms"]) << " terms, degree "
            << s["degree"] << ")\n";
  if (al.contains("undecided")) human << "  undecided: " << al["undecided"].get<std::string>() << "\n";
  if (const std::size_t zero = al.value("zero_outputs", std::size_t{0}); zero)  // issue 46 item 4
    human << "  warning: " << zero << " of " << j["model"]["N"].get<std::size_t>() * j["model"]["d"].get<std::size_t>()
          << " output entries are the zero polynomial on both sides (vacuous: they do not depend on the input"
          << (al.contains("zero_outputs_by") ? "; " + al["zero_outputs_by"].get<std::string>() : std::string()) << ")\n";
  if (r.counterexample)
    error_stream(o.capture) << "counterexample (confirmed by exact evaluation over Q): " << r.counterexample->message << "\n  instance: "
              << r.counterexample->instance.dump() << "\n";
  if (json_wanted(o.json_path, o.capture)) deliver_json(j, o.json_path, o.capture);
  return r.exit_code;
}

}  // namespace cz::cli
