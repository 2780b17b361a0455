// The subcommands of `circuitzoo`, one file each; only main.cpp sees CLI11 (it is slow to
// compile, build-recipe §5). Each returns the process exit code (contract.md) and throws
// InputError for usage and input errors.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "verify/construction.h"

namespace cz {
struct Model;       // model/model.h
struct SatOptions;  // app/engine/sat/sat_path.h
struct SatOutcome;
struct ArchLayer;   // model/arch_layer.h
struct Task;        // verify/task.h
}  // namespace cz

namespace cz::cli {

// The Python module runs a command for its JSON (python/bindings.cpp, issue 39): with `json` set,
// the JSON the command would write to --json lands there and no text is printed (rows, notes,
// counterexamples, "wrote ..."); the checks, the work and the JSON are the CLI's own.
struct Capture {
  nlohmann::json* json = nullptr;
  bool on() const { return json != nullptr; }
};
// The stream for a command's human text: stdout, stderr when the JSON goes to stdout, none when captured.
std::ostream& human_stream(const std::string& json_path, const Capture& cap);
// stderr, or none when captured.
std::ostream& error_stream(const Capture& cap);
// emit_json(j, path), or j into the capture; json_wanted: whether either is asked for.
void deliver_json(const nlohmann::json& j, const std::string& path, const Capture& cap);
inline bool json_wanted(const std::string& path, const Capture& cap) { return !path.empty() || cap.on(); }

struct Common {
  std::string name;
  std::vector<std::string> params;  // raw KEY=VALUE
  std::string json_path;            // "" none, "-" stdout
  Capture capture;
};

std::map<std::string, std::string> parse_params(const std::vector<std::string>& raw);
// Writes JSON to stdout ("-") or atomically to a file (util/atomic_file.h: devices and FIFOs are
// written through, never replaced). "" writes nothing.
void emit_json(const nlohmann::json& j, const std::string& path);
// Checks up front, before any work, that the outputs can be written and name no input and no
// other output (util/atomic_file.h check_output_paths); empty paths (options not given) are skipped.
void check_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                   const std::vector<std::pair<std::string, std::string>>& inputs = {});
// True when PATH sends its output to standard output ("-" or /dev/stdout): human text goes to stderr then.
bool to_stdout(const std::string& path);
// NAME is missing: when --json took a value, the user most likely meant it as NAME (`verify --json
// mqar/dyadic`: --json takes an optional PATH, so it took the name). Throws InputError(WHAT and
// "--json took 'X' as its file name ...", "--json X") then, else InputError(WHAT, WHERE) (issue 39).
[[noreturn]] void throw_missing_name(const std::string& what, const std::string& where, const std::string& json_path);
// The JSON text emit_json writes.
std::string json_text(const nlohmann::json& j);

// A whole number given to FLAG as TEXT: digits only (no sign, no spaces), within [min, max];
// otherwise InputError("FLAG must be a whole number from MIN to MAX", "FLAG TEXT"). Never wraps.
std::uint64_t parse_uint_flag(const std::string& text, const std::string& flag, std::uint64_t min, std::uint64_t max);

int cmd_list(const Common& c);
// `list --json`: every construction with its parameters (the Python module's constructions() too).
nlohmann::json registry_json();

