#include "constructions/eq/via_mqar_block.h"

#include <array>
#include <stdexcept>

namespace cz::eqc {
namespace {

using mqarc::LaneProgram;
constexpr std::size_t L = LaneProgram::kLanes;

class Worker : public BlockWorker {
 public:
  Worker(std::shared_ptr<const LaneProgram> P, EqBlockDomain dom, bool any,
         std::function<std::optional<Failure>(std::uint64_t)> scalar)
      : P_(std::move(P)), dom_(std::move(dom)), any_(any), scalar_(std::move(scalar)) {
    if (P_->N() != 12 || P_->d() != dom_.c) throw std::logic_error("eq/via-mqar: the lane program is not 12 x c");
    P_->reserve(s_);
  }

  void run(std::uint64_t k0, std::uint64_t count, BlockResult& r) override {
    if (!P_->safe()) {
      for (std::uint64_t k = k0; k < k0 + count; ++k)
        if (scalar_(k)) r.fail(k);
      return;
    }
    for (std::uint64_t lo = k0; lo < k0 + count; lo += L) {
      const std::size_t used = static_cast<std::size_t>(std::min<std::uint64_t>(L, k0 + count - lo));
      // JRT Prop G.8's prompt (eq::to_mqar): triples (u1,1,u1), (u2,1,u2), (u1,1,u1), (u2,1,u2);
      // row 3i key, 3i+1 value, 3i+2 query.
      for (std::size_t t = 0; t < L; ++t) {
        const auto [a, b] = dom_.pair(lo + std::min(t, used - 1));  // spare lanes repeat the last instance
        u1_[t] = a;
        u2_[t] = b;
      }
      P_->clear_inputs(s_);
      for (std::size_t t = 0; t < L; ++t)
        for (std::size_t p = 0; p < 12; ++p) {
          const std::uint32_t tok = p % 3 == 1 ? 1 : ((p / 3) % 2 == 0 ? u1_[t] : u2_[t]);
          const std::uint32_t slot = P_->in_slot(p, tok);
          if (slot != LaneProgram::kZero) P_->set_input(s_, slot, t, 1);
        }
      P_->run(s_);
      for (std::size_t t = 0; t < used; ++t)
        if (decode(t) != (u1_[t] == u2_[t])) r.fail(lo + t);
    }
  }

 private:
  // The scalar decode (via_mqar.cpp) on lane t's output: q1: row 5 is exactly the one-hot code of
  // token 1 (decode_row answers Token 1); any: some entry of a query row 3i+2, i >= 1, is nonzero.
  bool decode(std::size_t t) const {
    if (!any_) {
      for (std::size_t j = 0; j < dom_.c; ++j)
        if (P_->output(s_, P_->out_slot(5, j), t) != (j == 1 ? 1 : 0)) return false;
      return true;
    }
    for (std::size_t i = 1; i < 4; ++i)
      for (std::size_t j = 0; j < dom_.c; ++j)
        if (P_->output(s_, P_->out_slot(3 * i + 2, j), t) != 0) return true;
    return false;
  }

  std::shared_ptr<const LaneProgram> P_;
  EqBlockDomain dom_;
  bool any_;
  std::function<std::optional<Failure>(std::uint64_t)> scalar_;
  LaneProgram::Scratch s_;
  std::array<std::uint32_t, L> u1_{}, u2_{};
};

}  // namespace

std::unique_ptr<BlockWorker> attention_eq_worker(std::shared_ptr<const LaneProgram> P, EqBlockDomain dom, bool any,
                                                 std::function<std::optional<Failure>(std::uint64_t)> scalar) {
  return std::make_unique<Worker>(std::move(P), std::move(dom), any, std::move(scalar));
}

}  // namespace cz::eqc
