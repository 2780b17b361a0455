#include "python/command_calls.h"

#include <filesystem>
#include <initializer_list>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/arg_checks.h"
#include "app/cli/commands.h"
#include "app/cli/plot.h"
#include "app/engine/run/shard.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/progress.h"

namespace cz::py_module {

namespace {
using json = nlohmann::json;
using cz::cli::ArgNames;
using cz::cli::UintArg;

// Whole numbers with no constant in arg_checks.h (main.cpp gives CLI11 the same ranges).
constexpr UintArg kBlockSizeArg{"--block-size", "block_size", 1, std::uint64_t{1} << 24};
constexpr UintArg kCheckpointEveryArg{"--checkpoint-every", "checkpoint_every", 1, 86400};
constexpr UintArg kAlgebraBudgetArg{"--algebra-budget", "budget", 1, std::uint64_t{1} << 50};

// The options object: strings, booleans, lists, and whole numbers as decimal text (the wrapper
// checks their Python types; the ranges are checked here with the CLI's code and Python's names).
class Opts {
 public:
  explicit Opts(const json& j) : j_(j) {}
  bool has(const char* k) const { return j_.contains(k) && !j_[k].is_null(); }
  std::string str(const char* k, const std::string& def = "") const { return has(k) ? j_[k].get<std::string>() : def; }
  bool flag(const char* k) const { return has(k) && j_[k].get<bool>(); }
  std::uint64_t uint(const char* k, const UintArg& a, std::uint64_t def) const {
    return has(k) ? cz::cli::parse_uint_arg(j_[k].get<std::string>(), a, ArgNames::Python) : def;
  }
  std::vector<std::string> list(const char* k) const { return has(k) ? j_[k].get<std::vector<std::string>>() : std::vector<std::string>{}; }
  // {"KEY": "VALUE"} as the CLI's -p KEY=VALUE
  std::vector<std::string> params() const {
    std::vector<std::string> out;
    if (has("params"))
      for (const auto& [k, v] : j_["params"].items()) out.push_back(k + "=" + v.get<std::string>());
    return out;
  }
  // One of the CLI's choices (CLI11's IsMember in main.cpp), else InputError naming Python's argument.
  std::string choice(const char* k, const std::string& def, std::initializer_list<const char*> choices) const {
    const std::string v = str(k, def);
    std::string want;
    for (const char* c : choices) {
      if (v == c) return v;
      want += (want.empty() ? "" : ", ") + std::string(c);
    }
    throw InputError(std::string(k) + " must be one of " + want, std::string(k) + " " + v);
  }
  const json& raw(const char* k) const { return j_[k]; }