struct VerifyOptions : Common {
  bool all = false, exhaustive = false;
  long long samples = -1;
  unsigned long long seed = 1;
  unsigned threads = 0;
  unsigned long long block_size = 0;  // 0: the check's preference
  bool scalar = false;                // the per-instance reference path instead of blocks
  bool wide = false;                  // --wide: the table's every parameter, exact count and claim (report_json.h)
  std::string device = "cpu";
  std::vector<std::string> from_npy;  // INPUTS.npy LABELS.npy: check an MQAR construction on a zoology batch
  std::string shard;                  // I/K: check part I of K (issue 13; `merge` joins the parts)
  std::string checkpoint;             // FILE: save progress every checkpoint_seconds
  bool resume = false;                // continue from the checkpoint FILE
  unsigned long long checkpoint_seconds = 0;  // --checkpoint-every (0: not given, kCheckpointSecondsDefault)
  // Bring your own construction (issue 15; verify_byo.cpp): a user's file against a task.
  std::string model_file, circuit_file, circuit_from, task, program_file;
  std::string model_text;  // the model itself (Python's dict, as model-json text); model_file then only names it
  std::string port_names;  // --port-names FILE: the --circuit file's port names, by position, from another circuit file
  // --operator FILE (issue 47 item 3): the operator an operator task (--task hyena|h3|retnet|rwkv) checks
  // --model against; operator_text: the file itself (Python's dict, as model-json text).
  std::string operator_file, operator_text;
  // --equiv-model FILE (issue 47 item 2): with --model and --method algebra, the second model whose
  // polynomial map the --model file's is proved equal to; equiv_model_text: the file itself (Python's dict).
  std::string equiv_model_file, equiv_model_text;
  // --method sat (issue 27; app/engine/sat/sat_path.h): a SAT proof instead of an enumeration.
  std::string method = "enumerate";
  double sat_timeout = 300;
  bool sat_confirm = false;
  std::string sat_proof;  // FILE.drat (the old single-file form) or DIR (certificates, issue 38)
  bool sat_certify = false;
  std::string sat_split = "family";
  bool sat_lemmas = false;
  bool sat_cubes = false;
  std::string sat_order = "index";
  std::string sat_cnf;  // DIR: keep each miter's DIMACS
  std::string sat_strategy = "auto";  // circuit/sort: auto | stages | monolithic
  std::string sat_zero_one = "auto";  // stages' 0-1 check: auto | exhaustive | sat
  std::string sat_blocks = "calls";   // mqar/dyadic stages: pbs blocks call by call | per query
  double sat_cube_after = -1;  // --sat-cube-after S (issue 38: cube-and-conquer); < 0: none
  unsigned sat_cube_bits = 4;  // --sat-cube-bits B: 2^B cubes a split
  // --method algebra (issue 37; app/engine/algebra/algebra.h): a polynomial identity over all of Q^(N×d).
  unsigned long long algebra_budget = 4ULL << 30;  // bytes
  std::string algebra_route = "auto";              // auto | expansion | compositional
  std::string algebra_symbols = "inputs";          // inputs | weights (issue 37: weights as symbols)
  // The --method sat flags given on the command line (--timeout, --proof, ...): without --method
  // sat they are refused, never ignored (issue 36 item 15).
  std::vector<std::string> sat_flags_given;
  // The --algebra-* flags given on the command line: refused without --method algebra (issue 46 item 15).
  std::vector<std::string> algebra_flags_given;
};
inline constexpr unsigned long long kCheckpointSecondsDefault = 30;
int cmd_verify(const VerifyOptions& o);
// The model of `verify --model`: model_text when given (Python), else the file, read with every check.
Model user_model(const VerifyOptions& o);
// The domain a verify command line asks for (--exhaustive, --samples, --seed, --threads, ...).
DomainOptions domain_options(const VerifyOptions& o);
// `verify --model FILE | --circuit FILE | --program FILE --task TASK [-p ...]` (verify_byo.cpp).
int cmd_verify_byo(const VerifyOptions& o);
// --method sat (cmd_verify.cpp): the options checked, and the report printed and written.
cz::SatOptions sat_options(const VerifyOptions& o);
int finish_sat(const VerifyOptions& o, const cz::SatOutcome& r);
// The outcome with sat.schedule when the run went through the scheduler (issue 38).
cz::SatOutcome with_schedule(cz::SatOutcome r, const cz::SatOptions& s);
int cmd_verify_sat(const VerifyOptions& o);
// --method algebra (cmd_verify_algebra.cpp, issue 37).
int cmd_verify_algebra(const VerifyOptions& o);
// The --operator of an operator task (cmd_verify_algebra.cpp): read, its kind the task's, every -p
// checked against it (InputError otherwise, or when --operator is missing).
std::shared_ptr<const ArchLayer> user_operator(const VerifyOptions& o, const Task& t);

// `circuitzoo device [--json]`: the CUDA device and the device paths (cmd_device.cpp, issue 12).
int cmd_device(const Common& c);

// `circuitzoo tasks [--json]`: the task registry (cmd_tasks.cpp).
int cmd_tasks(const Common& c);

// stats NAME builds a construction; stats --model FILE reads a model-json file instead. Both give
// the dense and the K-matrix parameter counts (model/kmatrix_projection.h).
struct StatsOptions : Common {
  std::string model_file;
};
int cmd_stats(const StatsOptions& c);

