// Blocks of MQAR triples instances as flat arrays (structure of arrays), for the batched checks
// (verify/construction.h BlockWorker): lane t of a block is instance k0 + t, and
//   tok[p * cap + t]  = token at row p (rows 3i, 3i+1, 3i+2 = key, value, query of triple i),
//   ans[i * cap + t]  = the reference answer of query i (-1 = null).
// Exhaustive domains are unranked with an odometer (queries fastest, then values, then the key
// permutation; the order of mqar::triples_instance), without per-instance containers; any other
// triples domain goes through Domain::instance (sampled domains are small).
// reference_block() is Zoology Alg. 9 on the arrays: for query i, the value of the LAST j < i
// whose key equals q_i (insert_or_assign order of tasks/mqar_reference.h; with distinct keys at
// most one j matches). It reads tokens only, never construction code.
#pragma once
#include <cstdint>
#include <vector>

#include "tasks/mqar_domain.h"

namespace cz::mqar {

struct TriplesBlock {
  std::size_t n = 0, N = 0, cap = 0, count = 0;
  std::vector<std::int32_t> tok, ans;
  void reserve(std::size_t n_triples, std::size_t lanes);  // sizes the arrays once
  std::int32_t token(std::size_t p, std::size_t t) const { return tok[p * cap + t]; }
};

// Fills lanes [0, count) with instances k0 .. k0+count-1 of a triples domain (count <= cap) and
// computes their reference answers. Throws std::invalid_argument for a non-triples domain.
class TriplesUnranker {
 public:
  explicit TriplesUnranker(const Domain& d);
  void fill(std::uint64_t k0, std::size_t count, TriplesBlock& b);

 private:
  const Domain* dom_;
  std::size_t n_, c_;
  bool exhaustive_;
  std::vector<std::int64_t> pool_;
  std::vector<std::int32_t> keys_, vals_, qs_;
  std::uint64_t key_rank_ = ~std::uint64_t{0};
};

void reference_block(TriplesBlock& b);

}  // namespace cz::mqar
