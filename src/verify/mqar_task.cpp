// The MQAR task's parameters, shape and verification domain (moved here from
// constructions/mqar/common.cpp so that the task registry (verify/task.h) and the built-in
// constructions share one domain policy: a user's model checked with `verify --model FILE
// --task mqar` meets exactly the instances mqar/attention meets).
#include "verify/mqar_task.h"

#include <string>

#include "util/error.h"

namespace cz::mqar {

// zoology's names (MQARConfig: vocab_size, input_seq_len, num_kv_pairs) are accepted beside ours.
std::vector<ParamSpec> task_params() {
  return {
      choice_param("layout", "triples", {"triples", "zoology"}, "triples (k,v,q)^n (theory) or zoology's (pairs, then queries)"),
      only_when(int_param("n", 3, 1, 4096, "triples: number of triples (N = 3n)"), "layout=triples"),
      with_aliases(int_param("c", 0, 0, 1 << 20, "vocabulary size = one-hot width d (0: triples c = n, zoology c = N + 2)"), {"vocab_size"}),
      only_when(with_aliases(int_param("N", 64, 4, 1 << 16, "zoology: sequence length (even)"), {"input_seq_len"}), "layout=zoology"),
      only_when(with_aliases(int_param("kv", 8, 1, 1 << 15, "zoology: number of key-value pairs K"), {"num_kv_pairs"}), "layout=zoology"),
      only_when(choice_param("power_a", "0.01", {"0.01", "0.1", "0.5", "1"}, "zoology: power-law exponent of the query gaps"), "layout=zoology"),
      int_param("instance", -1, -1, std::int64_t{1} << 40,
                "instance the reported/exported model is built for (-1: worst case; k: triples index k, zoology seed k)"),
  };
}

TaskShape task_shape(const Params& p) {
  TaskShape s;
  s.layout = p.s("layout") == "zoology" ? mqar::Layout::Zoology : mqar::Layout::Triples;
  s.power_a = std::stod(p.s("power_a"));
  s.instance = p.i("instance");
  if (s.layout == mqar::Layout::Triples) {
    s.n = p.u("n");
    s.N = 3 * s.n;
    s.K = s.n;
    s.c = p.u("c") ? p.u("c") : s.n;
    if (s.c < s.n) throw InputError("distinct keys need c >= n", "-p c=" + p.s("c"));
  } else {
    s.N = p.u("N");
    s.K = p.u("kv");
    s.c = p.u("c") ? p.u("c") : s.N + 2;
    if (s.N % 2) throw InputError("zoology needs an even N", "-p N=" + p.s("N"));
    if (s.c <= s.N) throw InputError("zoology needs vocabulary c > N", "-p c=" + std::to_string(s.c));
    if (4 * s.K > s.N) throw InputError("zoology needs 4K <= N", "-p kv=" + p.s("kv"));
    if (s.K + 1 > s.c / 2) throw InputError("zoology draws K distinct keys from [1, c/2)", "-p kv=" + p.s("kv"));
  }
  return s;
}

mqar::Domain domain_for(const TaskShape& s, const DomainOptions& o) {
  if (s.layout == mqar::Layout::Zoology) {
    if (o.force_exhaustive) throw InputError("the zoology layout has no exhaustive domain (use --samples)", "--exhaustive");
    if (o.seed > 0xffffffffULL) throw InputError("zoology's data seed must be below 2^32", "--seed");
    return mqar::zoology_sampled(s.N, s.K, s.c, s.power_a, o.samples.value_or(1000), static_cast<std::uint32_t>(o.seed));
  }
  if (o.samples) return mqar::triples_sampled(s.n, s.c, *o.samples, o.seed);
  if (o.force_exhaustive) return mqar::triples_exhaustive(s.n, s.c);
  std::uint64_t count = 0;
  try {
    count = mqar::triples_count(s.n, s.c);
  } catch (const InputError&) {
    count = ~std::uint64_t{0};
  }
  if (count <= (std::uint64_t{1} << 21)) return mqar::triples_exhaustive(s.n, s.c);
  return mqar::triples_sampled(s.n, s.c, 1000, o.seed);
}

mqar::Instance worst_case_instance(const TaskShape& s) {
  if (s.layout == mqar::Layout::Triples) {
    std::vector<std::int64_t> keys(s.n), values(s.n), queries(s.n, 0);
    // Distinct keys when the vocabulary allows (n <= c, every MQAR construction's domain); eq/via-mqar's
    // 4-triple JRT prompt at c = 2, 3 has more triples than tokens (its keys repeat: spec E5), so
    // they wrap there (was: key token 2 outside [0, 2), an input error at c < 4).
    for (std::size_t i = 0; i < s.n; ++i) {
      keys[i] = static_cast<std::int64_t>(i % s.c);
      values[i] = static_cast<std::int64_t>((i + 1) % s.c);
    }
    return mqar::make_triples(s.c, keys, values, queries);
  }
  std::vector<std::int64_t> keys(s.K), values(s.K), qtok(s.K);
  std::vector<std::size_t> qrows(s.K);
  for (std::size_t j = 0; j < s.K; ++j) {
    keys[j] = static_cast<std::int64_t>(1 + j);
    values[j] = static_cast<std::int64_t>(s.c / 2 + j);
    qrows[j] = 2 * s.K + 2 * j;                      // query j asks for key K-1-j:
    qtok[j] = static_cast<std::int64_t>(s.K - j);    // distance 2K+2j - 2(K-1-j) = 4j+2, all distinct
  }
  return mqar::make_zoology(s.c, s.N, keys, values, qrows, qtok, 0);
}

mqar::Instance reported_instance(const TaskShape& s) {
  if (s.instance < 0) return worst_case_instance(s);
  const auto k = static_cast<std::uint64_t>(s.instance);
  if (s.layout == mqar::Layout::Triples) {
    const std::uint64_t count = mqar::triples_count(s.n, s.c);
    if (k >= count) throw InputError("instance index beyond the exhaustive domain (" + std::to_string(count) + ")", "-p instance");
    return mqar::triples_instance(s.n, s.c, k);
  }
  if (k > 0xffffffffULL) throw InputError("zoology's data seed must be below 2^32", "-p instance");
  return mqar::zoology_sampled(s.N, s.K, s.c, s.power_a, 1, static_cast<std::uint32_t>(k)).instance(0);
}

std::string reported_instance_text(const TaskShape& s) {
  if (s.instance < 0) return "the worst-case instance (most distinct query-key distances)";
  return s.layout == mqar::Layout::Triples ? "triples instance " + std::to_string(s.instance) + " of the exhaustive order"
                                           : "zoology's generator, 1 example, data seed " + std::to_string(s.instance);
}

}  // namespace cz::mqar
