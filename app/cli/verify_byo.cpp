// `verify --model FILE --task TASK [-p ...]` and `verify --circuit FILE --task TASK [-p ...]`
// (issue 15): a user's model-json or circuit file against a task's independent reference, on the
// task's domain (exhaustive / --samples / --seed as for the built-ins), reported like a built-in
// construction (app/engine/byo.h). The report adds "task" and "artifact" {kind, file, format}.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/engine/byo.h"
#include "app/report/report_json.h"
#include "circuits/io.h"
#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz::cli {

int cmd_verify_byo(const VerifyOptions& o) {
  if (o.task.empty()) throw InputError("--model/--circuit need --task TASK (see `circuitzoo tasks`)", "--task");
  if (o.model_file.empty() == o.circuit_file.empty())
    throw InputError("give one of --model FILE or --circuit FILE with --task", "verify");
  if (o.all || !o.name.empty())
    throw InputError("--model/--circuit check your file against --task; drop the construction NAME/--all", "verify");
  if (!o.from_npy.empty()) throw InputError("--from-npy is for built-in constructions (verify NAME --from-npy)", "--from-npy");
  if (!o.circuit_from.empty() && o.circuit_file.empty()) throw InputError("--circuit-from needs --circuit FILE", "--circuit-from");
  if (o.device == "cuda") throw InputError("this build has no CUDA backend (use --device cpu or auto)", "--device");
  if (o.device != "cpu" && o.device != "auto") throw InputError("unknown device '" + o.device + "'", "--device");
  if (o.exhaustive && o.samples >= 0) throw InputError("--exhaustive and --samples exclude each other", "--samples");
  const std::string file = o.model_file.empty() ? o.circuit_file : o.model_file;
  check_outputs({{"--json", o.json_path}}, {{o.model_file.empty() ? "--circuit" : "--model", file}});
  const Task& task = find_task(o.task);

  DomainOptions dom;
  dom.force_exhaustive = o.exhaustive;
  if (o.samples > 0) dom.samples = static_cast<std::uint64_t>(o.samples);
  dom.seed = o.seed;
  dom.threads = o.threads;
  dom.block = o.block_size;
  dom.scalar = o.scalar;

  ByoArtifact art;
  if (!o.model_file.empty()) {
    art = model_artifact(read_model_file(o.model_file), o.model_file);
  } else {
    const std::string fmt = circuit_format_of(o.circuit_file, o.circuit_from, "--circuit-from");
    auto c = std::make_shared<const circuits::Circuit>(circuits::read_circuit(read_file(o.circuit_file), fmt, o.circuit_file));
    art = circuit_artifact(c, o.circuit_file, fmt);
  }
  const Report r = run_task_check(task, parse_params(o.params), art, dom);

  std::ostream& human = to_stdout(o.json_path) ? std::cerr : std::cout;
  print_table(human, {r});
  for (const auto& n : r.notes) human << "  note: " << n << "\n";
  if (r.exit_code()) print_counterexample(std::cerr, r);
  if (!o.json_path.empty()) {
    nlohmann::json j = to_json(r);
    j["task"] = task.name;
    j["artifact"] = {{"kind", art.kind}, {"file", art.file}, {"format", art.format}};
    emit_json(j, o.json_path);
  }
  return r.exit_code();
}

}  // namespace cz::cli
