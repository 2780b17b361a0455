#include "tasks/mqar_block.h"

#include <stdexcept>

namespace cz::mqar {

void TriplesBlock::reserve(std::size_t n_triples, std::size_t lanes) {
  n = n_triples;
  N = 3 * n_triples;
  cap = lanes;
  tok.assign(N * cap, 0);
  ans.assign(n * cap, -1);
}

TriplesUnranker::TriplesUnranker(const Domain& d)
    : dom_(&d), n_(d.triples_n), c_(d.triples_c), exhaustive_(d.exhaustive) {
  if (!n_) throw std::invalid_argument("TriplesUnranker: not a triples domain");
  pool_.resize(c_);
  keys_.resize(n_);
  vals_.resize(n_);
  qs_.resize(n_);
}

namespace {
std::uint64_t falling(std::size_t c, std::size_t n) {  // P(c, n); the domain's count already fits
  std::uint64_t r = 1;
  for (std::size_t i = 0; i < n; ++i) r *= (c - i);
  return r;
}
}  // namespace

void TriplesUnranker::fill(std::uint64_t k0, std::size_t count, TriplesBlock& b) {
  if (b.n != n_ || count > b.cap) throw std::invalid_argument("TriplesUnranker::fill: block shape");
  b.count = count;
  const std::size_t cap = b.cap;
  if (!exhaustive_) {
    for (std::size_t t = 0; t < count; ++t) {
      const Instance x = dom_->instance(k0 + t);
      for (std::size_t p = 0; p < b.N; ++p) b.tok[p * cap + t] = static_cast<std::int32_t>(x.tokens[p]);
    }
    reference_block(b);
    return;
  }
  std::uint64_t cn = 1;
  for (std::size_t i = 0; i < n_; ++i) cn *= c_;
  std::uint64_t qi = k0 % cn, rest = k0 / cn;
  std::uint64_t vi = rest % cn, ki = rest / cn;
  const auto c32 = static_cast<std::int32_t>(c_);
  for (std::size_t i = n_; i-- > 0;) {
    qs_[i] = static_cast<std::int32_t>(qi % c_);
    qi /= c_;
    vals_[i] = static_cast<std::int32_t>(vi % c_);
    vi /= c_;
  }
  auto set_keys = [&](std::uint64_t rank) {  // the order of triples_instance: lexicographic injections
    for (std::size_t t = 0; t < c_; ++t) pool_[t] = static_cast<std::int64_t>(t);
    std::size_t left = c_;
    for (std::size_t i = 0; i < n_; ++i) {
      const std::uint64_t block = falling(c_ - i - 1, n_ - i - 1);
      const std::size_t idx = static_cast<std::size_t>(rank / block);
      rank %= block;
      keys_[i] = static_cast<std::int32_t>(pool_[idx]);
      for (std::size_t j = idx; j + 1 < left; ++j) pool_[j] = pool_[j + 1];
      --left;
    }
  };
  // keys_ holds the injection of rank key_rank_; recomputed lazily, since the rank after the last
  // lane may lie past the domain's end.
  std::uint64_t rank = ki;
  for (std::size_t t = 0; t < count; ++t) {
    if (rank != key_rank_) set_keys(key_rank_ = rank);
    std::int32_t* col = b.tok.data() + t;
    for (std::size_t i = 0; i < n_; ++i) {
      col[(3 * i) * cap] = keys_[i];
      col[(3 * i + 1) * cap] = vals_[i];
      col[(3 * i + 2) * cap] = qs_[i];
    }
    // odometer: queries (position n-1 least significant), then values, then the key rank
    std::size_t i = n_;
    while (i-- > 0 && ++qs_[i] == c32) qs_[i] = 0;
    if (i != static_cast<std::size_t>(-1)) continue;
    i = n_;
    while (i-- > 0 && ++vals_[i] == c32) vals_[i] = 0;
    if (i != static_cast<std::size_t>(-1)) continue;
    ++rank;
  }
  reference_block(b);
}

void reference_block(TriplesBlock& b) {
  const std::size_t cap = b.cap, cnt = b.count;
  for (std::size_t i = 0; i < b.n; ++i) {
    std::int32_t* a = b.ans.data() + i * cap;
    const std::int32_t* q = b.tok.data() + (3 * i + 2) * cap;
    for (std::size_t t = 0; t < cnt; ++t) a[t] = -1;
    for (std::size_t j = 0; j < i; ++j) {  // lookup before insert: keys of triples j < i only
      const std::int32_t* k = b.tok.data() + (3 * j) * cap;
      const std::int32_t* v = b.tok.data() + (3 * j + 1) * cap;
      for (std::size_t t = 0; t < cnt; ++t) a[t] = k[t] == q[t] ? v[t] : a[t];
    }
  }
}

}  // namespace cz::mqar
