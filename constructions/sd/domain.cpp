#include "constructions/sd/domain.h"

#include <algorithm>

#include "util/error.h"
#include "verify/matrix_domain.h"
#include "util/seeded.h"

namespace cz::sdc {

SdDomain metric_domain(const Params& p) {
  SdDomain d = make_sd_domain(p, DomainOptions{});
  if (!d.exhaustive) d.count = std::min<std::uint64_t>(d.count, 4096);
  return d;
}

sd::Instance shrink_instance(sd::Instance x, const std::function<bool(const sd::Instance&)>& fails) {
  for (bool progress = true; progress;) {
    progress = false;
    for (int side = 0; side < 2 && !progress; ++side) {
      auto& s = side ? x.B : x.A;
      for (std::size_t i = 0; i < s.size() && !progress; ++i) {
        sd::Instance y = x;
        auto& t = side ? y.B : y.A;
        t.erase(t.begin() + static_cast<std::ptrdiff_t>(i));
        if (fails(y)) { x = std::move(y); progress = true; }
      }
    }
  }
  return x;
}

Check instance_check(const SdDomain& dom, std::function<std::optional<Failure>(const sd::Instance&)> fail_of,
                     std::function<SdFails()> block_fails) {
  Check c;
  c.domain = dom.exhaustive ? "exhaustive" : "sampled";
  c.instances = dom.count;
  c.description = dom.describe();
  c.run = [dom, fail_of](std::uint64_t k) {
    auto f = fail_of(dom.instance(k));
    if (f) f->instance = sd::to_json(dom.instance(k));
    return f;
  };
  c.shrink = [dom, fail_of](const Failure& f) {
    const std::uint64_t index = f.instance["index"].get<std::uint64_t>();
    sd::Instance x = shrink_instance(dom.instance(index), [&](const sd::Instance& y) { return fail_of(y).has_value(); });
    Failure s = *fail_of(x);
    s.instance = sd::to_json(x);
    s.instance["index"] = index;
    s.instance["shrunk"] = true;
    return s;
  };
  if (block_fails) {
    struct Worker : BlockWorker {
      SdDomain dom;
      SdFails fails;
      void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
        for (std::uint64_t k = k0; k < k0 + count; ++k)
          if (fails(dom.instance(k))) r.fail(k);
      }
    };
    c.block = [dom, block_fails] {
      auto w = std::make_unique<Worker>();
      w->dom = dom;
      w->fails = block_fails();
      return std::unique_ptr<BlockWorker>(std::move(w));
    };
    c.block_size = 256;
    c.block_kind = "per-thread model caches";
  } else {
    c.block = scalar_blocks(c.run);
    c.block_kind = "adapter over run(k)";
  }
  return c;
}

}  // namespace cz::sdc
