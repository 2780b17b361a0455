#include "tasks/zoology.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "tasks/mqar_reference.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/seeded.h"
#include "util/memory_budget.h"

namespace cz::zoology {

std::uint64_t NumpyLegacyRng::interval(std::uint64_t max) {
  if (max == 0) return 0;
  std::uint64_t mask = max;  // smallest all-ones mask >= max
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  std::uint64_t v;
  if (max <= 0xffffffffULL) {
    while ((v = (next32() & mask)) > max) {}
  } else {
    while ((v = (((static_cast<std::uint64_t>(next32()) << 32) | next32()) & mask)) > max) {}
  }
  return v;
}

double NumpyLegacyRng::next_double() {
  const std::int32_t a = static_cast<std::int32_t>(next32() >> 5), b = static_cast<std::int32_t>(next32() >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

std::vector<std::int64_t> NumpyLegacyRng::permutation(std::size_t n) {
  std::vector<std::int64_t> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<std::int64_t>(i);
  for (std::size_t i = n; i-- > 1;) std::swap(x[i], x[interval(i)]);  // reversed(range(1, n))
  return x;
}

double numpy_pairwise_sum(const double* a, std::size_t n) {
  if (n < 8) {
    double res = 0.;
    for (std::size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {  // PW_BLOCKSIZE
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  std::size_t n2 = n / 2;
  n2 -= n2 % 8;
  return numpy_pairwise_sum(a, n2) + numpy_pairwise_sum(a + n2, n - n2);
}

namespace {
// A double as a user writes it (1e+308, not its 309 digits): error lines stay short.
std::string power_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

// np.random.choice(arange(space), K, replace=False, p=p) (legacy RandomState). The caller checked
// what numpy checks (p finite, non-negative, at least K non-zero entries); every index returned
// lies in [0, p.size()).
std::vector<std::int64_t> choice_p(NumpyLegacyRng& rng, std::vector<double> p, std::size_t K) {
  std::vector<std::int64_t> found;
  while (found.size() < K) {
    std::vector<double> x(K - found.size());
    for (auto& xi : x) xi = rng.next_double();  // rand(size - n_uniq)
    for (std::int64_t f : found) p[static_cast<std::size_t>(f)] = 0;
    std::vector<double> cdf(p.size());
    double acc = 0;
    for (std::size_t i = 0; i < p.size(); ++i) cdf[i] = acc += p[i];  // np.cumsum (sequential)
    const double last = cdf.back();
    if (!(last > 0) || !std::isfinite(last)) throw std::logic_error("choice_p: no probability mass left");
    for (auto& v : cdf) v /= last;
    std::vector<std::int64_t> fresh;  // searchsorted(side='right'), unique in order of first occurrence
    for (double xi : x) {
      auto idx = static_cast<std::int64_t>(std::upper_bound(cdf.begin(), cdf.end(), xi) - cdf.begin());
      if (static_cast<std::size_t>(idx) >= p.size()) throw std::logic_error("choice_p: index past the distribution");
      if (std::find(fresh.begin(), fresh.end(), idx) == fresh.end()) fresh.push_back(idx);
    }
    found.insert(found.end(), fresh.begin(), fresh.end());
  }
  return found;
}
}  // namespace

Batch multiquery_ar(const MqarConfig& cfg) {
  const std::size_t V = cfg.vocab_size, L = cfg.input_seq_len, K = cfg.num_kv_pairs, E = cfg.num_examples;
  const std::string where = "zoology multiquery_ar";
  if (L % 2) throw InputError("input_seq_len must be even (zoology assert)", where);
  if (!(V > L)) throw InputError("vocab_size must exceed input_seq_len (zoology assert)", where);
  if (4 * K > L) throw InputError("num_kv_pairs*2*num_passes + num_kv_pairs*2 <= input_seq_len fails (zoology assert)", where);
  if (K == 0 || K > V / 2 - 1 || K > V - V / 2) throw InputError("too many kv pairs for the key/value pools", where);
  // memory: the batch (inputs + labels) and one permutation of each pool at a time
  require_memory(sat_add(sat_mul(sat_mul(E, L), 16), sat_add(sat_mul(E, sat_mul(K, 24)), sat_mul(V, 8))), "this batch",
                 where);
  NumpyLegacyRng rng(cfg.seed);
  const std::size_t C = 2 * K, half = V / 2;
  // keys: choice(arange(1, V//2), K, replace=False) per row, all rows first; then values.
  std::vector<std::vector<std::int64_t>> keys(E), values(E), gaps(E);
  for (std::size_t r = 0; r < E; ++r) {
    auto perm = rng.permutation(half - 1);
    for (std::size_t j = 0; j < K; ++j) keys[r].push_back(1 + perm[j]);
  }
  for (std::size_t r = 0; r < E; ++r) {
    auto perm = rng.permutation(V - half);
    for (std::size_t j = 0; j < K; ++j) values[r].push_back(static_cast<std::int64_t>(half) + perm[j]);
  }
  // power law over gaps: p = a * arange(1, space+1) ** (a-1); p = p / p.sum()
  const std::size_t space = (L - C) / 2;
  std::vector<double> p(space);
  for (std::size_t g = 0; g < space; ++g) p[g] = cfg.power_a * std::pow(static_cast<double>(g + 1), cfg.power_a - 1);
  const double sum = numpy_pairwise_sum(p.data(), p.size());
  // numpy's choice refuses such p ("probabilities contain NaN", "are not non-negative", "fewer
  // non-zero entries in p than size"); so do we, instead of sampling past the end of p.
  const std::string wa = "zoology multiquery_ar: power_a";
  if (!std::isfinite(sum) || !(sum > 0))
    throw InputError("power_a = " + power_text(cfg.power_a) + " makes the gap probabilities a*g^(a-1) overflow or vanish (numpy's choice fails too)", wa);
  std::size_t nonzero = 0;
  for (auto& v : p) {
    v = v / sum;
    if (!std::isfinite(v) || v < 0) throw InputError("power_a gives non-finite gap probabilities (numpy's choice fails too)", wa);
    nonzero += v > 0;
  }
  if (nonzero < K) throw InputError("power_a leaves fewer non-zero gap probabilities than kv pairs (numpy's choice fails too)", wa);
  for (std::size_t r = 0; r < E; ++r) gaps[r] = choice_p(rng, p, K);
  Batch b;
  b.rows = E;
  b.cols = L;
  b.inputs.assign(E * L, 0);
  b.labels.assign(E * L, -100);
  for (std::size_t r = 0; r < E; ++r) {
    for (std::size_t j = 0; j < K; ++j) {
      b.inputs[r * L + 2 * j] = keys[r][j];
      b.inputs[r * L + 2 * j + 1] = values[r][j];
      const std::size_t q = C + 2 * static_cast<std::size_t>(gaps[r][j]);  // query row; label at the same row
      b.inputs[r * L + q] = keys[r][j];
      b.labels[r * L + q] = values[r][j];
    }
  }
  // zoology step 11 (random_non_queries=True): every 0 of the inputs (the fillers; keys start at 1
  // and values at vocab/2) becomes a token uniform in [0, vocab). zoology draws them from torch's
  // global generator, which the data seed does not fix, so ours come from a stream seeded by the
  // data seed (util/seeded.h): same positions, same distribution, not torch's values. Labels are
  // untouched, so every check reads the same queries and answers.
  if (cfg.random_non_queries)
    for (std::size_t r = 0; r < E; ++r) {
      InstanceRng noise(0x6e6f697365ULL ^ cfg.seed, r);  // "noise"
      for (std::size_t pos = 0; pos < L; ++pos)
        if (b.inputs[r * L + pos] == 0) b.inputs[r * L + pos] = static_cast<std::int64_t>(noise.below(cfg.vocab_size));
    }
  return b;
}

mqar::Instance instance_from_row(const Batch& b, std::size_t r, std::size_t c, std::optional<std::size_t> kv,
                                 const std::string& where) {
  const std::size_t N = b.cols;
  std::vector<std::size_t> qrows;
  for (std::size_t p = 0; p < N; ++p)
    if (b.label(r, p) != -100) qrows.push_back(p);
  const std::size_t K = kv ? *kv : qrows.size();
  const std::string at = where + ", example " + std::to_string(r);
  if (2 * K > N) throw InputError("2K = " + std::to_string(2 * K) + " exceeds N = " + std::to_string(N), at);
  for (std::size_t p = 0; p < N; ++p) {
    const std::int64_t t = b.input(r, p);
    if (t < 0 || static_cast<std::uint64_t>(t) >= c)
      throw InputError("token " + std::to_string(t) + " at position " + std::to_string(p) + " lies outside [0, c=" +
                           std::to_string(c) + ")", at);
  }
  std::vector<std::int64_t> keys, values, qtok;
  for (std::size_t j = 0; j < K; ++j) {
    keys.push_back(b.input(r, 2 * j));
    values.push_back(b.input(r, 2 * j + 1));
  }
  for (std::size_t q : qrows) {
    if (q < 2 * K) throw InputError("label at position " + std::to_string(q) + " lies inside the context (K = " + std::to_string(K) + ")", at);
    qtok.push_back(b.input(r, q));
  }
  mqar::Instance x = mqar::make_zoology(c, N, keys, values, qrows, qtok, 0);
  x.tokens.assign(b.inputs.begin() + static_cast<std::ptrdiff_t>(r * N), b.inputs.begin() + static_cast<std::ptrdiff_t>((r + 1) * N));
  return x;  // fillers keep the file's tokens (noise, if random_non_queries was on)
}

Batch batch_from_instances(const std::vector<mqar::Instance>& xs) {
  Batch b;
  b.rows = xs.size();
  b.cols = xs.empty() ? 0 : xs[0].N();
  b.labels.assign(b.rows * b.cols, -100);
  for (std::size_t r = 0; r < xs.size(); ++r) {
    const auto& x = xs[r];
    if (x.layout != mqar::Layout::Zoology) throw InputError("only zoology-layout instances form a zoology batch", "export");
    if (x.N() != b.cols) throw InputError("instances of one batch must share N", "export");
    b.inputs.insert(b.inputs.end(), x.tokens.begin(), x.tokens.end());
    auto ans = mqar::reference_answers(x);
    for (std::size_t i = 0; i < ans.size(); ++i)
      if (ans[i]) b.labels[r * b.cols + x.query_rows[i]] = *ans[i];
  }
  return b;
}

Batch read_npy_pair(const std::string& inputs_path, const std::string& labels_path) {
  npy::Int64Array in = npy::read_int64(inputs_path), lab = npy::read_int64(labels_path);
  if (in.shape.size() != 2) throw InputError("inputs must have shape (examples, N)", inputs_path);
  if (lab.shape != in.shape) throw InputError("labels must have the same shape as inputs", labels_path);
  Batch b;
  b.rows = in.shape[0];
  b.cols = in.shape[1];
  b.inputs = std::move(in.data);
  b.labels = std::move(lab.data);
  return b;
}

void write_npy_pair(const Batch& b, const std::string& inputs_path, const std::string& labels_path) {
  // both files or neither (util/atomic_file.h); one file named twice is refused
  write_files_atomic({{inputs_path, npy::to_bytes({{b.rows, b.cols}, b.inputs}), "--inputs"},
                      {labels_path, npy::to_bytes({{b.rows, b.cols}, b.labels}), "--labels"}});
}

}  // namespace cz::zoology
