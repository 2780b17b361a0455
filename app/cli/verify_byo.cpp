// `verify --model FILE --task TASK [-p ...]` and `verify --circuit FILE --task TASK [-p ...]`
// (issue 15): a user's model-json or circuit file against a task's independent reference, on the
// task's domain (exhaustive / --samples / --seed as for the built-ins), reported like a built-in
// construction (app/engine/byo/byo.h). The report adds "task" and "artifact" {kind, file, format}.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/engine/byo/byo.h"
#include "app/engine/byo/byo_arch.h"
#include "app/engine/algebra/algebra_operator.h"
#include "app/engine/run/device_path.h"
#include "app/engine/run/cluster.h"
#include "app/engine/byo/byo_program.h"
#include "app/engine/sat/sat_model_path.h"
#include "app/engine/sat/sat_certificates.h"
#include "app/engine/sat/sat_path.h"
#include "app/engine/sat/sat_sd.h"
#include "app/engine/sat/sat_words.h"
#include "app/engine/byo/verify_npy.h"
#include "app/report/report_json.h"
#include "circuits/io.h"
#include "circuits/port_match.h"
#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz::cli {

Model user_model(const VerifyOptions& o) {
  if (o.model_text.empty()) return read_model_file(o.model_file);
  JsonLimits limits;
  limits.max_values = kModelMaxValues;
  return model_from_json(parse_json_input(o.model_text, o.model_file, limits), o.model_file);
}

namespace {
// --certify on a user's file (issue 38): each UNSAT answer's DRAT checked inline. --proof DIR is
// refused there (check-proof re-encodes constructions only; sat_certificates.h).
SatOutcome with_certificates(const SatOptions& so, const std::function<SatOutcome()>& run) {
  if (so.proof_dir.empty() && !so.certify) return run();
  return run_sat_with_certificates(so, nullptr, run);
}
}  // namespace


