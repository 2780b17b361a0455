// zoology's MQAR batches (HazyResearch/zoology, zoology/data/multiquery_ar.py; the layout and the
// generator are described exactly in ../shared/notes/zoology-peer.md §1).
//  - NumpyLegacyRng: the parts of numpy's legacy RandomState that the generator uses (MT19937
//    seeded by init_genrand, Fisher-Yates permutation with masked rejection, 53-bit doubles).
//  - multiquery_ar(): reproduces zoology's `multiquery_ar(..., random_non_queries=False)` for a
//    given seed (num_passes = 1). Step 11 (noise at filler positions) draws from torch's global
//    generator, which the data seed does not determine, so it is not reproduced.
//  - Batch <-> mqar::Instance (zoology layout) and the two-.npy interchange (inputs, labels).
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tasks/mqar.h"
#include "tasks/npy.h"

namespace cz::zoology {

class NumpyLegacyRng {
 public:
  explicit NumpyLegacyRng(std::uint32_t seed) : mt_(seed) {}  // np.random.seed(s), s < 2^32
  std::uint32_t next32() { return static_cast<std::uint32_t>(mt_()); }
  std::uint64_t interval(std::uint64_t max);                 // numpy random_interval: uniform in [0, max]
  double next_double();                                      // random_sample(): 53-bit double in [0, 1)
  std::vector<std::int64_t> permutation(std::size_t n);      // permutation(n): shuffle of arange(n)

 private:
  std::mt19937 mt_;
};

// numpy's pairwise summation of float64 (what `p.sum()` computes).
double numpy_pairwise_sum(const double* a, std::size_t n);

struct MqarConfig {
  std::size_t vocab_size = 8192, num_examples = 1000, input_seq_len = 64, num_kv_pairs = 8;
  std::uint32_t seed = 0;
  double power_a = 0.01;
  // zoology's default is True; ours is false so that the batch is zoology's byte for byte. When
  // true, the fillers are noise from circuitzoo's own seeded stream (not torch's: see zoology.cpp).
  bool random_non_queries = false;
};

struct Batch {
  std::size_t rows = 0, cols = 0;             // (examples, N)
  std::vector<std::int64_t> inputs, labels;   // row-major; labels -100 where not scored
  std::int64_t input(std::size_t r, std::size_t p) const { return inputs[r * cols + p]; }
  std::int64_t label(std::size_t r, std::size_t p) const { return labels[r * cols + p]; }
};

// zoology's generator with random_non_queries=False. Throws InputError when zoology's asserts
// (N even, vocab > N, 4K <= N) fail.
Batch multiquery_ar(const MqarConfig& cfg);

// Row r as a zoology-layout instance over vocabulary c: K pairs at rows 2j, 2j+1, queries at the
// labelled positions. K = `kv` when given, else the number of labelled positions in the row
// (zoology queries every key exactly once). Throws InputError (where = `where`) when a token is
// outside [0, c) or a label sits inside the context.
mqar::Instance instance_from_row(const Batch& b, std::size_t r, std::size_t c, std::optional<std::size_t> kv,
                                 const std::string& where = "zoology batch");
// Zoology-layout instances -> a batch; labels are the reference answers at the query rows (-100
// where a query has no answer and at every other row). All instances must share N.
Batch batch_from_instances(const std::vector<mqar::Instance>& xs);

// The two-file interchange: inputs.npy and labels.npy, int64, shape (examples, N).
Batch read_npy_pair(const std::string& inputs_path, const std::string& labels_path);
void write_npy_pair(const Batch& b, const std::string& inputs_path, const std::string& labels_path);

}  // namespace cz::zoology
