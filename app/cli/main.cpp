// circuitzoo: the command-line front door (contract.md). The only file that includes CLI11.
#include <CLI/CLI.hpp>
#include <functional>
#include <set>
#include <iostream>
#include <memory>
#include <sstream>

#include "app/cli/arg_checks.h"  // the bounds the Python module shares
#include "app/cli/commands.h"
#include "app/cli/config_file.h"
#include "app/report/human_format.h"
#include "app/report/report_json.h"
#include "util/error.h"
#include "util/text.h"
#include "app/engine/run/cluster.h"
#include "app/engine/engine.h"

namespace {

// Options whose values are checked after parsing (exit 2 with the flag and the value, never a
// wrapped or silently accepted number): whole numbers are taken as text and converted by
// parse_uint_flag; output paths may not be "".
struct Deferred {
  std::vector<std::function<void()>> steps;
  void add(std::function<void()> f) { steps.push_back(std::move(f)); }
  void run() const {
    for (const auto& f : steps) f();
  }
};

// `--json [PATH|-]`: with no value (`--json` last, or before another option) it means stdout.
// A value that follows is always taken as the PATH, so `verify --json NAME` writes to a file
// called NAME: put NAME first (`verify NAME --json`) or write `--json -`. `--json ""` is refused.
CLI::Option* add_json(CLI::App* app, std::string& path, Deferred& d, const std::string& help) {
  CLI::Option* o = app->add_option("--json", path, help + " (PATH, '-' or no value: stdout)")->expected(0, 1)->default_str("-")->type_name("[PATH|-]");
  d.add([o, &path] {
    if (o->count() && path.empty()) throw cz::InputError("empty output path (use --json - for stdout)", "--json \"\"");
  });
  return o;
}

void nonempty_path(CLI::Option* o, const std::string& path, Deferred& d, const std::string& flag) {
  d.add([o, &path, flag] {
    if (o->count() && path.empty()) throw cz::InputError("empty path", flag + " \"\"");
  });
}

template <class T>
void uint_option(CLI::App* app, const std::string& names, T& target, std::string& text, Deferred& d, const std::string& help,
                 std::uint64_t min, std::uint64_t max) {
  CLI::Option* o = app->add_option(names, text, help)->type_name("UINT");
  const std::string flag = o->get_name();
  d.add([o, &target, &text, flag, min, max] {
    if (o->count()) target = static_cast<T>(cz::cli::parse_uint_flag(text, flag, min, max));
  });
}

// CLI11's Range lets NaN through (every comparison with it is false): real-valued options are
// checked by arg_checks.h parse_real_arg instead (issue 36 item 5).
CLI::Validator finite_range(const cz::cli::RealArg& a) {
  return CLI::Validator(
      [a](std::string& text) -> std::string {
        try {
          (void)cz::cli::parse_real_arg(text, a, cz::cli::ArgNames::Cli);
        } catch (const cz::InputError& e) {
          return e.what();
        }
        return "";
      },
      "FINITE", "finite");
}

std::string one_line(const std::string& s) { return cz::escape_bytes(s); }

// --help fits the terminal (issue 49 item 6; human_format.h human_columns(): $COLUMNS, the
// terminal's width, else 80): descriptions, the description of a command and the footer are
// wrapped at spaces, each line of a description indented to its column.
std::string wrap_lines(const std::string& text, std::size_t width) {
  std::ostringstream os;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    if (nl > pos) cz::print_wrapped(os, "", text.substr(pos, nl - pos), 0, std::max<std::size_t>(width, 20));
    else if (nl < text.size()) os << "\n";
    pos = nl + 1;
  }
  std::string out = os.str();
  if (!out.empty() && out.back() == '\n' && (text.empty() || text.back() != '\n')) out.pop_back();
  return out;
}

class WrappingFormatter : public CLI::Formatter {
 public:
  std::string make_option_desc(const CLI::Option* opt) const override {
    return wrap_lines(CLI::Formatter::make_option_desc(opt), desc_width());
  }
  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true), wrap_lines(sub->get_description(), desc_width()), get_column_width());
    return out.str();
  }
  std::string make_description(const CLI::App* app) const override {
    return wrap_lines(CLI::Formatter::make_description(app), cz::human_columns());
  }
  std::string make_footer(const CLI::App* app) const override {
    return wrap_lines(CLI::Formatter::make_footer(app), cz::human_columns());
  }

 private:
  std::size_t desc_width() const {
    const std::size_t w = cz::human_columns(), col = get_column_width();
    return w > col + 20 ? w - col : 20;
  }
};