namespace {
// Prints the row and the counterexample, writes the report (with "task" and "artifact").
int finish(const VerifyOptions& o, const Report& r, const std::string& task, const nlohmann::json& artifact) {
  if (Cluster::rank() != 0) return r.exit_code();  // under mpirun rank 0 prints and writes
  std::ostream& human = human_stream(o.json_path, o.capture);
  print_table(human, {r}, o.wide);
  print_notes(human, r, o.wide, false);
  if (r.exit_code()) print_counterexample(error_stream(o.capture), r);
  if (json_wanted(o.json_path, o.capture)) {
    nlohmann::json j = to_json(r);
    j["task"] = task;
    j["artifact"] = artifact;
    deliver_json(j, o.json_path, o.capture);
  }
  return r.exit_code();
}

// The --circuit file, named by --port-names when given (circuits/port_match.h rename_ports).
std::shared_ptr<const circuits::Circuit> read_user_circuit(const VerifyOptions& o, const std::string& fmt) {
  circuits::Circuit c = circuits::read_circuit(read_file(o.circuit_file), fmt, o.circuit_file);
  if (!o.port_names.empty()) {
    const circuits::Circuit names = circuits::read_circuit(read_file(o.port_names), circuit_format_of(o.port_names, "", "--port-names"), o.port_names);
    c = circuits::rename_ports(names, c, "--port-names " + o.port_names);
  }
  return std::make_shared<const circuits::Circuit>(std::move(c));
}

// --task arch (issue 28): a model-json file's architecture layers against their own evaluation
// (app/engine/byo/byo_arch.h); `verify --model FILE` without --task does the same for a file that has
// architecture layers. Enumerated on the CPU: no SAT form, no device program.
int verify_arch(const VerifyOptions& o, const Model& m) {
  if (o.method == "sat") throw InputError("--task arch is checked by exact evaluation, not --method sat", "--method sat");
  if (o.device != "cpu" && o.device != "auto") throw InputError("--task arch runs on the CPU (use --device cpu or auto)", "--device");
  if (!o.params.empty()) throw InputError("--task arch takes no -p parameters", "-p " + o.params[0]);
  if (o.exhaustive && o.samples >= 0) throw InputError("--exhaustive and --samples exclude each other", "--samples");
  const Report r = run_arch_check(m, o.model_file, domain_options(o));
  return finish(o, r, "arch", {{"kind", "model"}, {"file", o.model_file}, {"format", "model-json"}});
}

// `verify --model FILE --task KIND --operator OP` (issue 47 item 3): exact over Q on the box or
// seeded samples. --method sat does not apply (the map is over Q).
int verify_operator(const VerifyOptions& o) {
  const Task& t = find_task(o.task);
  if (t.operator_file.empty()) throw InputError("--operator is for the operator tasks (see `circuitzoo tasks`), not task " + t.name, "--operator");
  if (!o.circuit_file.empty() || !o.program_file.empty() || o.all || !o.name.empty() || !o.from_npy.empty())
    throw InputError("task " + t.name + " checks one --model FILE against the --operator FILE", "--task " + t.name);
  if (o.method == "sat")
    throw InputError("task " + t.name + " is a map over Q: --method sat does not apply; use --method algebra (every input) or the default check",
                     "--method sat");
  if (o.device != "cpu" && o.device != "auto") throw InputError("task " + t.name + " is checked on the CPU (use --device cpu or auto)", "--device");
  if (o.exhaustive && o.samples >= 0) throw InputError("--exhaustive and --samples exclude each other", "--samples");
  check_outputs({{"--json", o.json_path}}, {{"--model", o.model_file}, {"--operator", o.operator_file}});
  const auto op = user_operator(o, t);
  const Report r = run_operator_check(user_model(o), o.model_file, *op, o.operator_file, domain_options(o));
  return finish(o, r, t.name, {{"kind", "model"}, {"file", o.model_file}, {"format", "model-json"}, {"operator", o.operator_file}});
}

// `verify --model FILE --task mqar --from-npy INPUTS LABELS` (issue 49 item 13): the model judged at
// the batch's labelled positions, as `verify NAME --from-npy` judges a construction (app/engine/byo/verify_npy.h).
int verify_npy(const VerifyOptions& o) {
  if (o.task != "mqar" || o.model_file.empty())
    throw InputError("--from-npy checks a construction (verify NAME --from-npy) or a --model FILE against --task mqar "
                     "(zoology batches are MQAR's; a circuit or program file is checked on the task's own domain)",
                     "--from-npy");
  if (o.method != "enumerate") throw InputError("--from-npy checks the batch by exact evaluation, not --method " + o.method, "--method " + o.method);
  if (o.exhaustive || o.samples >= 0) throw InputError("--from-npy checks the batch; drop --exhaustive/--samples", "--from-npy");
  if (o.device != "cpu" && o.device != "auto") throw InputError("--from-npy batches are checked on the CPU (use --device cpu or auto)", "--device");
  check_outputs({{"--json", o.json_path}}, {{"--model", o.model_file}, {"--from-npy", o.from_npy[0]}, {"--from-npy", o.from_npy[1]}});
  const Task& task = find_task(o.task);
  const Report r = run_task_npy_check(task, parse_params(o.params), model_artifact(user_model(o), o.model_file), domain_options(o),
                                      o.from_npy[0], o.from_npy[1]);
  return finish(o, r, task.name, {{"kind", "model"}, {"file", o.model_file}, {"format", "model-json"}, {"from_npy", o.from_npy}});
}

}  // namespace

