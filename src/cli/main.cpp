// circuitzoo: the command-line front door (contract.md). The only file that includes CLI11.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "report/report_json.h"
#include "util/error.h"
#include "util/memory_budget.h"

int main(int argc, char** argv) {
  using namespace cz::cli;
  CLI::App app{"circuitzoo: exact, checkable BaseConv / arithmetic-circuit constructions (Zoology, Based, JRT)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", cz::kVersion);

  Common list_o;
  auto* list = app.add_subcommand("list", "list registered constructions and their parameters");
  list->add_option("--json", list_o.json_path, "write JSON to PATH ('-' for stdout)");

  VerifyOptions ver;
  auto* verify = app.add_subcommand("verify", "verify a construction exhaustively or on seeded samples");
  verify->add_option("name", ver.name, "construction name (see list)");
  verify->add_flag("--all", ver.all, "every construction at its small defaults");
  verify->add_option("-p,--param", ver.params, "KEY=VALUE parameter (repeatable)");
  verify->add_flag("--exhaustive", ver.exhaustive, "force an exhaustive domain");
  verify->add_option("--samples", ver.samples, "force a sampled domain of K instances");
  verify->add_option("--seed", ver.seed, "seed of sampled domains (default 1)");
  verify->add_option("--threads", ver.threads, "worker threads (default: all cores)");
  verify->add_option("--device", ver.device, "cpu | cuda | auto (default cpu)");
  verify->add_option("--json", ver.json_path, "write the report as JSON to PATH ('-' for stdout)");
  verify->add_option("--from-npy", ver.from_npy, "INPUTS.npy LABELS.npy: check an MQAR construction on a zoology batch")
      ->expected(2);

  Common st;
  auto* stats = app.add_subcommand("stats", "build a construction and print its costs beside the paper's claims");
  stats->add_option("name", st.name, "construction name")->required();
  stats->add_option("-p,--param", st.params, "KEY=VALUE parameter (repeatable)");
  stats->add_option("--json", st.json_path, "write JSON to PATH ('-' for stdout)");

  SweepOptions sw;
  auto* sweep = app.add_subcommand("sweep", "build at several parameter values; tabulate costs and fit growth");
  sweep->add_option("name", sw.name, "construction name")->required();
  sweep->add_option("--vary", sw.vary, "KEY=V1,V2,... the parameter to vary")->required();
  sweep->add_option("-p,--param", sw.params, "KEY=VALUE fixed parameter (repeatable)");
  sweep->add_option("--json", sw.json_path, "write the sweep as JSON to PATH ('-' for stdout)");
  sweep->add_option("--csv", sw.csv_path, "write one CSV row per value to PATH");

  ExportOptions ex;
  auto* exp = app.add_subcommand("export", "write a construction's artifact (model-json, circuit formats)");
  exp->add_option("name", ex.name, "construction name")->required();
  exp->add_option("-p,--param", ex.params, "KEY=VALUE parameter (repeatable)");
  exp->add_option("--format", ex.format, "model-json | circuit-json | dot | aiger | aiger-binary | blif | bristol")->required();
  exp->add_option("-o,--output", ex.out, "output path (written atomically)")->required();

  MqarDataOptions md;
  auto* mqd = app.add_subcommand("mqar-data", "write zoology's multiquery_ar batch (random_non_queries off) as two .npy files");
  mqd->add_option("--vocab", md.vocab, "vocabulary size (default 8192)");
  mqd->add_option("--seq-len", md.seq_len, "input_seq_len N (default 64)");
  mqd->add_option("--kv", md.kv, "num_kv_pairs K (default 8)");
  mqd->add_option("--examples", md.examples, "num_examples (default 1000)");
  mqd->add_option("--seed", md.seed, "data seed, below 2^32 (default 0)");
  mqd->add_option("--power-a", md.power_a, "power-law exponent of the query gaps (default 0.01)");
  mqd->add_option("--inputs", md.inputs, "inputs .npy path (int64, shape (examples, N))")->required();
  mqd->add_option("--labels", md.labels, "labels .npy path (int64, -100 where not scored)")->required();

  EvalOptions ev;
  auto* evl = app.add_subcommand("eval", "evaluate a saved model exactly on an input file");
  evl->add_option("--model", ev.model, "model-json file")->required();
  evl->add_option("--input", ev.input, "input file {\"input\": [[...]]}")->required();
  evl->add_option("--json", ev.json_path, "write the output to PATH ('-' or omitted: stdout)");

  CircuitOptions co;
  auto* circ = app.add_subcommand("circuit", "read a circuit file: stats, convert (--to), check equivalence (--equiv)");
  circ->add_option("file", co.file, "circuit file")->required();
  circ->add_option("--from", co.from, "its format (default: by extension .json .dot .aag .aig .blif .bristol)");
  circ->add_option("--to", co.to, "write it in this format (with -o)");
  circ->add_option("-o,--output", co.out, "output path for --to (written atomically)");
  circ->add_option("--equiv", co.equiv, "compare with this circuit file on every 0/1 input (exit 1 on a counterexample)");
  circ->add_option("--equiv-from", co.equiv_from, "format of the --equiv file (default: by extension)");
  circ->add_option("--json", co.json_path, "write stats (and the equivalence verdict) as JSON to PATH ('-' for stdout)");
  circ->add_option("--threads", co.threads, "worker threads for --equiv (default: all cores)");

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
    std::cerr << "error: " << e.what() << " (command line)\n";
    return 2;
  }
  try {
    for (CLI::Option* o : max_memory_opts)
      if (o->count()) cz::set_memory_budget(cz::parse_memory_size(max_memory, "--max-memory"));
    if (*list) return cmd_list(list_o);
    if (*verify) return cmd_verify(ver);
    if (*stats) return cmd_stats(st);
    if (*exp) return cmd_export(ex);
    if (*sweep) return cmd_sweep(sw);
    if (*evl) return cmd_eval(ev);
    if (*mqd) return cmd_mqar_data(md);
    if (*circ) return cmd_circuit(co);
  } catch (const cz::InputError& e) {
    std::cerr << "error: " << e.what() << " (" << e.where << ")\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << " (internal)\n";
    return 3;
  }
  return 0;
}
