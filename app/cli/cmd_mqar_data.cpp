// `circuitzoo mqar-data`: zoology's MQAR batch for a data seed, reproduced exactly
// (tasks/zoology.h; random_non_queries off), written as inputs/labels int64 .npy files that
// Python reads with numpy.load and `verify NAME --from-npy` reads back.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "app/cli/commands.h"
#include "tasks/zoology.h"
#include "util/error.h"

namespace cz::cli {

int cmd_mqar_data(const MqarDataOptions& o) {
  if (o.seed > 0xffffffffULL) throw InputError("the data seed must be below 2^32 (numpy's legacy seeding)", "--seed");
  if (o.examples == 0) throw InputError("--examples must be positive", "--examples");
  if (o.inputs == o.labels) throw InputError("inputs and labels need two different paths", "--labels " + o.labels);
  check_outputs({{"--inputs", o.inputs}, {"--labels", o.labels}});  // also ./x.npy vs x.npy, links: one file
  char* end = nullptr;
  errno = 0;
  const double a = std::strtod(o.power_a.c_str(), &end);
  if (o.power_a.empty() || *end || errno == ERANGE || !std::isfinite(a) || !(a > 0))
    throw InputError("--power-a must be a finite positive number", "--power-a " + o.power_a);
  zoology::MqarConfig cfg;
  cfg.vocab_size = o.vocab;
  cfg.input_seq_len = o.seq_len;
  cfg.num_kv_pairs = o.kv;
  cfg.num_examples = o.examples;
  cfg.seed = static_cast<std::uint32_t>(o.seed);
  cfg.power_a = a;
  zoology::Batch b;
  try {
    b = zoology::multiquery_ar(cfg);  // InputError on zoology's asserts (and numpy's), before any file is written
  } catch (const InputError& e) {
    if (e.where.rfind("zoology multiquery_ar: power_a", 0) == 0) throw InputError(e.what(), "--power-a " + o.power_a);
    throw;
  }
  zoology::write_npy_pair(b, o.inputs, o.labels);  // both files or neither
  std::cerr << "wrote " << b.rows << " examples of length " << b.cols << " to " << o.inputs << " and " << o.labels << "\n";
  return 0;
}

}  // namespace cz::cli