 private:
  const json& j_;
};

std::string verify(const Opts& p) {
  cli::VerifyOptions o;
  o.name = p.str("name");
  o.params = p.params();
  o.all = p.flag("all");
  o.exhaustive = p.flag("exhaustive");
  if (p.has("samples")) o.samples = static_cast<long long>(p.uint("samples", cli::kSamplesArg, 0));
  o.seed = p.uint("seed", cli::kSeedArg, 1);
  o.threads = static_cast<unsigned>(p.uint("threads", cli::kThreadsArg, 0));
  o.block_size = p.uint("block_size", kBlockSizeArg, 0);
  o.scalar = p.flag("scalar");
  o.device = p.str("device", "cpu");
  o.from_npy = p.list("from_npy");
  if (!o.from_npy.empty() && o.from_npy.size() != 2) throw InputError("from_npy is (INPUTS.npy, LABELS.npy)", "from_npy");
  o.shard = p.str("shard");
  if (p.has("shard")) (void)parse_shard(o.shard);  // as main.cpp: '' is refused, not an unsharded run
  o.checkpoint = p.str("checkpoint");
  o.resume = p.flag("resume");
  o.checkpoint_seconds = p.uint("checkpoint_every", kCheckpointEveryArg, 0);
  o.model_file = p.str("model_file");
  o.model_text = p.str("model_text");
  o.circuit_file = p.str("circuit_file");
  o.circuit_from = p.str("circuit_from");
  o.port_names = p.str("port_names");
  o.program_file = p.str("program_file");
  o.task = p.str("task");
  o.operator_file = p.str("operator_file");  // issue 47 item 3: an operator task's --operator
  o.operator_text = p.str("operator_text");
  o.equiv_model_file = p.str("equiv_model_file");  // issue 47 item 2: model against model (--equiv-model)
  o.equiv_model_text = p.str("equiv_model_text");
  o.method = p.choice("method", "enumerate", {"enumerate", "sat", "algebra"});
  if (p.has("timeout")) o.sat_timeout = cli::parse_real_arg(p.str("timeout"), cli::kTimeoutArg, ArgNames::Python);
  o.sat_confirm = p.flag("confirm");
  o.sat_certify = p.flag("certify");
  o.sat_proof = p.str("proof");
  o.sat_split = p.choice("split", "family", {"family", "cell", "whole"});
  o.sat_lemmas = p.flag("lemmas");
  o.sat_cubes = p.flag("cubes");
  o.sat_order = p.choice("order", "index", {"largest", "index"});
  o.sat_cnf = p.str("cnf");
  if (!o.sat_cnf.empty() && !std::filesystem::is_directory(o.sat_cnf))
    throw InputError("not an existing directory", "cnf " + o.sat_cnf);
  o.sat_strategy = p.choice("strategy", "auto", {"auto", "stages", "monolithic"});
  o.sat_zero_one = p.choice("zero_one", "auto", {"auto", "exhaustive", "sat"});
  o.sat_blocks = p.choice("blocks", "calls", {"calls", "queries"});
  o.sat_flags_given = p.list("sat_flags");
  o.algebra_budget = p.uint("budget", kAlgebraBudgetArg, o.algebra_budget);
  o.algebra_route = p.choice("route", "auto", {"auto", "expansion", "compositional"});
  o.algebra_symbols = p.choice("symbols", "inputs", {"inputs", "weights"});
  const bool own_file = !o.model_file.empty() || !o.circuit_file.empty() || !o.program_file.empty() || !o.task.empty();
  if (o.method == "enumerate" && !own_file && o.from_npy.empty())  // Python's names in these messages (arg_checks.h)
    cli::check_verify_domain(o.exhaustive, o.samples >= 0, o.device, ArgNames::Python);
  json out;
  o.capture.json = &out;
  if (o.method == "sat") {
    // One stage for the whole proof, so that `progress=` is called (at the start and at the end) and
    // can stop it, as for enumeration (issue 36 item 11); the miters' own progress is the SAT path's.
    Progress stage("method sat", 1);
    cli::cmd_verify(o);
    stage.advance(1);
  } else {
    cli::cmd_verify(o);
  }
  return out.dump();
}

std::string stats(const Opts& p) {
  cli::StatsOptions o;
  o.name = p.str("name");
  o.params = p.params();
  o.model_file = p.str("model_file");
  json out;
  o.capture.json = &out;
  cli::cmd_stats(o);
  return out.dump();
}

std::string prove(const Opts& p) {
  cli::ProveOptions o;
  o.name = p.str("name");
  o.all = p.flag("all");
  o.fast = p.flag("fast");
  o.seed = p.uint("seed", cli::kSeedArg, 1);
  json out;
  o.capture.json = &out;
  cli::cmd_prove(o);
  return out.dump();
}

std::string claims(const Opts& p) {
  cli::ClaimsOptions o;
  o.fast = p.flag("fast");
  const std::string f = p.choice("format", "json", {"json", "markdown", "latex", "errata"});
  o.markdown = f == "markdown";
  o.latex = f == "latex";
  o.errata = f == "errata";
  o.plot_path = p.str("plot");
  json out;
  o.capture.json = &out;
  cli::cmd_claims(o);
  return out.dump();
}

std::string export_(const Opts& p) {
  cli::ExportOptions o;
  o.name = p.str("name");
  o.params = p.params();
  o.format = p.str("format");
  o.out = p.str("out");
  o.model_file = p.str("model_file");
  json out;
  o.capture.json = &out;
  cli::cmd_export(o);
  return "null";
}

std::string circuit(const Opts& p) {
  cli::CircuitOptions o;
  o.file = p.str("file");
  o.from = p.str("format");
  o.to = p.str("to");
  o.out = p.str("out");
  o.equiv = p.str("equiv");
  o.equiv_from = p.str("equiv_format");
  o.equiv_model = p.str("equiv_model");
  o.eval_input = p.str("eval_file");
  if (p.has("eval")) o.eval_value = &p.raw("eval");
  o.threads = static_cast<unsigned>(p.uint("threads", cli::kThreadsArg, 0));
  o.samples = p.uint("samples", cli::kSamplesArg, 0);
  o.seed = p.uint("seed", cli::kSeedArg, 1);
  o.method = p.choice("method", "auto", {"auto", "enumerate", "sat"});
  o.certify = p.flag("certify");
  if (p.has("timeout")) o.timeout_s = cli::parse_real_arg(p.str("timeout"), cli::kTimeoutArg, ArgNames::Python);
  o.proof = p.str("proof");  // issue 47: certificates of equiv= by SAT
  if (p.has("proof") && o.proof.empty()) throw InputError("empty path", "proof=''");
  json out;
  o.capture.json = &out;
  cli::cmd_circuit(o);
  return out.dump();
}

std::string merge(const Opts& p) {
  cli::MergeOptions o;
  o.parts = p.list("parts");
  json out;
  o.capture.json = &out;
  cli::cmd_merge(o);
  return out.dump();
}

std::string tasks(const Opts& p) {
  cli::Common o;
  o.name = p.str("name");
  json out;
  o.capture.json = &out;
  cli::cmd_tasks(o);
  return out.dump();
}

std::string device(const Opts&) {
  cli::Common o;
  json out;
  o.capture.json = &out;
  cli::cmd_device(o);
  return out.dump();
}

std::string check_proof(const Opts& p) {
  cli::CheckProofOptions o;
  o.dirs = p.list("dirs");  // every shard's directory (check-proof DIR_0 ... DIR_{K-1})
  if (o.dirs.size() == 1) o.dir = o.dirs[0], o.dirs.clear();
  o.threads = static_cast<unsigned>(p.uint("threads", cli::kThreadsArg, 0));
  o.circuits = p.list("circuits");  // an equivalence run's two files, where they are now (issue 47)
  json out;
  o.capture.json = &out;
  const int rc = cli::cmd_check_proof(o);
  (void)rc;  // the verdict is in the JSON ("certified" / "rejected"), as the CLI's exit 0 / 1
  return out.dump();
}

// sweep_report(..., plot=PATH) (issue 49 item 15): the sweep JSON drawn as `sweep --plot` draws it
// (app/cli/plot.h). {"path", "check": true}: the checks `sweep --plot` makes before any work (the
// suffix, the path writable, matplotlib importable); {"path", "sweep": JSON}: the picture, written atomically.
std::string plot(const Opts& p) {
  const std::string path = p.str("path");
  cli::check_outputs({{"plot", path}});
  cli::check_plot_path(path);
  if (p.flag("check")) {
    cli::check_plotting_available();
    return "null";
  }
  write_file_atomic(path, cli::render_sweep_plot(p.raw("sweep"), path));
  return "null";
}

}  // namespace

std::string run_command(const std::string& command, const std::string& options_json) {
  const json j = json::parse(options_json);
  const Opts p(j);
  if (command == "verify") return verify(p);
  if (command == "stats") return stats(p);
  if (command == "prove") return prove(p);
  if (command == "claims") return claims(p);
  if (command == "export") return export_(p);
  if (command == "circuit") return circuit(p);
  if (command == "merge") return merge(p);
  if (command == "tasks") return tasks(p);
  if (command == "device") return device(p);
  if (command == "check-proof") return check_proof(p);
  if (command == "plot") return plot(p);
  throw InputError("no such command", command);
}

}  // namespace cz::py_module
