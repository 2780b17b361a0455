// Domains of MQAR instances: an exhaustive enumerator of the triples layout with distinct keys,
// seeded samplers, zoology's own generator, and fixed lists (e.g. an imported .npy batch). A
// domain maps an index k in [0, count) to an instance, depending only on k (and the seed), so
// the verification engine may run it on any number of threads with identical results.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tasks/mqar.h"
#include "tasks/zoology.h"

namespace cz::mqar {

struct Domain {
  bool exhaustive = false;
  std::uint64_t count = 0;
  std::string description;
  std::vector<std::string> preconditions;
  std::function<Instance(std::uint64_t)> instance;
  // Set by triples_exhaustive (and triples_sampled): the triples shape, so that batched checks can
  // unrank blocks of instances straight into arrays (tasks/mqar_block.h) instead of calling
  // instance(k). 0 for other domains.
  std::size_t triples_n = 0, triples_c = 0;
  std::uint64_t triples_seed = 0;  // triples_sampled: its seed (the device draws the same instances)
};

// Number of triples instances with n triples over c tokens and distinct keys:
// P(c, n) * c^n * c^n (keys injective; values and queries free; q_0 is enumerated although it
// never has an answer). Throws InputError when it exceeds 2^62 or when c < n.
std::uint64_t triples_count(std::size_t n, std::size_t c);
// The k-th instance in the exhaustive order: keys (lexicographic injective sequences) are the
// slowest digit, then values, then queries (base-c digits, position 0 most significant).
Instance triples_instance(std::size_t n, std::size_t c, std::uint64_t k);
Domain triples_exhaustive(std::size_t n, std::size_t c);
// Seeded sampling (util/seeded.h InstanceRng(seed, k)): keys distinct and uniform; values
// uniform; query i >= 1 is, with probability 1/2, a uniform earlier key, with probability 1/4 its
// own triple's key (the E5 trap), else a uniform token; q_0 is uniform.
Instance triples_sample(std::size_t n, std::size_t c, std::uint64_t seed, std::uint64_t k);
Domain triples_sampled(std::size_t n, std::size_t c, std::uint64_t count, std::uint64_t seed);
// zoology's generator (random_non_queries off, num_passes 1) with `seed` as its data seed:
// instance k is row k of multiquery_ar(vocab=c, examples=count, N, seed, power_a, K).
Domain zoology_sampled(std::size_t N, std::size_t K, std::size_t c, double power_a, std::uint64_t count,
                       std::uint32_t seed);
// A fixed list (shared, read-only).
Domain from_list(std::shared_ptr<const std::vector<Instance>> xs, std::string description);

}  // namespace cz::mqar
