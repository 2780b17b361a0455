#include "gpu/modmodel_check.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpu/device.h"
#include "gpu/modmodel_launch.h"
#include "gpu/mqar_source.h"

namespace cz::gpu {

namespace {

struct Shared {
  ModModel model;
  TriplesSource source;
  ModCodec codec;
};

// The CPU twin: the kernel bodies, one instance at a time; scratch allocated once per worker.
class TwinWorker final : public BlockWorker {
 public:
  explicit TwinWorker(std::shared_ptr<const Shared> sh)
      : sh_(std::move(sh)), v_(sh_->model.view()), scratch_(v_.scratch_words * static_cast<std::uint64_t>(v_.primes)) {}
  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    std::int32_t keys[kMaxTriples], vals[kMaxTriples], qs[kMaxTriples], ans[kMaxTriples];
    for (std::uint64_t k = k0; k < k0 + count; ++k) {
      triples_draw(sh_->source, k, keys, vals, qs);
      triples_reference(sh_->source.shape.n, keys, vals, qs, ans);
      for (std::int32_t q = 0; q < v_.primes; ++q) {
        ModScratch s = mod_scratch(v_, scratch_.data() + q * v_.scratch_words);
        for (std::int32_t i = 0; i < v_.Np; ++i)
          for (std::int32_t j = 0; j < v_.dp; ++j)
            s.x[std::uint64_t(i) * v_.dp + j] = mod_input_entry(v_, sh_->codec, keys, vals, qs, i, j);
        mod_eval(v_, q, s);
      }
      if (!all_ok(ans)) r.fail(k);
    }
  }

 private:
  bool all_ok(const std::int32_t* ans) const {
    for (std::int32_t i = 0; i < v_.N; ++i)
      for (std::int32_t j = 0; j < v_.d; ++j)
        if (!mod_entry_ok(v_, scratch_.data(), v_.scratch_words, mod_expected_entry(sh_->codec, ans, i, j), i, j)) return false;
    return true;
  }
  std::shared_ptr<const Shared> sh_;
  ModModelView v_;
  std::vector<std::uint32_t> scratch_;
};

class CudaWorker final : public BlockWorker {
 public:
  CudaWorker(std::shared_ptr<const Shared> sh, std::uint64_t batch)
      : sh_(std::move(sh)), dev_(make_mod_device(sh_->model.view(), sh_->model.arena().size(), batch)) {}
  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    std::uint64_t failed = 0, first = std::numeric_limits<std::uint64_t>::max();
    dev_->mqar(sh_->source, sh_->codec, k0, count, failed, first);
    r.failed += failed;
    if (failed && (!r.first || first < *r.first)) r.first = first;
  }

 private:
  std::shared_ptr<const Shared> sh_;
  std::unique_ptr<ModModelDevice> dev_;
};

class MqarModProgram final : public DeviceProgram {
 public:
  explicit MqarModProgram(std::shared_ptr<const Shared> sh) : sh_(std::move(sh)) {
    // A launch's scratch within 1 GiB (one ModScratch per instance and prime).
    const std::uint64_t per = sh_->model.view().scratch_words * static_cast<std::uint64_t>(sh_->model.primes()) * 4;
    batch_ = std::clamp<std::uint64_t>((std::uint64_t{1} << 30) / std::max<std::uint64_t>(per, 1), 1, std::uint64_t{1} << 22);
  }
  std::string kind() const override { return sh_->model.kind() + ", MQAR whole-output compare"; }
  std::unique_ptr<BlockWorker> twin() const override { return std::make_unique<TwinWorker>(sh_); }
  std::unique_ptr<BlockWorker> cuda() const override {
    if (!cuda_device().present) throw std::runtime_error(cuda_device().why_not);
    return std::make_unique<CudaWorker>(sh_, batch_);
  }
  std::uint64_t twin_block() const override { return 1024; }
  std::uint64_t cuda_block() const override { return std::min<std::uint64_t>(8 * batch_, std::uint64_t{1} << 24); }

 private:
  std::shared_ptr<const Shared> sh_;
  std::uint64_t batch_ = 1;
};

}  // namespace

ModCodec mod_codec(const mqar::Codec& c) {
  ModCodec k;
  k.enc = c.enc == mqar::Encoding::OneHot ? kModOneHot : (c.enc == mqar::Encoding::Binary ? kModBinary : kModPHot);
  k.c = static_cast<std::int32_t>(c.c);
  k.p = static_cast<std::int32_t>(c.p);
  k.base = static_cast<std::int32_t>(c.base);
  k.d = static_cast<std::int32_t>(c.d);
  return k;
}

std::shared_ptr<const DeviceProgram> mqar_mod_program(const mqar::Domain& dom, const mqar::Codec& codec, const Model& model) {
  const std::optional<TriplesSource> src = triples_source(dom);
  if (!src) throw std::invalid_argument("the modular device path runs triples domains (exhaustive or triples_sampled)");
  if (model.N != 3 * dom.triples_n || model.d != codec.d) throw std::invalid_argument("model shape does not match the domain");
  auto sh = std::make_shared<Shared>(Shared{ModModel(model, 1), *src, mod_codec(codec)});
  return std::make_shared<MqarModProgram>(std::move(sh));
}

std::shared_ptr<const DeviceProgram> try_mqar_mod_program(const mqar::Domain& dom, const mqar::Codec& codec,
                                                          const Model& model) {
  try {
    return mqar_mod_program(dom, codec, model);
  } catch (const std::invalid_argument&) {
    return nullptr;
  }
}

}  // namespace cz::gpu
