#include <iostream>

#include "cli/commands.h"
#include "model/model_json.h"
#include "util/error.h"

namespace cz::cli {

int cmd_export(const ExportOptions& o) {
  static const std::vector<std::string> kFormats = {"model-json", "circuit-json", "dot", "aiger", "blif", "bristol"};
  if (std::find(kFormats.begin(), kFormats.end(), o.format) == kFormats.end())
    throw InputError("unknown format '" + o.format + "' (want model-json, circuit-json, dot, aiger, blif or bristol)",
                     "--format");
  if (o.out.empty()) throw InputError("missing output path", "-o");
  const Construction& k = find_construction(o.name);
  Params params = Params::parse(k.params, parse_params(o.params));
  Built b = k.build(params);
  if (o.format == "model-json") {
    if (!b.model) throw InputError(k.name + " does not build a model", "--format model-json");
    write_model_file(*b.model, o.out);
  } else {
    throw InputError("format '" + o.format + "' is not available for " + k.name + " in this build", "--format");
  }
  std::cerr << "wrote " << o.out << "\n";
  return 0;
}

}  // namespace cz::cli