int cmd_verify_byo(const VerifyOptions& o) {
  const int files = !o.model_file.empty() + !o.circuit_file.empty() + !o.program_file.empty();
  if (o.task == "arch" && (files != 1 || o.model_file.empty()))
    throw InputError("--task arch checks the architecture layers of one --model FILE", "--task arch");
  if ((o.task == "arch" || o.task.empty()) && files == 1 && !o.model_file.empty() && !o.all && o.name.empty() && o.from_npy.empty() &&
      o.circuit_from.empty()) {
    check_outputs({{"--json", o.json_path}}, {{"--model", o.model_file}});
    const Model m = user_model(o);
    if (o.task == "arch" || !m.arch.empty()) return verify_arch(o, m);
  }
  if (o.task.empty())
    throw InputError("--model/--circuit/--program need --task TASK (see `circuitzoo tasks`; a model-json file with architecture layers "
                     "needs none: it is checked as --task arch)",
                     "--task");
  // Operator tasks (issue 47 item 3): --model against the --operator FILE's own exact evaluation
  // (app/engine/algebra/algebra_operator.h); --method algebra goes through cmd_verify_algebra.cpp.
  if (!o.operator_file.empty() || (o.task != "arch" && !find_task(o.task).operator_file.empty())) return verify_operator(o);
  if (files != 1) throw InputError("give one of --model FILE, --circuit FILE or --program FILE with --task", "verify");
  if (o.all || !o.name.empty())
    throw InputError("--model/--circuit check your file against --task; drop the construction NAME/--all", "verify");
  if (!o.from_npy.empty()) return verify_npy(o);  // issue 49 item 13: a --model FILE on a zoology batch
  if (!o.circuit_from.empty() && o.circuit_file.empty()) throw InputError("--circuit-from needs --circuit FILE", "--circuit-from");
  // Device paths: --model files against --task mqar (app/engine/byo/byo_mqar.h; the engine says so for
  // any other task) and --program files (compiled to the device's bytecode, gpu/program_code.h).
  // Circuit files are checked on the CPU (auto: the CPU).
  if (!o.circuit_file.empty() && o.device != "cpu" && o.device != "auto")
    throw InputError("a user's --circuit file is checked on the CPU (use --device cpu or auto)", "--device");
  check_device_flag(o.device);
  if (o.exhaustive && o.samples >= 0) throw InputError("--exhaustive and --samples exclude each other", "--samples");
  const std::string file = !o.model_file.empty() ? o.model_file : !o.circuit_file.empty() ? o.circuit_file : o.program_file;
  const std::string flag = !o.model_file.empty() ? "--model" : !o.circuit_file.empty() ? "--circuit" : "--program";
  std::vector<std::pair<std::string, std::string>> inputs = {{flag, file}};
  if (!o.port_names.empty()) inputs.push_back({"--port-names", o.port_names});
  check_outputs({{"--json", o.json_path}}, inputs);
  const Task& task = find_task(o.task);
  // The methods by artifact kind (Task::methods; `tasks --json` reports the same field).
  const std::string kind = !o.model_file.empty() ? "model" : !o.circuit_file.empty() ? "circuit" : "program";
  if (const std::string why = method_refusal(task, kind, o.method); !why.empty())
    throw InputError(why, o.method == "enumerate" ? "--task " + task.name : "--method " + o.method);

  const DomainOptions dom = domain_options(o);

  if (!o.program_file.empty()) {
    const nlohmann::json source = read_json_file(o.program_file, kModelMaxBytes, "a program file", JsonLimits{kJsonMaxDepth, 0, {}, kModelMaxValues});
    const ProgramFile pf = program_from_json(source, o.program_file);
    // --method sat: the step unrolled over every prompt length of the domain (app/engine/sat/sat_sd.h).
    if (o.method == "sat") return finish_sat(o, run_program_sat(pf, o.program_file, task.name, parse_params(o.params), sat_options(o)));
    const Report r = run_program_check(pf, o.program_file, task.name, parse_params(o.params), dom, &source);
    return finish(o, r, task.name, {{"kind", "program"}, {"file", o.program_file}, {"format", "program"}});
  }
  ByoArtifact art;
  if (!o.model_file.empty()) {
    art = model_artifact(user_model(o), o.model_file);
    if (o.method == "sat") {
      const SatOptions so = sat_options(o);
      return finish_sat(o, with_certificates(so, [&] { return run_model_task_sat(task, parse_params(o.params), art, so); }));
    }
  } else {
    const std::string fmt = circuit_format_of(o.circuit_file, o.circuit_from, "--circuit-from");
    auto c = read_user_circuit(o, fmt);
    art = circuit_artifact(c, o.circuit_file, fmt);
    if (o.method == "sat") {
      const SatOptions so = sat_options(o);
      return finish_sat(o, with_schedule(with_certificates(so, [&] { return run_circuit_task_sat(task, parse_params(o.params), art, c, so); }), so));
    }
  }
  if (o.method == "sat") throw InputError("--method sat checks --circuit and --model files (programs are not circuits)", "--method sat");
  const Report r = run_task_check(task, parse_params(o.params), art, dom);
  return finish(o, r, task.name, {{"kind", art.kind}, {"file", art.file}, {"format", art.format}});
}

}  // namespace cz::cli
