// The MQAR task's parameters and the verification domain for given options (spec §6), shared by
// the MQAR constructions (constructions/mqar) and the task registry (verify/task.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tasks/mqar.h"
#include "tasks/mqar_domain.h"
#include "verify/construction.h"

namespace cz::mqar {

// layout, n, c, N, kv, power_a, instance (see the help strings).
std::vector<ParamSpec> task_params();

struct TaskShape {
  mqar::Layout layout = mqar::Layout::Triples;
  std::size_t n = 0;   // triples: number of triples (N = 3n)
  std::size_t N = 0;   // sequence length
  std::size_t K = 0;   // zoology: pairs; triples: n
  std::size_t c = 0;   // vocabulary (one-hot width)
  double power_a = 0.01;
  std::int64_t instance = -1;  // reported instance: -1 = worst case, else an index (see reported_instance)
};
// Resolves c = 0 (auto: triples c = n, the fewest tokens with distinct keys; zoology c = N + 2,
// the smallest even vocabulary zoology accepts) and checks the layout's preconditions.
TaskShape task_shape(const Params& p);

// The verification domain: triples exhaustive when it has <= 2^21 instances (or --exhaustive),
// else 1000 seeded samples (or --samples K); zoology: zoology's generator with --seed as its data
// seed, 1000 examples unless --samples.
mqar::Domain domain_for(const TaskShape& s, const DomainOptions& o);

// The task's token code (`-p encoding=onehot|binary|phot`, `-p p=` digits) for a user's file
// (verify --model/--circuit --task mqar; defined with the task in verify/task_mqar.cpp).
mqar::Codec task_codec(const Params& p, const TaskShape& s);

// An instance with the most distinct query-key distances the layout allows (triples: n-1, every
// q_i = k_0; zoology: K, key K-1-j queried at row 2K+2j), so that a data-dependent model built
// for it has the domain's largest width.
mqar::Instance worst_case_instance(const TaskShape& s);
// The instance a data-dependent model is reported and exported for: -p instance=-1 gives the worst
// case; k >= 0 gives triples instance k of the exhaustive order, or the single example of
// zoology's generator with data seed k.
mqar::Instance reported_instance(const TaskShape& s);
std::string reported_instance_text(const TaskShape& s);

}  // namespace cz::mqar
