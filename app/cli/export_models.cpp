// `export NAME --format models [-p instance=k] -o PATH` (issue 15, item 4): the construction's
// artifact as a list of models for one instance (verify/parts.h). Data-dependent constructions
// that register parts (sd/based-jrt) give every stage model instance k of their default domain
// runs through; a construction with one model gives it as a one-stage list.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "verify/parts.h"

namespace cz::cli {

int export_models(const ExportOptions& o) {
  if (o.out.empty()) throw InputError("missing output path", "-o");
  check_outputs({{"-o", o.out}});
  const Construction& k = find_construction(o.name);
  std::map<std::string, std::string> given = parse_params(o.params);
  if (o.format == "program") {  // a recurrent algorithm as a program file (model/program_json.h)
    const ProgramFactory* prog = find_program(k.name);
    if (!prog)
      throw InputError(k.name + " is not a recurrent program (constructions with a program: sd/recurrent-jrt)", "--format program");
    const nlohmann::json j = (*prog)(Params::parse(k.params, given));
    write_file_atomic(o.out, json_text(j));
    if (!to_stdout(o.out)) error_stream(o.capture) << "wrote " << o.out << "\n";
    return 0;
  }
  if (o.format == "reduction") {  // a composite reduction as its parts (verify/parts.h)
    const ReductionFactory* red = find_reduction(k.name);
    if (!red)
      throw InputError(k.name + " is not a reduction through another task's solver (reductions: gar/via-sd, sd/via-gar)",
                       "--format reduction");
    std::uint64_t instance = 0;
    if (given.count("instance")) {
      instance = parse_uint_flag(given.at("instance"), "-p instance", 0, UINT64_MAX);
      given.erase("instance");
    }
    const nlohmann::json j = (*red)(Params::parse(k.params, given), instance);
    write_file_atomic(o.out, json_text(j));
    if (!to_stdout(o.out)) error_stream(o.capture) << "wrote " << o.out << "\n";
    return 0;
  }
  const bool has_instance_param =
      std::any_of(k.params.begin(), k.params.end(), [](const ParamSpec& s) { return s.name == "instance"; });
  const PartsFactory* parts = find_parts(k.name);
  std::uint64_t instance = 0;
  if (parts && !has_instance_param && given.count("instance")) {
    instance = parse_uint_flag(given.at("instance"), "-p instance", 0, UINT64_MAX);
    given.erase("instance");
  }
  const Params params = Params::parse(k.params, given);
  const Built b = k.build(params);
  nlohmann::json j;
  if (parts) {
    Parts ps = (*parts)(params, b, instance);
    j = parts_to_json(k.name, params.to_json(), ps);
  } else if (b.model) {
    Parts ps;
    ps.models.push_back({"model", "the input u (N×d)", false, *b.model});
    for (const auto& n : b.notes) ps.notes.push_back(n);
    j = parts_to_json(k.name, params.to_json(), ps);
  } else {
    throw InputError(k.name + " builds no model (" + (b.circuit_ir ? "its artifact is a circuit: use --format circuit-json" :
                                                      find_reduction(k.name) ? "it is a reduction: use --format reduction" :
                                                      "it is a recurrent program: use --format program") + ")",
                     "--format models");
  }
  write_file_atomic(o.out, json_text(j));
  if (!to_stdout(o.out)) error_stream(o.capture) << "wrote " << o.out << "\n";
  return 0;
}

}  // namespace cz::cli
