#include "tasks/mqar_domain.h"

#include "util/error.h"
#include "util/seeded.h"

namespace cz::mqar {

namespace {
using u128 = unsigned __int128;
constexpr u128 kLimit = static_cast<u128>(1) << 62;

u128 falling(std::size_t c, std::size_t n) {  // P(c, n) = c (c-1) ... (c-n+1), capped above kLimit
  u128 r = 1;
  for (std::size_t i = 0; i < n; ++i) {
    r *= (c - i);
    if (r > kLimit) return kLimit + 1;
  }
  return r;
}
u128 power(std::size_t c, std::size_t n) {
  u128 r = 1;
  for (std::size_t i = 0; i < n; ++i) {
    r *= c;
    if (r > kLimit) return kLimit + 1;
  }
  return r;
}
}  // namespace

std::uint64_t triples_count(std::size_t n, std::size_t c) {
  if (c < n) throw InputError("distinct keys need c >= n", "-p c=" + std::to_string(c));
  u128 a = falling(c, n), b = power(c, n);
  u128 total = a > kLimit || b > kLimit ? kLimit + 1 : a * b;
  if (total <= kLimit) total *= b;
  if (total > kLimit) throw InputError("the exhaustive domain exceeds 2^62 instances (use --samples)", "-p n, -p c");
  return static_cast<std::uint64_t>(total);
}

Instance triples_instance(std::size_t n, std::size_t c, std::uint64_t k) {
  const std::uint64_t cn = static_cast<std::uint64_t>(power(c, n));
  std::uint64_t qi = k % cn, rest = k / cn;
  std::uint64_t vi = rest % cn, ki = rest / cn;
  std::vector<std::int64_t> keys(n), values(n), queries(n);
  for (std::size_t i = n; i-- > 0;) {
    queries[i] = static_cast<std::int64_t>(qi % c);
    qi /= c;
    values[i] = static_cast<std::int64_t>(vi % c);
    vi /= c;
  }
  std::vector<std::int64_t> pool(c);
  for (std::size_t t = 0; t < c; ++t) pool[t] = static_cast<std::int64_t>(t);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t block = static_cast<std::uint64_t>(falling(c - i - 1, n - i - 1));
    const std::uint64_t idx = ki / block;
    ki %= block;
    keys[i] = pool[idx];
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(idx));
  }
  return make_triples(c, keys, values, queries);
}

Domain triples_exhaustive(std::size_t n, std::size_t c) {
  Domain d;
  d.exhaustive = true;
  d.count = triples_count(n, c);
  d.description = "every triples instance with n=" + std::to_string(n) + ", c=" + std::to_string(c) +
                  " and distinct keys (P(c,n)*c^(2n) = " + std::to_string(d.count) + ")";
  d.preconditions = {"keys distinct within a sequence (MQAR is undefined otherwise, spec E5)",
                     "values and queries range over all c tokens; q_0 is enumerated but never has an answer",
                     "query i matches key j only for j < i (strict: its own triple's key does not count)"};
  d.instance = [n, c](std::uint64_t k) { return triples_instance(n, c, k); };
  d.triples_n = n;
  d.triples_c = c;
  return d;
}

Instance triples_sample(std::size_t n, std::size_t c, std::uint64_t seed, std::uint64_t k) {
  if (c < n) throw InputError("distinct keys need c >= n", "-p c=" + std::to_string(c));
  InstanceRng rng(seed, k);
  std::vector<std::int64_t> pool(c), keys(n), values(n), queries(n);
  for (std::size_t t = 0; t < c; ++t) pool[t] = static_cast<std::int64_t>(t);
  for (std::size_t i = 0; i < n; ++i) {  // partial Fisher-Yates
    std::size_t j = i + static_cast<std::size_t>(rng.below(c - i));
    std::swap(pool[i], pool[j]);
    keys[i] = pool[i];
  }
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<std::int64_t>(rng.below(c));
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = i ? rng.below(4) : 3;
    if (r < 2) queries[i] = keys[rng.below(i)];
    else if (r == 2) queries[i] = keys[i];
    else queries[i] = static_cast<std::int64_t>(rng.below(c));
  }
  return make_triples(c, keys, values, queries);
}

Domain triples_sampled(std::size_t n, std::size_t c, std::uint64_t count, std::uint64_t seed) {
  if (c < n) throw InputError("distinct keys need c >= n", "-p c=" + std::to_string(c));
  Domain d;
  d.count = count;
  d.description = std::to_string(count) + " seeded triples instances, n=" + std::to_string(n) + ", c=" +
                  std::to_string(c) + " (seed " + std::to_string(seed) + ")";
  d.preconditions = {"keys distinct within a sequence (spec E5)",
                     "query i >= 1: a uniform earlier key w.p. 1/2, its own triple's key w.p. 1/4, else uniform",
                     "query i matches key j only for j < i (strict: its own triple's key does not count)"};
  d.instance = [n, c, seed](std::uint64_t k) { return triples_sample(n, c, seed, k); };
  d.triples_n = n;
  d.triples_c = c;
  d.triples_seed = seed;
  return d;
}

Domain zoology_sampled(std::size_t N, std::size_t K, std::size_t c, double power_a, std::uint64_t count,
                       std::uint32_t seed) {
  zoology::MqarConfig cfg;
  cfg.vocab_size = c;
  cfg.num_examples = count;
  cfg.input_seq_len = N;
  cfg.num_kv_pairs = K;
  cfg.seed = seed;
  cfg.power_a = power_a;
  auto batch = std::make_shared<const zoology::Batch>(zoology::multiquery_ar(cfg));
  Domain d;
  d.count = count;
  d.description = std::to_string(count) + " zoology multiquery_ar instances (N=" + std::to_string(N) + ", K=" +
                  std::to_string(K) + ", vocab=" + std::to_string(c) + ", power_a=" + std::to_string(power_a) +
                  ", seed " + std::to_string(seed) + ", random_non_queries off)";
  d.preconditions = {"zoology layout: K pairs first, then each key queried once at power-law gaps",
                     "keys distinct from [1, c/2), values distinct from [c/2, c), filler token 0 (never a key)"};
  d.instance = [batch, c, K](std::uint64_t k) {
    return zoology::instance_from_row(*batch, static_cast<std::size_t>(k), c, K);
  };
  return d;
}

Domain from_list(std::shared_ptr<const std::vector<Instance>> xs, std::string description) {
  Domain d;
  d.count = xs->size();
  d.description = std::move(description);
  d.instance = [xs](std::uint64_t k) { return (*xs)[static_cast<std::size_t>(k)]; };
  return d;
}

}  // namespace cz::mqar
