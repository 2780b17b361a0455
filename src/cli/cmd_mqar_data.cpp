// `circuitzoo mqar-data`: zoology's MQAR batch for a data seed, reproduced exactly
// (tasks/zoology.h; random_non_queries off), written as inputs/labels int64 .npy files that
// Python reads with numpy.load and `verify NAME --from-npy` reads back.
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "tasks/zoology.h"
#include "util/error.h"

namespace cz::cli {

int cmd_mqar_data(const MqarDataOptions& o) {
  if (o.seed > 0xffffffffULL) throw InputError("the data seed must be below 2^32 (numpy's legacy seeding)", "--seed");
  if (o.examples == 0) throw InputError("--examples must be positive", "--examples");
  if (o.inputs == o.labels) throw InputError("inputs and labels need two different paths", "--labels");
  char* end = nullptr;
  const double a = std::strtod(o.power_a.c_str(), &end);
  if (o.power_a.empty() || *end || !(a > 0)) throw InputError("--power-a must be a positive number", "--power-a");
  zoology::MqarConfig cfg;
  cfg.vocab_size = o.vocab;
  cfg.input_seq_len = o.seq_len;
  cfg.num_kv_pairs = o.kv;
  cfg.num_examples = o.examples;
  cfg.seed = static_cast<std::uint32_t>(o.seed);
  cfg.power_a = a;
  zoology::Batch b = zoology::multiquery_ar(cfg);  // InputError on zoology's asserts, before any file is written
  zoology::write_npy_pair(b, o.inputs, o.labels);
  std::cerr << "wrote " << b.rows << " examples of length " << b.cols << " to " << o.inputs << " and " << o.labels << "\n";
  return 0;
}

}  // namespace cz::cli
