#include <iostream>

#include "circuits/io.h"
#include "cli/circuit_artifact.h"
#include "cli/commands.h"
#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace cz::cli {

int cmd_export(const ExportOptions& o) {
  static const std::vector<std::string> kFormats = {"model-json", "circuit-json", "dot", "aiger", "aiger-binary", "blif", "bristol"};
  if (std::find(kFormats.begin(), kFormats.end(), o.format) == kFormats.end())
    throw InputError("unknown format '" + o.format + "' (want model-json, circuit-json, dot, aiger, aiger-binary, blif or bristol)",
                     "--format");
  if (o.out.empty()) throw InputError("missing output path", "-o");
  check_outputs({{"-o", o.out}});
  const Construction& k = find_construction(o.name);
  Params params = Params::parse(k.params, parse_params(o.params));
  Built b = k.build(params);
  if (o.format == "model-json") {
    if (!b.model) throw InputError(k.name + " does not build a model", "--format model-json");
    write_model_file(*b.model, o.out);
  } else {
    // Circuit formats: the construction's circuit, or its model compiled into one.
    CircuitArtifact a = circuit_of(b, kExportCompileCap);
    if (!a.circuit) throw InputError(k.name + ": no circuit to export: " + a.skipped, "--format " + o.format);
    std::string text = circuits::write_circuit(*a.circuit, o.format);  // InputError for aiger/blif of Field circuits
    write_file_atomic(o.out, text);
  }
  if (!to_stdout(o.out)) std::cerr << "wrote " << o.out << "\n";
  return 0;
}

}  // namespace cz::cli
