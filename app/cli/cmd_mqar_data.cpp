// `circuitzoo mqar-data`: zoology's MQAR batch for a data seed, reproduced exactly
// (tasks/zoology.h; random_non_queries off unless asked), written as inputs/labels int64 .npy files that
// Python reads with numpy.load and `verify NAME --from-npy` reads back.
#include <iostream>

#include "app/cli/arg_checks.h"
#include "app/cli/commands.h"
#include "tasks/zoology.h"
#include "util/error.h"

namespace cz::cli {

int cmd_mqar_data(const MqarDataOptions& o) {
  // The numbers were range-checked as flags (main.cpp, with arg_checks.h's bounds, as the Python module is).
  if (o.inputs.empty() || o.labels.empty())
    throw InputError("--inputs and --labels are required (or \"inputs\" and \"labels\" in --config)", "mqar-data");
  if (o.inputs == o.labels) throw InputError("inputs and labels need two different paths", "--labels " + o.labels);
  check_outputs({{"--inputs", o.inputs}, {"--labels", o.labels}});  // also ./x.npy vs x.npy, links: one file
  zoology::MqarConfig cfg;
  cfg.vocab_size = o.vocab;
  cfg.input_seq_len = o.seq_len;
  cfg.num_kv_pairs = o.kv;
  cfg.num_examples = o.examples;
  cfg.seed = static_cast<std::uint32_t>(o.seed);
  cfg.power_a = parse_power_a(o.power_a, ArgNames::Cli);
  cfg.random_non_queries = o.random_non_queries;
  const zoology::Batch b = mqar_batch(cfg, o.power_a, ArgNames::Cli);  // before any file is written
  zoology::write_npy_pair(b, o.inputs, o.labels);  // both files or neither
  std::cerr << "wrote " << b.rows << " examples of length " << b.cols << " to " << o.inputs << " and " << o.labels
            << (o.random_non_queries ? " (random_non_queries: seeded noise at the non-query positions)" : "") << "\n";
  return 0;
}

}  // namespace cz::cli