// `circuitzoo merge PART.json...`: shard reports into the single-run report (issue 13).
struct MergeOptions {
  std::vector<std::string> parts;
  std::string json_path;
  Capture capture;
  bool wide = false;
};
int cmd_merge(const MergeOptions& o);

struct ExportOptions : Common {
  std::string format, out;
  std::string model_file;  // export --model FILE: a model-json file instead of a construction (issue 28)
};
int cmd_export(const ExportOptions& o);
// `export NAME --format models [-p instance=k]`: a list of models for one instance (export_models.cpp).
int export_models(const ExportOptions& o);

struct SweepOptions : Common {
  std::string vary, csv_path;
  std::string plot_path;  // --plot FILE.svg|png (cli/plot.h)
};
int cmd_sweep(const SweepOptions& o);
// The sweep JSON (`sweep --json`): rows at each value of `key`, and the log-log fits.
nlohmann::json sweep_json(const Construction& k, const std::string& key, const std::vector<std::string>& values,
                          const std::map<std::string, std::string>& given);

struct EvalOptions {
  std::string model, input, json_path;
};
int cmd_eval(const EvalOptions& o);

// `mqar-data`: zoology's multiquery_ar batch (random_non_queries off) as two int64 .npy files.
struct MqarDataOptions {
  std::size_t vocab = 8192, seq_len = 64, kv = 8, examples = 1000;
  unsigned long long seed = 0;
  std::string power_a = "0.01", inputs, labels;
  bool random_non_queries = false;  // zoology's step 11 with circuitzoo's seeded noise (tasks/zoology.h)
};
int cmd_mqar_data(const MqarDataOptions& o);

// `circuitzoo circuit FILE`: read a circuit file (any circuit format), print its stats, convert it,
// or check it against another circuit file on all 0/1 inputs (cmd_circuit.cpp).
// The circuit format of PATH: GIVEN when set (checked), else by extension (FLAG names the option).
std::string circuit_format_of(const std::string& path, const std::string& given, const std::string& flag);

struct CircuitOptions {
  std::string file, from, to, out, equiv, equiv_from, json_path;
  std::string eval_input;   // --eval INPUT.json: exact outputs on {"input": [...]}  (cmd_circuit_eval.cpp)
  std::string equiv_model;  // --equiv-model MODEL.json: the circuit against a model on every 0/1 input
  unsigned threads = 0;
  std::uint64_t samples = 0, seed = 1;  // samples > 0: random simulation instead of enumeration
  // --equiv's method (issue 47 item 4): auto (enumeration up to 32 inputs, SAT beyond, or with
  // --certify), enumerate, sat (app/engine/sat/sat_equiv.h); --certify and --timeout for sat.
  std::string method = "auto";
  bool certify = false;
  double timeout_s = 300;
  std::string proof;  // --proof DIR: certificates of --equiv by SAT (issue 47), checked by check-proof
  const nlohmann::json* eval_value = nullptr;  // the --eval input itself (Python); eval_input then only names it
  Capture capture;
};
int cmd_circuit(const CircuitOptions& o);

// `circuitzoo prove NAME | --all`: the proofs-checks (cmd_prove.cpp).
struct ProveOptions : Common {
  bool all = false, fast = false;
  unsigned long long seed = 1;
};
int cmd_prove(const ProveOptions& o);

// `circuitzoo check-proof DIR`: a --proof DIR checked offline (cmd_check_proof.cpp, issue 38).
struct CheckProofOptions {
  std::string dir, json_path;
  std::vector<std::string> dirs;  // the CLI: DIR, or every shard's DIR_0 ... DIR_{K-1} (empty: dir)
  std::vector<std::string> circuits;  // --circuits FIRST SECOND: where an equivalence run's files are now (issue 47)
  unsigned threads = 0;
  Capture capture;
};
int cmd_check_proof(const CheckProofOptions& o);

// `circuitzoo claims`: the claims ledger (cmd_claims.cpp).
struct ClaimsOptions {
  bool fast = false, markdown = false, latex = false, errata = false;
  // Where each rendering goes when asked: "-" (stdout, the old flag form) or a file; one ledger
  // computation can write several renderings, at most one of them (JSON included) to stdout.
  std::string markdown_path = "-", latex_path = "-", errata_path = "-";
  std::string json_path;
  std::string plot_path;  // --plot FILE.svg|png: the asymptotic rows against their claimed shapes
  Capture capture;
};
int cmd_claims(const ClaimsOptions& o);

}  // namespace cz::cli
