#include "constructions/sd/based_pipeline.h"

#include <set>
#include <stdexcept>

namespace cz::sdc {
namespace {

Matrix<std::int64_t> to_i64(const Matrix<Int>& m) {
  return map_matrix(m, [](const Int& v) {
    if (!v.fits_int64()) throw std::overflow_error("pipeline intermediate does not fit int64");
    return v.to_int64();
  });
}

// The checked int64 path, and Z (every entry must then fit int64) only on overflow.
Matrix<std::int64_t> eval_i64(const IntegerEvaluator& e, const Matrix<std::int64_t>& x) {
  if (auto y = e.try_i64(x)) return std::move(*y);
  return to_i64(e(x));
}

template <class K, class V>
V find_or_build(std::mutex& mu, std::map<K, std::shared_ptr<CacheSlot<V>>>& map, const K& key,
                const std::function<V()>& build) {
  std::shared_ptr<CacheSlot<V>> slot;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto& s = map[key];
    if (!s) s = std::make_shared<CacheSlot<V>>();
    slot = s;
  }
  // Built once, outside the map's lock: the other threads go on with other keys, and a thread
  // that needs this key waits for it instead of building it a second time.
  std::call_once(slot->once, [&] { slot->value = build(); });
  return slot->value;
}

std::vector<std::uint32_t> flagged(const Matrix<std::int64_t>& rows, std::size_t lo, std::size_t N, unsigned n,
                                   const std::vector<bool>& flag) {
  std::set<std::uint32_t> out;
  for (std::size_t i = lo; i < lo + N; ++i)
    if (flag[i]) out.insert(sd::row_element(rows.row(i), n));
  return {out.begin(), out.end()};
}
}  // namespace

std::shared_ptr<const IntegerEvaluator> PipelineCache::shift(
    const ShiftKey& key, const std::function<std::shared_ptr<const IntegerEvaluator>()>& build) {
  return find_or_build(mu_, shift_, key, build);
}

std::shared_ptr<const G18Model> PipelineCache::g18(const G18Key& key, const std::function<G18Model()>& build) {
  return find_or_build(mu_, g18_, key, std::function<std::shared_ptr<const G18Model>()>([&] {
    // Only the prepared evaluators are run here: the Rat layers go back to the allocator (a cache
    // of a thousand models kept them all, 128 KB each, and paid a page fault per fresh page).
    auto g = std::make_shared<G18Model>(build());
    g->pre = Model{};
    g->post = Model{};
    return std::shared_ptr<const G18Model>(std::move(g));
  }));
}

const Pipeline::PerN& Pipeline::models(std::size_t N) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cache_.find(N);
  if (it != cache_.end()) return *it->second;
  auto p = std::make_shared<PerN>();
  if (!cfg_.g18_alone) {
    p->g20 = g20_model(N, cfg_.n);
    p->insert = g21_insert_model(N, cfg_.n);
    if (cfg_.mutate) {
      cfg_.mutate("g20", p->g20);
      cfg_.mutate("g21-insert", p->insert);
    }
    p->g20_eval = std::make_shared<const IntegerEvaluator>(p->g20);
    p->insert_eval = std::make_shared<const IntegerEvaluator>(p->insert);
  }
  if (cfg_.kernel.kind != KernelKind::DataDependent) {
    const std::size_t rows = cfg_.g18_alone ? N : 2 * N, lo = cfg_.g18_alone ? 0 : window_lo(N);
    p->g18 = std::make_shared<const G18Model>(build_g18(cfg_.n, rows, lo, N, cfg_.kernel, {}, cfg_.mutate));
  }
  return *cache_.emplace(N, p).first->second;
}

std::vector<std::uint32_t> first_set(const Matrix<std::int64_t>& u, unsigned n) {
  std::vector<std::uint32_t> S;
  for (std::size_t i = 0; i < u.rows() && u(i, n) == 0; ++i) S.push_back(sd::row_element(u.row(i), n));
  return S;
}

PipelineOutcome run_pipeline(const Pipeline& P, const sd::Instance& x, int through, PipelineCache* cache) {
  const unsigned n = P.config().n;
  PipelineOutcome o;
  o.v = sd::repeat_prompt(sd::encode(x), 2);
  const std::size_t N = o.v.rows() / 2, lo = P.window_lo(N);
  const Pipeline::PerN& M = P.models(N);
  // Lemma G.20: the kernel, read in the layout's direction.
  std::optional<Matrix<std::int64_t>> Y64 = M.g20_eval->try_i64(o.v);
  const Matrix<Int> Y = Y64 ? Matrix<Int>() : (*M.g20_eval)(o.v);  // Z only on overflow
  o.kernel = Y64 ? read_kernel(*Y64, N, n, Layout::Top) : read_kernel(Y, N, n, Layout::Top);
  for (std::size_t i = 0; i < 2 * N; ++i)
    for (std::size_t j = 0; j <= n; ++j)
      if ((Y64 ? (*Y64)(i, j) != 0 : !Y(i, j).is_zero()) && !(j == n && i + 1 >= N)) o.g20_clean = false;
  if (through < 2) return o;
  const std::vector<std::int64_t> h =
      Y64 ? read_kernel(*Y64, N, n, P.config().layout) : read_kernel(Y, N, n, P.config().layout);
  // Prop G.21: insert the separator (data-independent), then the data-dependent shift.
  Matrix<std::int64_t> w = eval_i64(*M.insert_eval, o.v);
  auto shift_eval = [&] {
    Model shift = g21_shift_model(N, n, h, P.config().layout);
    if (P.config().mutate) P.config().mutate("g21-shift", shift);
    return std::make_shared<const IntegerEvaluator>(shift);
  };
  std::shared_ptr<const IntegerEvaluator> se;
  se = cache ? cache->shift({N, h}, shift_eval) : shift_eval();
  Matrix<std::int64_t> z = eval_i64(*se, w);
  o.window = Matrix<std::int64_t>(N, n + 1, 0);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j <= n; ++j) o.window(i, j) = z(lo + i, j);
  if (through < 3) return o;
  // Prop G.18 on the window.
  o.S = first_set(o.window, n);
  std::shared_ptr<const G18Model> g = M.g18;
  auto build = [&] { return build_g18(n, 2 * N, lo, N, P.config().kernel, o.S, P.config().mutate); };
  if (!g) g = cache ? cache->g18({N, o.S}, build) : std::make_shared<const G18Model>(build());
  o.f = g->f;
  o.run = run_g18(*g, P.config().kernel, n, z);
  o.common = flagged(z, lo, N, n, o.run.flag);
  return o;
}

G18Outcome run_g18_alone(const Pipeline& P, const sd::Instance& x, PipelineCache* cache) {
  const unsigned n = P.config().n;
  G18Outcome o;
  o.u = sd::encode(x);
  const std::size_t N = o.u.rows();
  std::shared_ptr<const G18Model> g = P.models(N).g18;
  if (!g) {
    const auto S = first_set(o.u, n);
    auto build = [&] { return build_g18(n, N, 0, N, P.config().kernel, S, P.config().mutate); };
    g = cache ? cache->g18({N, S}, build) : std::make_shared<const G18Model>(build());
  }
  o.f = g->f;
  o.run = run_g18(*g, P.config().kernel, n, o.u);
  o.common = flagged(o.u, 0, N, n, o.run.flag);
  return o;
}

}  // namespace cz::sdc
