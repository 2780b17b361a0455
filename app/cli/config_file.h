// `--config FILE` for verify, sweep and mqar-data (issue 26 item 9): the command's parameters in a
// JSON object, so that a zoology user can keep one file per experiment. Flags given on the
// command line win over the file; -p values from both are merged (the command line's win per
// key). JSON, not YAML: every reader of the tool is JSON already (depth-limited, model_json.h),
// and a YAML library (libyaml-cpp) would be a new dependency for one flag; `python3 -c 'import
// yaml, json, sys; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)' cfg.yaml` converts.
// The keys are in docs/contract.md ("--config FILE"); an unknown key is refused with the closest
// known one.
#pragma once
#include <set>
#include <string>

#include "app/cli/commands.h"

namespace cz::cli {

// cli_flags: the long names of the options given on the command line ("--samples", "-p", ...).
void apply_verify_config(const std::string& path, VerifyOptions& o, const std::set<std::string>& cli_flags);
void apply_sweep_config(const std::string& path, SweepOptions& o, const std::set<std::string>& cli_flags);
// mqar-data: our names or zoology's (vocab_size, input_seq_len, num_kv_pairs, num_examples,
// random_non_queries; zoology's MQARConfig `name` and `include_slices` are accepted and ignored).
// random_non_queries defaults to false everywhere (command line, config file, Python); a file that
// states it (every zoology MQARConfig dump does) keeps its value.
void apply_mqar_data_config(const std::string& path, MqarDataOptions& o, const std::set<std::string>& cli_flags);

}  // namespace cz::cli
