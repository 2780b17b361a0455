// `verify NAME --method algebra` (issue 37; contract.md "verify --method algebra").
#include <iostream>

#include "app/cli/commands.h"
#include "app/engine/algebra.h"
#include "app/report/algebra_report.h"
#include "util/error.h"

namespace cz::cli {

int cmd_verify_algebra(const VerifyOptions& o) {
  if (!o.model_file.empty() || !o.circuit_file.empty() || !o.program_file.empty() || !o.task.empty())
    throw InputError("--method algebra proves a built-in construction NAME (sim/*, primitive/*), not --model/--circuit/--program/--task",
                     "--method algebra");
  if (o.all || o.name.empty()) throw InputError("--method algebra proves one construction NAME", "--method algebra");
  const bool enumerating = o.exhaustive || o.samples >= 0 || !o.shard.empty() || !o.checkpoint.empty() || !o.from_npy.empty() ||
                           o.device != "cpu" || o.scalar;
  if (enumerating)
    throw InputError("--method algebra proves every input; drop --exhaustive/--samples/--shard/--checkpoint/--from-npy/--device/--scalar",
                     "--method algebra");
  check_outputs({{"--json", o.json_path}});
  AlgebraOptions a;
  a.budget_bytes = o.algebra_budget;
  a.route = o.algebra_route;
  a.seed = o.seed;
  const AlgebraOutcome r = run_verify_algebra(find_construction(o.name), parse_params(o.params), a);
  const nlohmann::json j = algebra_report_json(r);
  std::ostream& human = to_stdout(o.json_path) ? std::cerr : std::cout;
  const auto& al = j["algebra"];
  human << j["construction"].get<std::string>() << "  " << j["params"].dump() << "  " << r.verdict << "  on "
        << j["instances"].get<std::string>() << "  (route " << al["route"].get<std::string>() << ", " << al["symbols"] << " symbols, "
        << al["terms"] << " terms, degree " << al["degree"] << ", " << al["seconds"] << " s)\n";
  human << "  domain: " << j["domain_description"].get<std::string>() << "\n";
  if (al.contains("steps"))
    for (const auto& s : al["steps"])
      human << "  step " << s["step"].get<std::string>() << ": " << s["identity"].get<std::string>() << "  "
            << (s["holds"].get<bool>() ? "holds" : "FAILS") << " (" << s["symbols"] << " symbols, " << s["terms"] << " terms, degree "
            << s["degree"] << ")\n";
  if (al.contains("undecided")) human << "  undecided: " << al["undecided"].get<std::string>() << "\n";
  if (r.counterexample)
    std::cerr << "counterexample (confirmed by exact evaluation over Q): " << r.counterexample->message << "\n  instance: "
              << r.counterexample->instance.dump() << "\n";
  if (!o.json_path.empty()) emit_json(j, o.json_path);
  return r.exit_code;
}

}  // namespace cz::cli