// The long names of the options given on a subcommand's command line (they win over --config).
std::set<std::string> given_flags(const CLI::App* sub) {
  std::set<std::string> out;
  for (const CLI::Option* o : sub->get_options())
    if (o->count()) out.insert(o->get_name());
  return out;
}

}  // namespace
#include "util/memory_budget.h"

int run_main(int argc, char** argv) {
  using namespace cz::cli;
  CLI::App app{"circuitzoo: exact, checkable BaseConv / arithmetic-circuit constructions (Zoology, Based, JRT)"};
  // Where the reference lives (issue 26): every command, flag, JSON/CSV field, file format and exit code.
  app.footer("Reference: docs/contract.md (commands, flags, JSON/CSV fields, file formats, exit codes) and\n"
             "docs/theory.md (conventions, convolution modes, errata) in the source tree; each subcommand has --help.");
  app.formatter(std::make_shared<WrappingFormatter>());  // before the subcommands: they inherit it
  app.require_subcommand(1);
  app.set_version_flag("--version", cz::kVersion);
  Deferred deferred;
  constexpr std::uint64_t kU64Max = UINT64_MAX, kI64Max = INT64_MAX;

  Common list_o;
  auto* list = app.add_subcommand("list", "list registered constructions and their parameters (NAME: each parameter's meaning)");
  list->add_option("name", list_o.name, "one construction: each parameter's meaning, default, range or choices");
  add_json(list, list_o.json_path, deferred, "write JSON");

  VerifyOptions ver;
  std::string ver_samples, ver_seed, ver_threads, ver_block;
  auto* verify = app.add_subcommand(
      "verify", "verify a construction exhaustively or on seeded samples; or your own file: verify --model|--circuit|--program FILE --task TASK [-p ...]");
  verify->add_option("name", ver.name, "construction name (see list)");
  verify->add_flag("--all", ver.all, "every construction at its small defaults");
  verify->add_option("-p,--param", ver.params, "KEY=VALUE parameter (repeatable)");
  verify->add_flag("--exhaustive", ver.exhaustive, "force an exhaustive domain");
  uint_option(verify, "--samples", ver.samples, ver_samples, deferred, "force a sampled domain of K instances", kSamplesArg.min, kSamplesArg.max);
  uint_option(verify, "--seed", ver.seed, ver_seed, deferred, "seed of sampled domains (default 1)", kSeedArg.min, kSeedArg.max);
  uint_option(verify, "--threads", ver.threads, ver_threads, deferred,
              "worker threads (default or 0: all cores; at most " + std::to_string(cz::kMaxThreads) + ")", kThreadsArg.min, kThreadsArg.max);
  uint_option(verify, "--block-size", ver.block_size, ver_block, deferred,
              "instances per engine block (default: the construction's preference)", 1, 1ULL << 24);
  verify->add_flag("--wide", ver.wide, "human output: every parameter, exact counts and each paper claim on the row (default: rows fit the terminal, $COLUMNS or 80 columns)");
  verify->add_flag("--scalar", ver.scalar, "check one instance at a time through the reference path (no blocks)");
  verify->add_option("--device", ver.device,
                     "cpu | cuda | auto | twin (default cpu). auto: the GPU when there is one and the construction "
                     "has a device path; twin: the device path's kernel bodies run on the CPU");
  add_json(verify, ver.json_path, deferred, "write the report as JSON");
  std::string ver_config, sw_config, md_config;
  nonempty_path(verify->add_option("--config", ver_config,
                                   "JSON file of settings: construction, params {KEY: VALUE}, samples, seed, exhaustive, threads, device "
                                   "(flags on the command line win; docs/contract.md)"),
                ver_config, deferred, "--config");
  verify->add_option("--from-npy", ver.from_npy, "INPUTS.npy LABELS.npy: check an MQAR construction on a zoology batch")
      ->expected(2);
  CLI::Option* shard_opt =
      verify->add_option("--shard", ver.shard, "I/K: check part I of K of the domain and write a part report (join with merge)");
  deferred.add([shard_opt, &ver] {
    if (shard_opt->count()) (void)cz::parse_shard(ver.shard);  // `--shard ''` is refused, not an unsharded run
  });
  nonempty_path(verify->add_option("--checkpoint", ver.checkpoint, "save progress to FILE (atomically, every ~30 s)"), ver.checkpoint,
                deferred, "--checkpoint");
  verify->add_flag("--resume", ver.resume, "continue from the --checkpoint FILE (a fresh start when it does not exist yet)");
  std::string ver_ckpt_every;
  uint_option(verify, "--checkpoint-every", ver.checkpoint_seconds, ver_ckpt_every, deferred,
              "seconds between checkpoint saves (default 30)", 1, 86400);

  MergeOptions mg;
  auto* merge = app.add_subcommand("merge", "join shard reports (verify --shard I/K --json) into the single-run report");
  merge->add_option("parts", mg.parts, "the K part reports, in any order")->required();
  add_json(merge, mg.json_path, deferred, "write the merged report as JSON");
  merge->add_flag("--wide", mg.wide, "human output: every parameter, exact counts and each paper claim on the row");
  nonempty_path(verify->add_option("--model", ver.model_file, "check YOUR model-json file against --task (instead of NAME); without --task, a file with architecture layers (hyena, h3, retnet, rwkv) is checked as --task arch"),
                ver.model_file, deferred, "--model");
  nonempty_path(verify->add_option("--circuit", ver.circuit_file,
                                   "check YOUR circuit file (circuit-json, aiger, blif, bristol) against --task"),
                ver.circuit_file, deferred, "--circuit");
  nonempty_path(verify->add_option("--program", ver.program_file,
                                   "check YOUR recurrent program file (export --format program) against --task sd"),
                ver.program_file, deferred, "--program");
  nonempty_path(verify->add_option("--operator", ver.operator_file,
                                   "with --model and --task hyena|h3|retnet|rwkv: the operator your model is checked against, a model-json file "
                                   "whose one layer is that architecture layer with its weights (export NAME --format operator writes one)"),
                ver.operator_file, deferred, "--operator");
  nonempty_path(verify->add_option("--equiv-model", ver.equiv_model_file,
                                   "with --model and --method algebra: a second model-json file; proves both compute the same polynomial "
                                   "map on every input (or refutes it at a point), as circuit --equiv-model compares a circuit with a model"),
                ver.equiv_model_file, deferred, "--equiv-model");
  verify->add_option("--circuit-from", ver.circuit_from, "format of the --circuit file (default: by extension)");
  verify->add_option("--port-names", ver.port_names,
                     "a circuit file whose input and output names, by position, name the --circuit file's ports (for Bristol or unnamed AIGER)");
  verify->add_option("--task", ver.task, "the task --model/--circuit/--program is checked against (see `circuitzoo tasks`); arch: each architecture layer of a --model file against its own exact evaluation");
  verify->add_option("--method", ver.method,
                     "enumerate (default); sat: prove on every instance with a SAT solver; algebra: prove for every input in Q^(N×d) "
                     "as a polynomial identity (sim/*, primitives; contract.md)")
      ->check(CLI::IsMember({"enumerate", "sat", "algebra"}));
  // --method algebra (issue 37)
  std::vector<CLI::Option*> algebra_only;  // refused without --method algebra (issue 46 item 15), as the sat flags
  algebra_only.push_back(verify->add_option("--algebra-budget", ver.algebra_budget,
                     "--method algebra: refuse (exit 2, with the estimate) an expansion estimated above this many bytes (default 4 GiB)")
      ->check(CLI::Range(1ULL, 1ULL << 50)));
  algebra_only.push_back(verify->add_option("--algebra-route", ver.algebra_route,
                     "--method algebra: auto (expansion within the budget, else compositional where there is one), expansion, compositional")
      ->check(CLI::IsMember({"auto", "expansion", "compositional"})));
  algebra_only.push_back(verify->add_option("--algebra-symbols", ver.algebra_symbols,
                     "--method algebra: inputs (default: the input's entries are the symbols) or weights (the operator's weights too: "
                     "sim/hyena, sim/h3, sim/retnet, sim/rwkv at stack=1, proved for every weight)")
      ->check(CLI::IsMember({"inputs", "weights"})));
  deferred.add([algebra_only, &ver] {
    for (const CLI::Option* o : algebra_only)
      if (o->count()) ver.algebra_flags_given.push_back(o->get_name());
  });
  std::vector<CLI::Option*> sat_only;  // refused without --method sat (VerifyOptions::sat_flags_given)
  sat_only.push_back(verify->add_option("--timeout", ver.sat_timeout, "--method sat: wall-clock limit in seconds (default 300)")
      ->check(finite_range(kTimeoutArg)));
  sat_only.push_back(
      verify->add_flag("--confirm", ver.sat_confirm, "--method sat: re-solve every UNSAT miter with a second solver (picosat)"));
  sat_only.push_back(verify->add_option(
      "--proof", ver.sat_proof,
      "--method sat: certificates into DIR, a new directory written whole when the run proves (every miter's CNF and DRAT "
      "proof, index.json; check with `circuitzoo check-proof DIR`; with cubes too, and per shard: --shard I/K --proof DIR_I, "
      "checked together by check-proof DIR_0 ... DIR_K-1); a name ending in .drat keeps the old form: CaDiCaL's "
      "DRAT proof to FILE.drat (FILE.drat.<k> per miter, monolithic miters)"));
  sat_only.push_back(verify->add_flag("--certify", ver.sat_certify,
                                      "--method sat: check every UNSAT answer's DRAT proof with circuitzoo's own checker as it arrives"));
  sat_only.push_back(verify->add_option("--sat-split", ver.sat_split,
                     "--method sat: family (one miter per MQAR query / sorted place / output word; default), cell (per output bit) or whole")
      ->check(CLI::IsMember({"family", "cell", "whole"})));
  sat_only.push_back(verify->add_flag("--sat-cubes", ver.sat_cubes, "--method sat: split each query's miter by which earlier key it matches (cube-and-conquer)"));
  sat_only.push_back(verify->add_flag("--sat-lemmas", ver.sat_lemmas, "--method sat: each miter assumes the outputs earlier miters proved"));
  sat_only.push_back(verify->add_option("--sat-order", ver.sat_order, "--method sat: index (miters in order; default) or largest (largest first)")
      ->check(CLI::IsMember({"largest", "index"})));
  sat_only.push_back(verify->add_option("--sat-strategy", ver.sat_strategy,
                     "--method sat on circuit/sort: stages (0-1 principle, comparator by comparator; default) or monolithic (whole-circuit miters)")
      ->check(CLI::IsMember({"auto", "stages", "monolithic"})));
  sat_only.push_back(verify->add_option("--sat-zero-one", ver.sat_zero_one, "--sat-strategy stages: the 0-1 check by exhaustive (bit-sliced 2^n), sat, or auto (default)")
      ->check(CLI::IsMember({"auto", "exhaustive", "sat"})));
  sat_only.push_back(verify->add_option("--sat-blocks", ver.sat_blocks,
                     "--sat-strategy stages on mqar/dyadic: pbs blocks of 4+ queries proved call by call (calls; default) or one miter per query (queries)")
      ->check(CLI::IsMember({"calls", "queries"})));
  sat_only.push_back(verify->add_option("--sat-cnf", ver.sat_cnf, "--method sat: keep each miter's DIMACS as DIR/miter-<k>.cnf")
      ->check(CLI::ExistingDirectory));
  sat_only.push_back(verify->add_option("--sat-cube-after", ver.sat_cube_after,
                     "--method sat: split a miter that runs past S seconds into cubes (0: split every miter once first; contract.md)")
      ->check(finite_range(kCubeAfterArg)));
  sat_only.push_back(verify->add_option("--sat-cube-bits", ver.sat_cube_bits, "--method sat: variables per cube split (2^B cubes; default 4)")
      ->check(CLI::Range(1u, 12u)));
  deferred.add([sat_only, &ver] {
    for (const CLI::Option* o : sat_only)
      if (o->count()) ver.sat_flags_given.push_back(o->get_name());
  });

  Common tk;
  auto* tasks = app.add_subcommand("tasks", "list the tasks: parameters, input encoding, output decoding, domains, reference");
  tasks->add_option("name", tk.name, "one task (default: all)");
  add_json(tasks, tk.json_path, deferred, "write JSON");

  Common dv;
  auto* device = app.add_subcommand("device", "the CUDA device --device cuda would use, and the constructions with a device path");
  add_json(device, dv.json_path, deferred, "write JSON");

  StatsOptions st;
  auto* stats = app.add_subcommand("stats", "build a construction (or read --model FILE) and print its costs beside the paper's claims");
  stats->add_option("name", st.name, "construction name (or give --model)");
  nonempty_path(stats->add_option("--model", st.model_file, "a model-json file instead of NAME: its shape and parameter counts, dense and K-matrix"),
                st.model_file, deferred, "--model");
  stats->add_option("-p,--param", st.params, "KEY=VALUE parameter (repeatable)");
  add_json(stats, st.json_path, deferred, "write JSON");

  SweepOptions sw;
  auto* sweep = app.add_subcommand("sweep", "build at several parameter values; tabulate costs and fit growth");
  sweep->add_option("name", sw.name, "construction name (or \"construction\" in --config)");
  sweep->add_option("--vary", sw.vary, "KEY=V1,V2,... the parameter to vary (required, here or in --config)");
  nonempty_path(sweep->add_option("--config", sw_config,
                                  "JSON file of settings: construction, params {KEY: VALUE}, vary (\"KEY=V1,V2\" or {KEY: [V1, V2]}); "
                                  "flags on the command line win"),
                sw_config, deferred, "--config");
  sweep->add_option("-p,--param", sw.params, "KEY=VALUE fixed parameter (repeatable)");
  add_json(sweep, sw.json_path, deferred, "write the sweep as JSON");
  nonempty_path(sweep->add_option("--csv", sw.csv_path, "write one CSV row per value to PATH ('-' for stdout)"), sw.csv_path,
                deferred, "--csv");

  nonempty_path(sweep->add_option("--plot", sw.plot_path, "draw the sweep (log-log, claimed shapes, fitted exponents) to FILE.svg|png"),
                sw.plot_path, deferred, "--plot");

  ExportOptions ex;
  auto* exp = app.add_subcommand("export", "write a construction's artifact (model-json, circuit formats), or a model-json file again (--model FILE)");
  exp->add_option("name", ex.name, "construction name (or give --model)");
  nonempty_path(exp->add_option("--model", ex.model_file,
                                "a model-json file instead of NAME, written again as model-json (architecture layers kept as written), npz or safetensors"),
                ex.model_file, deferred, "--model");
  exp->add_option("-p,--param", ex.params, "KEY=VALUE parameter (repeatable)");
  exp->add_option("--format", ex.format, "model-json | models (a list of models for -p instance=k) | program (a recurrent algorithm) | operator (the architecture operator a simulation is built from, sim/* at stack=1, as a one-layer model-json file for verify --operator) | reduction (a composite reduction as its parts, -p instance=k traced) | circuit-json | dot | aiger | aiger-binary | blif | bristol | npz | safetensors")->required();
  nonempty_path(exp->add_option("-o,--output", ex.out, "output path (written atomically; '-' for stdout)")->required(), ex.out,
                deferred, "-o");

  MqarDataOptions md;
  std::string md_vocab, md_seq_len, md_kv, md_examples, md_seed;
  auto* mqd = app.add_subcommand("mqar-data", "write zoology's multiquery_ar batch (random_non_queries off by default) as two .npy files");
  // zoology's names (multiquery_ar's keywords) are accepted beside ours (issue 26 item 9).
  uint_option(mqd, "--vocab,--vocab-size", md.vocab, md_vocab, deferred, "vocabulary size (default 8192)", kVocabArg.min, kVocabArg.max);
  uint_option(mqd, "--seq-len,--input-seq-len", md.seq_len, md_seq_len, deferred, "input_seq_len N (default 64)", kSeqLenArg.min, kSeqLenArg.max);
  uint_option(mqd, "--kv,--num-kv-pairs", md.kv, md_kv, deferred, "num_kv_pairs K (default 8)", kKvArg.min, kKvArg.max);
  uint_option(mqd, "--examples,--num-examples", md.examples, md_examples, deferred, "num_examples (default 1000)", kExamplesArg.min, kExamplesArg.max);
  std::string md_rnq;
  CLI::Option* rnq = mqd->add_option("--random-non-queries", md_rnq,
                                     "true: fill non-query positions with seeded noise tokens (zoology's default True; not torch's "
                                     "draws, so only keys, values, queries and labels are zoology's); false (the default, "
                                     "also in --config and Python): zoology's batch byte for byte")
                         ->expected(0, 1)->default_str("true")->type_name("[true|false]");
  deferred.add([rnq, &md_rnq, &md] {
    if (!rnq->count()) return;
    if (md_rnq.empty() || md_rnq == "true") md.random_non_queries = true;
    else if (md_rnq == "false") md.random_non_queries = false;
    else throw cz::InputError("want true or false", "--random-non-queries " + md_rnq);
  });
  nonempty_path(mqd->add_option("--config", md_config,
                                "JSON file of settings, ours or zoology's MQARConfig names (vocab_size, input_seq_len, num_kv_pairs, "
                                "num_examples, seed, power_a, random_non_queries: default false, as here), inputs, labels"),
                md_config, deferred, "--config");
  uint_option(mqd, "--seed", md.seed, md_seed, deferred, "data seed, below 2^32 (default 0)", kDataSeedArg.min, kDataSeedArg.max);
  mqd->add_option("--power-a", md.power_a, "power-law exponent of the query gaps (default 0.01)");
  nonempty_path(mqd->add_option("--inputs", md.inputs, "inputs .npy path (int64, shape (examples, N)); required, here or in --config"),
                md.inputs, deferred, "--inputs");
  nonempty_path(mqd->add_option("--labels", md.labels, "labels .npy path (int64, -100 where not scored); required, here or in --config"),
                md.labels, deferred, "--labels");

  EvalOptions ev;
  auto* evl = app.add_subcommand("eval", "evaluate a saved model exactly on an input file");
  evl->add_option("--model", ev.model, "model-json file")->required();
  evl->add_option("--input", ev.input, "input file {\"input\": [[...]]} ('-' for standard input)")->required();
  add_json(evl, ev.json_path, deferred, "write the output (default: stdout)");

  CircuitOptions co;
  std::string co_threads, co_samples, co_seed;
  auto* circ = app.add_subcommand(
      "circuit", "read a circuit file: stats, convert (--to), evaluate (--eval), check equivalence (--equiv, --equiv-model)");
  circ->add_option("file", co.file, "circuit file")->required();
  circ->add_option("--from", co.from, "its format (default: by extension .json .dot .aag .aig .blif .bristol)");
  circ->add_option("--to", co.to, "write it in this format (with -o)");
  nonempty_path(circ->add_option("-o,--output", co.out, "output path for --to (written atomically; '-' for stdout)"), co.out,
                deferred, "-o");
  circ->add_option("--equiv", co.equiv, "compare with this circuit file on every 0/1 input (exit 1 on a counterexample)");
  circ->add_option("--equiv-from", co.equiv_from, "format of the --equiv file (default: by extension)");
  nonempty_path(circ->add_option("--eval", co.eval_input,
                                 "evaluate exactly on INPUT.json ({\"input\": [v, ...]} in input order, or [[...]] rows for u[i][j] inputs); "
                                 "prints {\"outputs\": {name: value}, \"output\": [[...]] when named y[i][j]}"),
                co.eval_input, deferred, "--eval");
  nonempty_path(circ->add_option("--equiv-model", co.equiv_model,
                                 "compare with a model-json file on every 0/1 input (inputs u[i][j], outputs y[i][j]; exit 1 on a counterexample)"),
                co.equiv_model, deferred, "--equiv-model");
  add_json(circ, co.json_path, deferred, "write stats (and the equivalence verdict) as JSON");
  uint_option(circ, "--threads", co.threads, co_threads, deferred,
              "worker threads for --equiv (default or 0: all cores; at most " + std::to_string(cz::kMaxThreads) + ")", 0,
              cz::kMaxThreads);
  uint_option(circ, "--samples", co.samples, co_samples, deferred,
              "--equiv by K random samples instead of every 0/1 input (0/1 words for all-Bit circuits, else points of a "
              "random ~61-bit prime field with the Schwartz-Zippel bound)",
              1, kI64Max);
  uint_option(circ, "--seed", co.seed, co_seed, deferred, "seed of --samples (default 1)", 0, kU64Max);
  circ->add_option("--method", co.method,
                   "--equiv by: auto (every 0/1 input up to 32 inputs, SAT beyond or with --certify), enumerate, or sat (one strashed "
                   "AIG of both, then SAT sweeping with CaDiCaL: a proof on every input, or a witness checked on both files)")
      ->check(CLI::IsMember({"auto", "enumerate", "sat"}));
  circ->add_flag("--certify", co.certify, "--equiv by SAT: check each UNSAT answer's DRAT proof as it arrives (our checker)");
  nonempty_path(circ->add_option("--proof", co.proof,
                                 "--equiv by SAT: keep every solver answer in a new directory DIR (CNFs, DRAT proofs, index.json naming both "
                                 "files by path and SHA-256; written only when proved); check with `circuitzoo check-proof DIR`"),
                co.proof, deferred, "--proof");
  circ->add_option("--timeout", co.timeout_s, "--equiv by SAT: wall-clock seconds for the whole sweep (default 300; undecided: exit 4)")
      ->check(finite_range(kTimeoutArg));

  ProveOptions pr;
  std::string pr_seed;
  auto* prove = app.add_subcommand("prove", "run the proofs-checks: lemmas checked exactly at small sizes");
  prove->add_option("name", pr.name, "check name (see --all)");
  prove->add_flag("--all", pr.all, "every check");
  prove->add_flag("--fast", pr.fast, "the smallest domains");
  uint_option(prove, "--seed", pr.seed, pr_seed, deferred, "seed of the random models (default 1)", 0, kU64Max);
  add_json(prove, pr.json_path, deferred, "write the verdicts as JSON");

  CheckProofOptions cpo;
  auto* chk = app.add_subcommand("check-proof", "check a --proof DIR (of verify --method sat, or circuit --equiv) offline: re-encode every miter, "
                                                 "compare hashes, check each DRAT proof with circuitzoo's own checker");
  chk->add_option("dir", cpo.dirs, "the certificate directory (a sharded run: every shard's, DIR_0 ... DIR_{K-1})")->required();
  chk->add_option("--threads", cpo.threads, "checks at once (0: all cores)");
  chk->add_option("--circuits", cpo.circuits,
                  "FIRST SECOND: where the two files of a `circuit A --equiv B --proof DIR` run are now (default: the paths its index "
                  "records; each must have the SHA-256 recorded)")
      ->expected(2);
  add_json(chk, cpo.json_path, deferred, "write the verdicts as JSON");

  ClaimsOptions cl;
  auto* claims = app.add_subcommand("claims", "the claims ledger: every claim of the papers (Zoology, Based, JRT) and of the constructions, with a computed status");
  claims->add_flag("--fast", cl.fast, "small domains (within a minute)");
  add_json(claims, cl.json_path, deferred, "write the ledger as JSON");
  // `--markdown [PATH|-]` etc.: no value prints to stdout (the old flags); a PATH writes a file,
  // so one run can write every rendering (the ledger is computed once).
  auto rendering = [&](const char* flag, std::string& path, bool& on, const std::string& help) {
    CLI::Option* o = claims->add_option(flag, path, help + " (PATH, '-' or no value: stdout)")->expected(0, 1)->default_str("-")->type_name("[PATH|-]");
    deferred.add([o, &path, &on, flag] {
      if (!o->count()) return;
      if (path.empty()) throw cz::InputError("empty output path", std::string(flag) + " \"\"");
      on = true;
    });
  };
  rendering("--markdown", cl.markdown_path, cl.markdown, "the ledger as a Markdown table");
  rendering("--latex", cl.latex_path, cl.latex, "the ledger as a LaTeX table");
  rendering("--errata", cl.errata_path, cl.errata, "the errata list (the papers' errors E1, E2, ... of docs/theory.md \"Errata\", and the tool's findings)");
  nonempty_path(claims->add_option("--plot", cl.plot_path, "draw the asymptotic rows against their claimed shapes to FILE.svg|png"),
                cl.plot_path, deferred, "--plot");

  // An unknown subcommand is named (CLI11 would only say that an argument was not expected).
  if (argc >= 2 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    for (const auto* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      known |= sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::cerr << "error: unknown subcommand '" << cz::quoted_value(argv[1]) << "' (want " << names << ") (command line)\n";
      return 2;
    }
  }

  // Timings live under one `timing` key; --no-timing drops it so that the same command and seed
  // give byte-identical output on any thread count (contract.md).
  bool no_timing = false;
  for (auto* sub : {verify, stats, sweep, prove, claims, merge})
    sub->add_flag("--no-timing", no_timing, "leave out the `timing` key (byte-identical output for the same seed)");

  // Every subcommand: `--max-memory SIZE` (issue 9) replaces the default budget (half of physical
  // RAM) against which constructions, readers and writers check their estimates before allocating.
  std::string max_memory;
  std::vector<CLI::Option*> max_memory_opts;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    max_memory_opts.push_back(sub->add_option(
        "--max-memory", max_memory,
        "refuse (exit 2) work estimated to need more memory than SIZE, e.g. 512M or 4G (default: half of physical RAM)"));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << cz::printable_within(e.what(), 360) << " (command line)\n";
    return 2;
  }
  if (no_timing) cz::set_timing_enabled(false);
  try {
    deferred.run();
    // --config FILE (config_file.h): the file's settings where the command line gave none.
    if (!ver_config.empty()) apply_verify_config(ver_config, ver, given_flags(verify));
    if (!sw_config.empty()) apply_sweep_config(sw_config, sw, given_flags(sweep));
    if (!md_config.empty()) apply_mqar_data_config(md_config, md, given_flags(mqd));
    for (CLI::Option* o : max_memory_opts)
      if (o->count()) cz::set_memory_budget(cz::parse_memory_size(max_memory, "--max-memory"));
    // Under mpirun (issue 13) verify and sweep spread their work over the ranks; any other command
    // runs on rank 0 alone.
    if (cz::Cluster::rank() != 0 && !*verify && !*sweep) return 0;
    if (*list) return cmd_list(list_o);
    if (*tasks) return cmd_tasks(tk);
    if (*device) return cmd_device(dv);
    if (*verify) return cmd_verify(ver);
    if (*merge) return cmd_merge(mg);
    if (*stats) return cmd_stats(st);
    if (*exp) return cmd_export(ex);
    if (*sweep) return cmd_sweep(sw);
    if (*evl) return cmd_eval(ev);
    if (*mqd) return cmd_mqar_data(md);
    if (*circ) return cmd_circuit(co);
    if (*prove) return cmd_prove(pr);
    if (*claims) return cmd_claims(cl);
    if (*chk) return cmd_check_proof(cpo);
  } catch (const cz::InputError& e) {
    // At most ~390 bytes whatever the message quoted (issue 36 item 14; sources cut their values
    // with util/text.h quoted_value, this guards the ones that do not).
    if (cz::Cluster::rank() == 0)
      std::cerr << "error: " << cz::printable_within(e.what(), 280) << " (" << cz::printable_within(e.where, 96) << ")\n";
    return 2;
  } catch (const std::exception& e) {
    if (cz::Cluster::active()) {  // a rank cannot go on: end them all (never a partial verdict)
      std::cerr << "error: rank " << cz::Cluster::rank() << ": " << one_line(e.what()) << " (internal)\n";
      cz::Cluster::abort(3);
    }
    std::cerr << "error: " << cz::printable_within(e.what(), 360) << " (internal)\n";
    return 3;
  }
  return 0;
}

int main(int argc, char** argv) {
  cz::Cluster::init(&argc, &argv);  // MPI, when launched by mpirun/srun (app/engine/run/cluster.h)
  const int rc = run_main(argc, argv);
  cz::Cluster::finalize();
  return rc;
}
