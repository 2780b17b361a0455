#include "gpu/lop_check.h"

#include "gpu/lop_device_program.h"
#include "gpu/lop_launch.h"

namespace cz::gpu {

namespace {

// The CPU twin: the kernel body over aligned word groups, one slot array (stride 1) reused.
class LopTwin : public BlockWorker {
 public:
  LopTwin(const LopProgram& p, const LopTask& t) : view_(p.view()), task_(t), w_(std::max<std::uint32_t>(p.slots(), 1), 0) {}
  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    const std::uint64_t hi = k0 + count;
    for (std::uint64_t base = k0 & ~std::uint64_t{31}; base < hi; base += 32) {
      std::uint32_t bad = lop_group(view_, task_, base, lop_lane_mask(base, k0, hi), w_.data(), 1);
      for (; bad; bad &= bad - 1) r.fail(base + static_cast<std::uint64_t>(lop_ctz(bad)));
    }
  }

 private:
  LopView view_;
  LopTask task_;
  std::vector<std::uint32_t> w_;
};

// One host thread driving the device: one launch per engine block.
class LopCuda : public BlockWorker {
 public:
  LopCuda(const LopProgram& p, const LopTask& t) : launch_(p.view(), p.slots(), t) {}
  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    std::uint64_t failed = 0, first = UINT64_MAX;
    launch_.run(k0, count, failed, first);
    if (!failed) return;
    r.failed += failed;
    if (!r.first || first < *r.first) r.first = first;
  }

 private:
  LopLauncher launch_;
};

}  // namespace

LopCheck::LopCheck(const circuits::Circuit& c, const LopTask& task, std::vector<std::uint32_t> codes)
    : prog_(c), codes_(std::move(codes)), task_(task) {
  task_.codes = codes_.data();
}

std::unique_ptr<BlockWorker> LopCheck::twin() const { return std::make_unique<LopTwin>(prog_, task_); }
std::unique_ptr<BlockWorker> LopCheck::cuda() const { return std::make_unique<LopCuda>(prog_, task_); }

std::shared_ptr<const DeviceProgram> lop_compare_check(const circuits::Circuit& c, std::size_t d) {
  if (!c.all_outputs_bit() || c.num_inputs() != 2 * d || c.outputs().size() != 2 + 2 * d) return nullptr;
  LopTask t;
  t.kind = LopTaskKind::Compare;
  t.d = static_cast<std::uint32_t>(d);
  return std::make_shared<const LopCheck>(c, t);
}

std::shared_ptr<const DeviceProgram> lop_sort_check(const circuits::Circuit& c, std::size_t n, std::size_t d, std::size_t w) {
  if (!c.all_outputs_bit() || n > kMaxSortKeys || d > 64 || w > 64 || c.num_inputs() != n * d ||
      c.outputs().size() != n * (d + w))
    return nullptr;
  LopTask t;
  t.kind = LopTaskKind::Sort;
  t.n = static_cast<std::uint32_t>(n);
  t.d = static_cast<std::uint32_t>(d);
  t.w = static_cast<std::uint32_t>(w);
  return std::make_shared<const LopCheck>(c, t);
}

std::shared_ptr<const DeviceProgram> lop_triples_check(const circuits::Circuit& c, const TriplesSource& src, std::size_t d,
                                                       std::size_t out_cols, bool found, const std::vector<std::vector<int>>& codes) {
  const std::size_t n = static_cast<std::size_t>(src.shape.n), vocab = static_cast<std::size_t>(src.shape.c);
  if (!c.all_outputs_bit() || codes.size() != vocab || c.num_inputs() != 3 * n * d || c.outputs().size() != n * out_cols ||
      out_cols != d + (found ? 1 : 0))
    return nullptr;
  LopTask t;
  t.kind = LopTaskKind::Triples;
  t.src = src;
  t.n = static_cast<std::uint32_t>(n);
  t.d = static_cast<std::uint32_t>(d);
  t.out_cols = static_cast<std::uint32_t>(out_cols);
  t.found = found ? 1 : 0;
  t.code_words = static_cast<std::uint32_t>((d + 31) / 32);
  std::vector<std::uint32_t> table(vocab * t.code_words, 0);
  for (std::size_t tok = 0; tok < vocab; ++tok) {
    if (codes[tok].size() != d) return nullptr;
    for (std::size_t j = 0; j < d; ++j)
      if (codes[tok][j]) table[tok * t.code_words + j / 32] |= 1u << (j % 32);
  }
  return std::make_shared<const LopCheck>(c, t, std::move(table));
}

std::shared_ptr<const DeviceProgram> lop_eval_only_check(const circuits::Circuit& c) {
  return std::make_shared<const LopCheck>(c, LopTask{});
}

}  // namespace cz::gpu
