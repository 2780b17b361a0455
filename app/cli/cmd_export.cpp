#include <iostream>

#include "app/engine/algebra/algebra_operator.h"
#include "circuits/io.h"
#include "app/cli/circuit_artifact.h"
#include "app/cli/commands.h"
#include "model/model_json.h"
#include "model/weights.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/text.h"
#include "util/memory_budget.h"

namespace cz::cli {

// model-json: nlohmann::json holds each weight as a 16-byte value inside per-row arrays, and the
// dump text (a few bytes per weight) is held whole before the atomic write.
constexpr std::uint64_t kModelJsonBytesPerWeight = 64;

namespace {
// export --model FILE (issue 28): a saved model written again. model-json gives each architecture
// layer back as written while its expansion is untouched (model/model_json.h); npz and safetensors
// are tensor formats and hold the BaseConv expansion.
int export_model_file(const ExportOptions& o) {
  if (!o.name.empty()) throw InputError("give a construction NAME or --model FILE, not both", "export " + o.name);
  if (!o.params.empty()) throw InputError("-p applies to a construction, not to --model", "-p " + o.params[0]);
  if (o.format != "model-json" && o.format != "npz" && o.format != "safetensors")
    throw InputError("export --model writes model-json, npz or safetensors, not '" + o.format + "'", "--format");
  if (o.out.empty()) throw InputError("missing output path", "-o");
  check_outputs({{"-o", o.out}}, {{"--model", o.model_file}});
  const Model m = read_model_file(o.model_file);
  if (o.format == "model-json") {
    require_memory(sat_mul(count_params(m).dense, kModelJsonBytesPerWeight), "writing " + o.model_file + " as model-json", "--format model-json");
    write_model_file(m, o.out);
  } else {
    require_memory(sat_mul(count_params(m).dense, 3 * sizeof(std::int64_t)), "writing " + o.model_file + " as " + o.format, "--format " + o.format);
    ModelTensors t = model_tensors(m, o.model_file);
    t.metadata["model_file"] = o.model_file;
    write_file_atomic(o.out, o.format == "npz" ? to_npz(t) : to_safetensors(t));
  }
  if (!to_stdout(o.out)) error_stream(o.capture) << "wrote " << o.out << "\n";
  return 0;
}
}  // namespace

int cmd_export(const ExportOptions& o) {
  if (!o.model_file.empty()) return export_model_file(o);
  if (o.name.empty()) throw InputError("export needs a construction NAME or --model FILE", "command line");
  if (o.format == "models" || o.format == "program" || o.format == "reduction") return export_models(o);  // issue 15: export_models.cpp
  if (o.format == "operator") {  // issue 47 item 3: the architecture operator a simulation is built from (algebra_operator.h)
    if (o.out.empty()) throw InputError("missing output path", "-o");
    check_outputs({{"-o", o.out}});
    const Construction& k = find_construction(o.name);
    write_model_file(operator_model(k, Params::parse(k.params, parse_params(o.params))), o.out);
    if (!to_stdout(o.out)) error_stream(o.capture) << "wrote " << o.out << "\n";
    return 0;
  }
  static const std::vector<std::string> kFormats = {"model-json", "circuit-json", "dot", "aiger", "aiger-binary", "blif", "bristol", "npz", "safetensors"};
  if (std::find(kFormats.begin(), kFormats.end(), o.format) == kFormats.end())
    throw InputError("unknown format '" + quoted_value(o.format) + "' (want model-json, models, program, reduction, operator, circuit-json, dot, aiger, aiger-binary, blif, bristol, npz or safetensors)",
                     "--format");
  if (o.out.empty()) throw InputError("missing output path", "-o");
  check_outputs({{"-o", o.out}});
  const Construction& k = find_construction(o.name);
  Params params = Params::parse(k.params, parse_params(o.params));
  Built b = k.build(params);
  if (o.format == "model-json") {
    if (!b.model) throw InputError(k.name + " does not build a model", "--format model-json");
    // The JSON tree of the model (a json value and its text per weight) is built before writing.
    require_memory(sat_mul(count_params(*b.model).dense, kModelJsonBytesPerWeight), "writing " + k.name + " as model-json",
                   "--format model-json");
    write_model_file(*b.model, o.out);
  } else if (o.format == "npz" || o.format == "safetensors") {
    // int64 tensors named after zoology's BaseConv (model/weights.h); non-integers are refused.
    if (!b.model) throw InputError(k.name + " does not build a model", "--format " + o.format);
    require_memory(sat_mul(count_params(*b.model).dense, 3 * sizeof(std::int64_t)), "writing " + k.name + " as " + o.format,
                   "--format " + o.format);
    ModelTensors t = model_tensors(*b.model, k.name);
    t.metadata["construction"] = k.name;
    t.metadata["params"] = params.to_json().dump();
    write_file_atomic(o.out, o.format == "npz" ? to_npz(t) : to_safetensors(t));
  } else {
    // Circuit formats: the construction's circuit, or its model compiled into one.
    CircuitArtifact a = circuit_of(b, kExportCompileCap);
    if (!a.circuit) throw InputError(k.name + ": no circuit to export: " + a.skipped, "--format " + o.format);
    circuits::check_circuit_format(*a.circuit, o.format);  // InputError for aiger/blif of Field circuits
    require_memory(circuits::circuit_write_memory(*a.circuit, o.format),
                   "writing the " + std::to_string(a.circuit->size()) + "-gate circuit of " + k.name + " as " + o.format,
                   "--format " + o.format);
    // Streamed gate by gate into the temporary file (never the whole text in memory), then renamed.
    write_file_atomic_stream(o.out, [&](std::ostream& os) { circuits::write_circuit(*a.circuit, o.format, os); });
  }
  if (!to_stdout(o.out)) error_stream(o.capture) << "wrote " << o.out << "\n";
  return 0;
}

}  // namespace cz::cli
